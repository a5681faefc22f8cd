#!/bin/bash
# Each program given as an argument answers --version with exit 0 and "NAME otpu DESCRIBE
# (rtl configurations: ...; register maps: ...)", the same string after its name for all, and a
# profile lens writes carries it as tool_version.
set -euo pipefail
first=""
for prog in "$@"; do
  out=$("$prog" --version)
  name=$(basename "$prog")
  [[ "$out" =~ ^$name\ (otpu\ [^ ]+\ \(rtl\ configurations:\ [a-z ]+\;\ register\ maps:\ [0-9 ]+\))$ ]] ||
    { echo "$name --version: '$out'" >&2; exit 1; }
  s=${BASH_REMATCH[1]}
  [ -z "$first" ] && first=$s
  [ "$s" = "$first" ] || { echo "$name --version: '$s' differs from '$first'" >&2; exit 1; }
done
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
"$1" record mlp-small --isa -o "$w/x.otpuprof" >/dev/null
zcat "$w/x.otpuprof" | grep -qF "\"tool_version\":\"$first\"" ||
  { echo "the profile has no tool_version \"$first\"" >&2; exit 1; }
echo "version: $first"
