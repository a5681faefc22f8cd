#!/usr/bin/env bash
# The real-size step of issue 23 (opt-in: scripts/bench.sh --real-size; minutes, never in
# ctest): `otpu-mkcheckpoint DIR --shape qwen3-0.6b` and `otpu-lens record --sim --model DIR
# --prompt-ids 1` under /usr/bin/time -v (wall and CPU seconds, peak RSS), the records the
# step kept and lost, `lens info`/`summary`/`diff` on the profile (exit codes, seconds) and the
# app's page bench on it (page ready against inflate + parse in the page, the ratio also as
# page_ready_over_inflate_parse). Prints one JSON object; the tools' own output goes to
# stderr. Usage: scripts/bench_real_size.sh BUILD_DIR
# (otpu-mkcheckpoint, otpu-lens, lens and lens_page_bench built; scripts/bench.sh builds them).
# OTPU_BENCH_KEEP=DIR keeps the checkpoint and the profile in DIR.
set -euo pipefail
build=${1:?usage: bench_real_size.sh BUILD_DIR}
if [[ -n "${OTPU_BENCH_KEEP:-}" ]]; then
  tmp=$OTPU_BENCH_KEEP
  mkdir -p "$tmp"
else
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
fi
# "wall_s": ..., "cpu_s": ..., "peak_rss_mb": ... from a /usr/bin/time -v report.
timed() {
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i] }
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident set size/ { r = $2 }
    END { printf "\"wall_s\": %.2f, \"cpu_s\": %.2f, \"peak_rss_mb\": %.0f", w, u + s, r / 1024 }' "$1"
}
rm -rf "$tmp/ckpt"
/usr/bin/time -v -o "$tmp/mk.time" "$build/workloads/models/otpu-mkcheckpoint" "$tmp/ckpt" \
  --shape qwen3-0.6b >&2
mk=$(timed "$tmp/mk.time")
/usr/bin/time -v -o "$tmp/rec.time" "$build/host/programs/otpu-lens" record --sim \
  --model "$tmp/ckpt" --prompt-ids 1 -o "$tmp/step.otpuprof" > "$tmp/rec.out"
cat "$tmp/rec.out" >&2
rec=$(timed "$tmp/rec.time")
line=$(grep -m1 ' hw profile, ' "$tmp/rec.out" || true)
cycles=$(sed -n 's/.* hw profile, \([0-9]*\) cycles.*/\1/p' <<<"$line")
records=$(sed -n 's/.*, \([0-9]*\) records (count.*/\1/p' <<<"$line")
lost=$(sed -n 's/.*, lost \([0-9]*\),.*/\1/p' <<<"$line")
lens="$build/lens/lens"
run_s() {  # exit code and seconds of a command, its output to stderr
  local t0 t1 rc=0
  t0=$(date +%s%N)
  "$@" >&2 || rc=$?
  t1=$(date +%s%N)
  printf '{"exit": %d, "wall_s": %.2f}' "$rc" "$(awk -v n=$((t1 - t0)) 'BEGIN { print n / 1e9 }')"
}
info=$(run_s "$lens" info "$tmp/step.otpuprof")
summary=$(run_s "$lens" summary "$tmp/step.otpuprof")
diff=$(run_s "$lens" diff "$tmp/step.otpuprof" "$tmp/step.otpuprof")
page=$("$build/lens/app/lens_page_bench" --profile "$tmp/step.otpuprof" || echo null)
# Issue 23's figure: page ready over inflating and parsing in the page (at most 2).
ratio=$(sed -n 's/.*"ready_over_inflate_parse": "\{0,1\}\([0-9.]*\).*/\1/p' <<<"$page")
printf '{"mkcheckpoint": {"shape": "qwen3-0.6b", %s}, "record": {"prompt_ids": "1", %s, "cycles": %s, "records": %s, "lost": %s, "file_mb": %.1f}, "info": %s, "summary": %s, "diff": %s, "page_ready_over_inflate_parse": %s, "page": %s}\n' \
  "$mk" "$rec" "${cycles:-null}" "${records:-null}" "${lost:-null}" \
  "$(awk -v b="$(stat -c %s "$tmp/step.otpuprof")" 'BEGIN { print b / 1e6 }')" \
  "$info" "$summary" "$diff" "${ratio:-null}" "$page"
