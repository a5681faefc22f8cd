#!/usr/bin/env bash
# Sets up what is missing, configures, builds and runs every test (ctest, output on failure).
# Extra arguments go to ctest (e.g. -R Isa). OTPU_BUILD_DIR picks the build directory.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build=${OTPU_BUILD_DIR:-build}
jobs=$(nproc)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$jobs"
ctest --test-dir "$build" --output-on-failure -j"$jobs" "$@"
