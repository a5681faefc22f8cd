#!/usr/bin/env bash
# Measures, never asserts: ISA simulator instructions/s and simulated cycles/s on `mlp`, and
# .otpuprof write/read speed on a synthetic profile of 1M instructions. Builds lens_bench when
# needed (build output on stderr) and prints one JSON object on stdout. Extra arguments go to
# lens_bench (--workload NAME, --instrs N, --seconds S, --dir DIR). OTPU_BUILD_DIR picks the
# build directory.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${OTPU_BUILD_DIR:-build}
if [[ ! -f "$build/build.ninja" ]]; then
  scripts/setup.sh >&2
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
fi
cmake --build "$build" --target lens_bench >&2
exec "$build/lens/lens_bench" "$@"
