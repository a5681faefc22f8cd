#!/usr/bin/env bash
# Simulation speed of the Verilated models (docs/rtl.md "Simulation speed"). Measures, never
# asserts. Prints one JSON object:
#   callgrind: host instructions per simulated core cycle under `valgrind --tool=callgrind`
#     (instruction counts do not drift with the machine's load) of the bare core (RtlHarness,
#     event tap off) on mlp-small (whole) and mlp (its first 30,000 cycles), and of the board
#     model on mlp-small including Card's whole run protocol (register writes, STATUS polls,
#     counter reads), as every otpu program runs it; board_vs_bare = bare instructions per cycle / board's (1 = the board costs nothing);
#     and the same on whole mlp with the hardware trace streamed (Card drains the ring while the
#     core runs, as `otpu-lens record` does): board_vs_bare_mlp_stream (issue 23: >= 0.9)
#   native: the same runs' simulated cycles per CPU second (noisy on a shared machine)
#   qwen3_0_6b: one decode step of a random checkpoint of Qwen3-0.6B's shapes (otpu-mkcheckpoint
#     --shape qwen3-0.6b, prompt id 1, position 0 traced) on the board model through
#     `otpu-lens record --sim`: the step's cycles and the record's wall seconds (set
#     OTPU_BENCH_QWEN06=0 to skip it: it writes a 1.2 GB checkpoint)
# Usage: scripts/bench_sim_speed.sh BUILD_DIR (speed_bench, otpu-lens and otpu-mkcheckpoint
# built; scripts/bench.sh builds them).
set -euo pipefail
build=${1:?usage: bench_sim_speed.sh BUILD_DIR}
bench="$build/tests/bench/speed_bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# callgrind NAME ARGS...: runs speed_bench under callgrind; prints its JSON line with
# "host_instr" and "instr_per_cycle" added.
callgrind() {
  local name=$1
  shift
  local json
  json=$(valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$tmp/$name.cg" \
           "$bench" "$@" 2>"$tmp/$name.err")
  local instr
  instr=$(awk '/^totals:/ {print $2}' "$tmp/$name.cg")
  local cycles
  cycles=$(sed -E 's/.*"cycles": ([0-9]+).*/\1/' <<<"$json")
  awk -v j="$json" -v i="$instr" -v c="$cycles" 'BEGIN {
    sub(/}$/, "", j); printf "%s, \"host_instr\": %.0f, \"instr_per_cycle\": %.0f}", j, i, i / c }'
}

bare_small=$(callgrind bare_small --workload mlp-small)
bare_mlp=$(callgrind bare_mlp --workload mlp --max-cycles 30000)
board_small=$(callgrind board_small --workload mlp-small --board)
bare_mlp_whole=$(callgrind bare_mlp_whole --workload mlp)
board_mlp_stream=$(callgrind board_mlp_stream --workload mlp --board --trace stream)
# ratio A B: A's instructions per cycle / B's.
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    match(a, /"instr_per_cycle": [0-9.]+/); x = substr(a, RSTART + 19, RLENGTH - 19)
    match(b, /"instr_per_cycle": [0-9.]+/); y = substr(b, RSTART + 19, RLENGTH - 19)
    printf "%.3f", x / y }'
}
ratio=$(ratio "$bare_small" "$board_small")
ratio_stream=$(ratio "$bare_mlp_whole" "$board_mlp_stream")

native_small=$("$bench" --workload mlp-small)
native_mlp=$("$bench" --workload mlp)
native_board=$("$bench" --workload mlp-small --board)

qwen='null'
if [[ ${OTPU_BENCH_QWEN06:-1} != 0 ]]; then
  "$build/workloads/models/otpu-mkcheckpoint" "$tmp/q06" --shape qwen3-0.6b >&2
  t0=$(date +%s%N)
  "$build/host/programs/otpu-lens" record --sim --model "$tmp/q06" --prompt-ids 1 \
    -o "$tmp/q06.otpuprof" >"$tmp/q06.out"
  ms=$((($(date +%s%N) - t0) / 1000000))
  cat "$tmp/q06.out" >&2
  cycles=$(grep -oE '[0-9]+ cycles' "$tmp/q06.out" | head -1 | grep -oE '[0-9]+' || echo 0)
  qwen=$(printf '{"model": "qwen3-0.6b shapes (random)", "position": 0, "cycles": %s, "record_wall_s": %d.%03d}' \
    "${cycles:-0}" $((ms / 1000)) $((ms % 1000)))
fi

printf '{"callgrind": {"bare_mlp_small": %s, "bare_mlp_30k": %s, "board_mlp_small": %s, "board_vs_bare": %s, "bare_mlp": %s, "board_mlp_stream": %s, "board_vs_bare_mlp_stream": %s}, "native": {"bare_mlp_small": %s, "bare_mlp": %s, "board_mlp_small": %s}, "qwen3_0_6b": %s}\n' \
  "$bare_small" "$bare_mlp" "$board_small" "$ratio" "$bare_mlp_whole" "$board_mlp_stream" \
  "$ratio_stream" "$native_small" "$native_mlp" "$native_board" "$qwen"
