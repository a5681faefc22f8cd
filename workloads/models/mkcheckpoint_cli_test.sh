#!/usr/bin/env bash
# otpu-mkcheckpoint's command line: -o/--out DIR names the directory as every otpu program names
# an output; DIR and -o together, or neither, are usage errors (exit 2, one stderr line).
# usage: mkcheckpoint_cli_test.sh OTPU_MKCHECKPOINT
set -u
bin=$1
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail() { echo "mkcheckpoint_cli_test: $*" >&2; exit 1; }

"$bin" -o "$w/short" || fail "-o DIR: exit $?"
"$bin" --out "$w/long" --seed 3 || fail "--out DIR: exit $?"
for d in short long; do [ -f "$w/$d/config.json" ] || fail "--out: no $d/config.json"; done

expect_usage() {  # expect_usage LINE ARGS...
  local want=$1 err code
  shift
  err=$("$bin" "$@" 2>&1 >/dev/null)
  code=$?
  [ "$code" = 2 ] || fail "$*: exit $code, want 2"
  [ "$err" = "$want" ] || fail "$*: stderr '$err', want '$want'"
}
expect_usage "otpu-mkcheckpoint: DIR and -o: name the directory once" "$w/a" -o "$w/b"
expect_usage "otpu-mkcheckpoint: no DIR (see otpu-mkcheckpoint --help)"
expect_usage "otpu-mkcheckpoint: --shards 0: must be at least 1" "$w/c" --shards 0
[ ! -e "$w/a" ] && [ ! -e "$w/b" ] || fail "a usage error wrote a checkpoint"
echo "otpu-mkcheckpoint: -o/--out and its usage errors as documented"
