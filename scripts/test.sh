#!/usr/bin/env bash
# Sets up what is missing, configures, builds and runs every test (ctest, output on failure),
# then the regression smoke matrix (otpu-regress run regress/smoke.json, docs/regress.md).
# Extra arguments go to ctest (e.g. -R Isa) and skip the smoke matrix. OTPU_BUILD_DIR picks the
# build directory.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build=${OTPU_BUILD_DIR:-build}
jobs=$(nproc)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$jobs"
ctest --test-dir "$build" --output-on-failure -j"$jobs" "$@"
if (($# == 0)); then
  # Reports (junit.xml, summary.md) in $build/regress/smoke; a passed cell whose key is
  # unchanged is reused from the previous run.
  "$build/host/programs/otpu-regress" run regress/smoke.json -j"$jobs" --out "$build/regress/smoke"
fi
