#!/bin/sh
# Records mlp-small on an emulated map-1 card (a bitstream without a trace buffer, docs/xdma.md)
# for the Lens browser test: a counters-only `board` profile written by the real card path.
# usage: record_card_m1_profile.sh OTPU_XDMA_EMU OTPU_LENS OUT
set -eu
emu=$1 lens=$2 out=$3
mnt=$(mktemp -d "${TMPDIR:-/tmp}/otpu_m1.XXXXXX")
run=$(mktemp -d "${TMPDIR:-/tmp}/otpu_m1_run.XXXXXX")
dev=$("$emu" "$mnt" --regmap 1)
status=0
# A private lock directory: other tests' emulators use the same device basename.
OTPU_RUN_DIR=$run "$lens" record --dev "$dev" --workload mlp-small -o "$out" || status=$?
fusermount3 -u "$mnt" || status=1
rmdir "$mnt" "$run" 2>/dev/null || true
exit $status
