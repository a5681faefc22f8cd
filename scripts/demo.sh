#!/usr/bin/env bash
# The main job: set up, build, record a profile and write the page.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build=${OTPU_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)"
mkdir -p out
# One decode step of qwen-tiny: earlier positions on the ISA simulator, the traced one on the
# Verilated RTL (until the board model lands: then otpu-lens record --sim --workload qwen-tiny).
"$build/lens/lens" record qwen-tiny -o out/demo.otpuprof
"$build/lens/lens" info out/demo.otpuprof
"$build/lens/lens" html out/demo.otpuprof -o out/demo.html
echo "Open the profile: xdg-open out/demo.html, or serve it: $build/lens/lens open out/demo.otpuprof"
