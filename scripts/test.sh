#!/usr/bin/env bash
# Sets up what is missing, configures, builds and runs every test (ctest, output on failure),
# then the regression smoke matrix (otpu-regress run regress/smoke.json, docs/regress.md) and the
# waves test in a build of its own (BUILD/waves: board models with --trace-fst, no coverage).
# Extra arguments go to ctest (e.g. -R Isa) and skip the smoke matrix. OTPU_BUILD_DIR picks the
# build directory. The libFuzzer targets (tests/fuzz, clang) are built into BUILD/fuzz and each
# runs OTPU_FUZZ_SECONDS (default 20) as a ctest; OTPU_FUZZ=0 leaves them out.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Paths relative to the checkout in ccache's keys: every clone shares the cached objects.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
build=${OTPU_BUILD_DIR:-build}
jobs=$(nproc)
fuzz_dir=""
if [[ ${OTPU_FUZZ:-1} != 0 ]]; then
  cmake -S tests/fuzz -B "$build/fuzz" -G Ninja -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_COMPILER=clang++ >/dev/null
  cmake --build "$build/fuzz" -j"$jobs"
  fuzz_dir=$(cd "$build/fuzz" && pwd)
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOTPU_FUZZ_DIR="$fuzz_dir" \
  -DOTPU_FUZZ_SECONDS="${OTPU_FUZZ_SECONDS:-20}" >/dev/null
cmake --build "$build" -j"$jobs"
ctest --test-dir "$build" --output-on-failure -j"$jobs" "$@"
if (($# == 0)); then
  # Reports (junit.xml, summary.md) in $build/regress/smoke; a passed cell whose key is
  # unchanged is reused from the previous run.
  "$build/host/programs/otpu-regress" run regress/smoke.json -j"$jobs" --out "$build/regress/smoke"
  # Waves of a failing cell, read back with fst2vcd (docs/regress.md "Waves"): the traced board
  # builds once (ccache keeps it); only what otpu-regress and the test need.
  cmake -S . -B "$build/waves" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOTPU_RTL_INSTRUMENT=ON \
    -DOTPU_RTL_INSTRUMENT_COVERAGE=OFF >/dev/null
  cmake --build "$build/waves" -j"$jobs" --target regress_waves_test otpu-regress otpu-xdma-emu
  ctest --test-dir "$build/waves" --output-on-failure -R '^WavesTest\.' --no-tests=error
fi
