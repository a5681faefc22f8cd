#!/usr/bin/env bash
# The cost of the SV assertions (docs/regress.md "Assertion cost"). Measures, never asserts.
# Host instructions under `valgrind --tool=callgrind` (counts do not drift with the machine's
# load; wall time does) of tests/bench/speed_bench's simulation loop on mlp-small: the bare core,
# and the board model with Card's run protocol (what a regression cell runs), each
#   "assert":     in BUILD_DIR (the default build: --assert), the assertions evaluated;
#   "assert_off": the same binary with them switched off at run time (speed_bench --assert-off:
#                 Verilator's assertOn(false), which also skips the unique-case checks);
#   "no_assert":  in NOASSERT_DIR, the same tree configured with -DOTPU_RTL_ASSERT=OFF
#                 (default BUILD_DIR-noassert; configured and speed_bench built when needed).
# Prints one JSON object {"workload": "mlp-small", "core": {..., "ratio": R, "eval_ratio": E},
# "board": {...}}: ratio = assert / no_assert (the cost of building with --assert),
# eval_ratio = assert / assert_off (the part that evaluating the checks takes).
# Usage: scripts/bench_assert_cost.sh BUILD_DIR [NOASSERT_DIR]
set -euo pipefail
build=${1:?usage: bench_assert_cost.sh BUILD_DIR [NOASSERT_DIR]}
off=${2:-$build-noassert}
src=$(cd "$(dirname "$0")/.." && pwd)
if [[ ! -f "$off/build.ninja" ]]; then
  cmake -S "$src" -B "$off" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOTPU_RTL_ASSERT=OFF >&2
fi
cmake --build "$build" -j"${JOBS:-2}" --target speed_bench >&2
cmake --build "$off" -j"${JOBS:-2}" --target speed_bench >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# instr DIR NAME ARGS...: speed_bench's instructions under callgrind (its runs only).
instr() {
  local dir=$1 name=$2
  shift 2
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$tmp/$name.cg" \
    "$dir/tests/bench/speed_bench" "$@" >/dev/null 2>"$tmp/$name.err"
  awk '/^totals:/ {print $2}' "$tmp/$name.cg"
}

three() {
  local name=$1
  shift
  local on ev none
  on=$(instr "$build" "$name-on" "$@")
  ev=$(instr "$build" "$name-eval-off" "$@" --assert-off)
  none=$(instr "$off" "$name-none" "$@")
  awk -v a="$on" -v e="$ev" -v n="$none" 'BEGIN {
    printf "{\"assert\": %.0f, \"assert_off\": %.0f, \"no_assert\": %.0f, \"ratio\": %.4f, \"eval_ratio\": %.4f}",
      a, e, n, a / n, a / e }'
}

core=$(three core --workload mlp-small)
board=$(three board --workload mlp-small --board)
printf '{"workload": "mlp-small", "core": %s, "board": %s}\n' "$core" "$board"
