#!/usr/bin/env bash
# The real-size step of issue 23 (opt-in: scripts/bench.sh --real-size; minutes, never in
# ctest): `otpu-mkcheckpoint DIR --shape qwen3-0.6b`, then `otpu-lens record --model DIR
# --prompt-ids 1` on the board model (--sim) and on the emulated card (--dev through
# otpu-xdma-emu, started here and stopped after), each under /usr/bin/time -v (wall and CPU
# seconds, peak RSS; the emulator process's CPU seconds and peak RSS from /proc), the records
# each step kept and lost, whether the two profiles are equal (scripts/profiles_equal.py: the
# files' JSON equal but for `created`, each profile's config.MEM and board.UPTIME), `lens
# info`/`summary`/`diff` on the profile (exit
# codes, seconds) and the app's page bench on it (page ready against inflate + parse in the
# page, the ratio also as page_ready_over_inflate_parse). Budgets (issue 23): mkcheckpoint
# <= 20 CPU s and 1.5 GB, record <= 2 GB, lost 0, page ready <= 2x inflate + parse.
# Prints one JSON object; the tools' own output goes to stderr. Usage:
# scripts/bench_real_size.sh BUILD_DIR (otpu-mkcheckpoint, otpu-lens, otpu-xdma-emu, lens and
# lens_page_bench built; scripts/bench.sh builds them). OTPU_BENCH_KEEP=DIR keeps the
# checkpoint and the profiles in DIR.
set -euo pipefail
build=${1:?usage: bench_real_size.sh BUILD_DIR}
emu_pid=
stop_emu() {  # the emulator this script started, by its pid
  if [[ -n "$emu_pid" ]]; then
    kill -TERM "$emu_pid" 2>/dev/null || true
    wait "$emu_pid" 2>/dev/null || true
    emu_pid=
  fi
}
if [[ -n "${OTPU_BENCH_KEEP:-}" ]]; then
  tmp=$OTPU_BENCH_KEEP
  mkdir -p "$tmp"
  trap stop_emu EXIT
else
  tmp=$(mktemp -d)
  trap 'stop_emu; rm -rf "$tmp"' EXIT
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
lens_rec="$build/host/programs/otpu-lens"
# record BOARD_ARG NAME: one recording of the step; sets rec_json (figures) from its report.
record() {
  /usr/bin/time -v -o "$tmp/$2.time" "$lens_rec" record $1 --model "$tmp/ckpt" --prompt-ids 1 \
    -o "$tmp/$2.otpuprof" > "$tmp/$2.out"
  cat "$tmp/$2.out" >&2
  local line cycles records lost
  line=$(grep -m1 ' hw profile, ' "$tmp/$2.out" || true)
  cycles=$(sed -n 's/.* hw profile, \([0-9]*\) cycles.*/\1/p' <<<"$line")
  records=$(sed -n 's/.*, \([0-9]*\) records (count.*/\1/p' <<<"$line")
  lost=$(sed -n 's/.*, lost \([0-9]*\),.*/\1/p' <<<"$line")
  rec_json=$(printf '%s, "cycles": %s, "records": %s, "lost": %s, "file_mb": %.1f' \
    "$(timed "$tmp/$2.time")" "${cycles:-null}" "${records:-null}" "${lost:-null}" \
    "$(awk -v b="$(stat -c %s "$tmp/$2.otpuprof")" 'BEGIN { print b / 1e6 }')")
}
record --sim step
sim=$rec_json
# The same step through the emulated card: otpu-xdma-emu in the foreground (its pid is ours to
# stop), its device files under $tmp/mnt.
rm -rf "$tmp/mnt" "$tmp/run"
mkdir -p "$tmp/mnt" "$tmp/run"
"$build/host/xdma_emu/otpu-xdma-emu" "$tmp/mnt" --foreground > "$tmp/emu.out" 2> "$tmp/emu.err" &
emu_pid=$!
for _ in $(seq 100); do [[ -e "$tmp/mnt/xdma0_user" ]] && break; sleep 0.1; done
OTPU_RUN_DIR="$tmp/run" record "--dev $tmp/mnt/xdma0" dev
dev=$rec_json
# The emulator's own CPU seconds and peak RSS, from /proc before it stops.
emu=$(awk -v hz="$(getconf CLK_TCK)" -v hwm="$(awk '/VmHWM/ { print $2 }' "/proc/$emu_pid/status")" \
  '{ sub(/.*\) /, ""); printf "\"cpu_s\": %.2f, \"peak_rss_mb\": %.0f", ($12 + $13) / hz, hwm / 1024 }' \
  "/proc/$emu_pid/stat")
stop_emu
equal=$("$(dirname "$0")/profiles_equal.py" "$tmp/step.otpuprof" "$tmp/dev.otpuprof" || true)
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
diff=$(run_s "$lens" diff "$tmp/step.otpuprof" "$tmp/dev.otpuprof")
page=$("$build/lens/app/lens_page_bench" --profile "$tmp/step.otpuprof" || echo null)
ratio=$(sed -n 's/.*"ready_over_inflate_parse": "\{0,1\}\([0-9.]*\).*/\1/p' <<<"$page")
printf '{"mkcheckpoint": {"shape": "qwen3-0.6b", %s}, "record": {"prompt_ids": "1", %s}, "record_dev": {"prompt_ids": "1", %s, "emulator": {%s}}, "profiles_equal": %s, "info": %s, "summary": %s, "diff": %s, "page_ready_over_inflate_parse": %s, "page": %s}\n' \
  "$mk" "$sim" "$dev" "$emu" "$(python3 -c 'import json, sys; print(json.dumps(json.loads(sys.argv[1] or "{}").get("equal")))' "$equal")" \
  "$info" "$summary" "$diff" "${ratio:-null}" "$page"
