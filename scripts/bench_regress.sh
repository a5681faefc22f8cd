#!/usr/bin/env bash
# The regression runner on the default matrix (docs/regress.md): its cell count, the wall
# seconds of a full run with -j 2, and the share of cells reused from the first run's results
# by a second run with nothing changed. Prints one JSON object. Usage: bench_regress.sh BUILD
# [MATRIX]. Measures, never asserts: verdicts may fail (a missing baseline) without stopping it.
set -euo pipefail
build=${1:-build}
matrix=${2:-regress/default.json}
regress="$build/host/programs/otpu-regress"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cells=$("$regress" list "$matrix" | wc -l)
t0=$(date +%s%N)
"$regress" run "$matrix" -j 2 --no-reuse --out "$tmp/out" >&2 || true
ms=$((($(date +%s%N) - t0) / 1000000))
t1=$(date +%s%N)
"$regress" run "$matrix" -j 2 --out "$tmp/out" >&2 || true
ms2=$((($(date +%s%N) - t1) / 1000000))
reused=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["counts"]["reused"])' "$tmp/out/index.json")
passed=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["counts"]["pass"])' "$tmp/out/index.json")
# Functional coverage of the first run (coverage.json: bins hit of the model's).
coverage=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("{\"bins\": %d, \"hit\": %d, \"percent\": %.1f}" % (d["bins"], d["hit"], d["percent"]))' "$tmp/out/coverage.json")
printf '{"matrix": "%s", "cells": %d, "wall_s_j2": %d.%03d, "second_run_wall_s": %d.%03d, "reused": %d, "passed_first_run": %d, "reused_share": %s, "functional_coverage": %s}\n' \
  "$matrix" "$cells" $((ms / 1000)) $((ms % 1000)) $((ms2 / 1000)) $((ms2 % 1000)) "$reused" "$passed" \
  "$(python3 -c "print(round($reused / $cells, 3))")" "$coverage"
