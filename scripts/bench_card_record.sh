#!/usr/bin/env bash
# `otpu-lens record --dev` through otpu-xdma-emu against `otpu-lens record --sim`, the same
# tiny checkpoint (otpu-mkcheckpoint) and step (prompt 1,42,318,7, position 3 traced): wall
# seconds of each from start to the file written, and dev/sim. Prints one JSON object; the
# recordings' own output goes to stderr. Usage: scripts/bench_card_record.sh BUILD_DIR (with
# otpu-lens, otpu-xdma-emu and otpu-mkcheckpoint built; scripts/bench.sh builds them).
set -euo pipefail
build=${1:?usage: bench_card_record.sh BUILD_DIR}
tmp=$(mktemp -d)
mkdir "$tmp/mnt" "$tmp/run"
cleanup() {
  fusermount3 -u "$tmp/mnt" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
"$build/workloads/models/otpu-mkcheckpoint" "$tmp/tiny" >&2
dev=$("$build/host/xdma_emu/otpu-xdma-emu" "$tmp/mnt")  # detaches once mounted
lens="$build/host/programs/otpu-lens"
args=(--model "$tmp/tiny" --prompt-ids 1,42,318,7)
now_ms() { echo $(($(date +%s%N) / 1000000)); }
t0=$(now_ms)
OTPU_RUN_DIR="$tmp/run" "$lens" record --dev "$dev" "${args[@]}" -o "$tmp/dev.otpuprof" >&2
t1=$(now_ms)
"$lens" record --sim "${args[@]}" -o "$tmp/sim.otpuprof" >&2
t2=$(now_ms)
awk -v d=$((t1 - t0)) -v s=$((t2 - t1)) 'BEGIN {
  printf "{\"model\": \"tiny checkpoint\", \"steps\": 4, \"traced\": 1, \"dev_wall_s\": %.3f, " \
         "\"sim_wall_s\": %.3f, \"dev_over_sim\": %.2f}\n", d / 1000, s / 1000, d / s }'
