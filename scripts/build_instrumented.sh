#!/bin/sh
# Builds otpu-regress with instrumented board models (--trace-fst, line and toggle --coverage)
# in a build directory of its own, for `otpu-regress cell --waves`, `run --waves-on-fail` and
# `run --code-coverage` (docs/regress.md "Waves" and "Code coverage"). The default build stays
# uninstrumented: coverage counters slow every cycle and traced models take longer to build.
#   scripts/build_instrumented.sh [BUILD_DIR]      (default: build-instr beside build/)
# otpu-regress of the default build finds it at build-instr/host/programs/otpu-regress, or at
# $OTPU_REGRESS_INSTRUMENTED.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$src/build-instr}
cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOTPU_RTL_INSTRUMENT=ON >/dev/null
cmake --build "$dir" -j"${JOBS:-2}" --target otpu-regress otpu-xdma-emu
echo "$dir/host/programs/otpu-regress"
