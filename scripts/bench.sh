#!/usr/bin/env bash
# Measures, never asserts: ISA simulator instructions/s and simulated cycles/s on `mlp`,
# qwen-tiny decode on the ISA simulator and on the RTL (cycles and roofline efficiency of the
# step at position 8, wall seconds per step) and `lens record qwen-tiny --pos 8` wall seconds
# on the RTL (earlier positions on the ISA simulator), the Verilated core's simulated cycles/s on `mlp` with and
# without the event tap (and the tap's cost as a ratio), the RTL roofline efficiency and
# `lens record` wall seconds of mlp, mlp8 and layer, trace records/s through the decoder and
# hw profile builder (records of an mlp step), and .otpuprof write/read speed on a
# synthetic profile of 1M instructions; then the app's load time for that profile in headless
# chromium; `otpu-lens record --sim --workload qwen-tiny` wall seconds on the board model; and
# the board model's core cycles/s against the bare Verilated core (tests/bench/board_bench.cc, through Card); host
# register accesses/s and DMA MB/s through otpu-xdma-emu against the board model in-process
# (host/xdma_emu/xdma_emu_bench.cc), with a soak of 1000 emulated runs with a fault every 50th
# (the emulator's RSS every 100 runs, "xdma_emu".soak); and `otpu-lens record --dev` of a tiny checkpoint (written by
# otpu-mkcheckpoint) through an otpu-xdma-emu mount against `record --sim` of the same step (wall
# seconds and their ratio); otpu-regress on regress/default.json (cells, wall seconds with -j 2,
# the share reused by a second run: scripts/bench_regress.sh); and the simulation speed of the
# Verilated models (scripts/bench_sim_speed.sh: host instructions per simulated cycle under
# callgrind for the bare core on mlp-small and mlp and for the board model with its run
# protocol, their ratio, the same ratio on whole mlp with the trace streamed
# (board_vs_bare_mlp_stream), native cycles/s, and a Qwen3-0.6B-shaped decode step's cycles
# and wall seconds on the board model; OTPU_BENCH_QWEN06=0 skips that step); the SV assertions'
# cost (scripts/bench_assert_cost.sh: callgrind instructions with and without --assert, as
# "assert_cost".core.ratio and .board.ratio; .eval_ratio the part evaluating the checks takes). lens_bench also gives the
# ratios of issue 23 measured in one run: decode + hw profile build against decode only
# ("lens".trace_decode.build_over_decode_ratio), the profile write against RapidJSON +
# libdeflate and the read against zlib's inflate + RapidJSON's parse on the same data
# ("lens".profile_io.write_vs_rapidjson_libdeflate, read_vs_inflate_rapidjson), and the gzip
# levels' speed and size. With --real-size (first argument; minutes, opt-in) it also runs the
# real-size step (scripts/bench_real_size.sh: otpu-mkcheckpoint --shape qwen3-0.6b and
# `otpu-lens record --sim` of its step under /usr/bin/time -v, lens info/summary/diff and the
# page bench on the profile) as "real_size"; with --mutations the mutation check
# (scripts/mutate.py, tens of minutes) as "mutations". Builds lens_bench,
# lens_page_bench, otpu-lens, board_bench, speed_bench, xdma_emu_bench, otpu-xdma-emu,
# otpu-mkcheckpoint and otpu-regress when needed (build output on stderr) and prints one JSON
# object {"lens": ..., "page": ..., "otpu_lens_record": ..., "board": ..., "xdma_emu": ...,
# "otpu_lens_card": ..., "regress": ..., "sim_speed": ..., "assert_cost": ...} on stdout. Extra arguments go to
# lens_bench (--workload NAME,
# --decode-pos N, --instrs N, --seconds S, --rtl-pairs N, --dir DIR). OTPU_BUILD_DIR picks the
# build directory.
set -euo pipefail
cd "$(dirname "$0")/.."
real_size=0
mutations=0
while [[ "${1:-}" == "--real-size" || "${1:-}" == "--mutations" ]]; do
  [[ "$1" == "--real-size" ]] && real_size=1
  [[ "$1" == "--mutations" ]] && mutations=1
  shift
done
build=${OTPU_BUILD_DIR:-build}
if [[ ! -f "$build/build.ninja" ]]; then
  scripts/setup.sh >&2
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
fi
cmake --build "$build" --target lens_bench lens_page_bench otpu-lens board_bench xdma_emu_bench \
  otpu-xdma-emu otpu-mkcheckpoint otpu-regress speed_bench lens >&2
# {"lens": simulator and .otpuprof numbers, "page": the app's load-to-ready time for a 1M-instruction
# profile in headless chromium and the `lens html` write time (lens/app/page_bench.cc),
# "board": the board model's core cycles/s on mlp against the bare core (docs/board.md)}.
lens=$("$build/lens/lens_bench" "$@")
page=$("$build/lens/app/lens_page_bench" --instrs 1000000)
# otpu-lens record --sim --workload qwen-tiny: positions 0..3 on the board model, 3 traced,
# wall seconds from start to the file written (its progress lines go to stderr).
tmp=$(mktemp -d)
t0=$(date +%s%N)
"$build/host/programs/otpu-lens" record --sim --workload qwen-tiny -o "$tmp/q.otpuprof" >&2
ms=$((($(date +%s%N) - t0) / 1000000))
rm -rf "$tmp"
record=$(printf '{"workload": "qwen-tiny", "steps": 4, "traced": 1, "wall_s": %d.%03d}' \
  $((ms / 1000)) $((ms % 1000)))
# The board model's core cycles/s against the bare Verilated core, quantum 256 and 1.
board=$("$build/tests/bench/board_bench")
# XdmaBoard -> FUSE -> SimBoard: register reads/writes per second, DMA MB/s (docs/xdma.md).
xdma=$("$build/host/xdma_emu/xdma_emu_bench")
# otpu-lens record of the tiny checkpoint's step 3 (positions 0..2 prefilled) through the
# emulator (--dev: XdmaBoard -> FUSE -> SimBoard) against --sim (SimBoard in-process).
card=$(scripts/bench_card_record.sh "$build")
# otpu-regress on regress/default.json: cells, wall seconds with -j 2, reuse on a second run.
regress=$(scripts/bench_regress.sh "$build")
# Host instructions per simulated cycle (callgrind), board/bare, the Qwen3-0.6B-shaped step.
speed=$(scripts/bench_sim_speed.sh "$build")
# The SV assertions' cost: callgrind instructions with --assert against a -DOTPU_RTL_ASSERT=OFF
# build ($build-noassert) and against the checks switched off at run time, bare core and board
# model on mlp-small, as ratios.
assert_cost=$(scripts/bench_assert_cost.sh "$build")
real=null
if ((real_size)); then real=$(scripts/bench_real_size.sh "$build"); fi
# The mutation check (scripts/mutate.py on regress/smoke.json): each one-line RTL bug of
# scripts/mutations.tsv rebuilt in a scratch worktree and judged; tens of minutes, opt-in.
mut=null
if ((mutations)); then mut=$(scripts/mutate.py --matrix regress/smoke.json); fi
printf '{"lens": %s, "page": %s, "otpu_lens_record": %s, "board": %s, "xdma_emu": %s, "otpu_lens_card": %s, "regress": %s, "sim_speed": %s, "assert_cost": %s, "real_size": %s, "mutations": %s}\n' \
  "$lens" "$page" "$record" "$board" "$xdma" "$card" "$regress" "$speed" "$assert_cost" "$real" "$mut"
