#!/usr/bin/env bash
# Measures, never asserts: ISA simulator instructions/s and simulated cycles/s on `mlp`,
# qwen-tiny decode on the ISA simulator and on the RTL (cycles and roofline efficiency of the
# step at position 8, wall seconds per step) and `lens record qwen-tiny --pos 8` wall seconds
# on the RTL (earlier positions on the ISA simulator), the Verilated core's simulated cycles/s on `mlp` with and
# without the event tap (and the tap's cost as a ratio), the RTL roofline efficiency and
# `lens record` wall seconds of mlp, mlp8 and layer, and .otpuprof write/read speed on a
# synthetic profile of 1M instructions; then the app's load time for that profile in headless
# chromium. Builds lens_bench and lens_page_bench when needed (build output on stderr) and
# prints one JSON object {"lens": ..., "page": ...} on stdout. Extra arguments go to lens_bench (--workload NAME,
# --decode-pos N, --instrs N, --seconds S, --rtl-pairs N, --dir DIR). OTPU_BUILD_DIR picks the
# build directory.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${OTPU_BUILD_DIR:-build}
if [[ ! -f "$build/build.ninja" ]]; then
  scripts/setup.sh >&2
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
fi
cmake --build "$build" --target lens_bench lens_page_bench >&2
# {"lens": simulator and .otpuprof numbers, "page": the app's load-to-ready time for a 1M-instruction
# profile in headless chromium and the `lens html` write time (lens/app/page_bench.cc)}.
lens=$("$build/lens/lens_bench" "$@")
page=$("$build/lens/app/lens_page_bench" --instrs 1000000)
printf '{"lens": %s, "page": %s}\n' "$lens" "$page"
