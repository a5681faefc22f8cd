#!/usr/bin/env bash
# The main job: set up, build, record a profile and write the page.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build=${OTPU_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)"
mkdir -p out
# Two decode steps of qwen-tiny on the board model, its trace streamed to the host as the core
# runs, the way a card's is: positions 0..2 untraced, 3 and 4 traced (one hw profile each).
"$build/host/programs/otpu-lens" record --sim --workload qwen-tiny --tokens 2 -o out/qwen-tiny.otpuprof
"$build/host/programs/otpu-lens" info out/qwen-tiny.otpuprof
"$build/host/programs/otpu-lens" html out/qwen-tiny.otpuprof -o out/demo.html
echo "Open the profile: xdg-open out/demo.html, or serve it: $build/host/programs/otpu-lens open out/qwen-tiny.otpuprof"
