#!/usr/bin/env bash
# The bash completion of the otpu programs (scripts/completions/): sources it in bash as the
# installed per-program file does, sets COMP_WORDS/COMP_CWORD as bash would, calls the function
# and checks COMPREPLY: commands, options, option values, workload names from `list`,
# configurations, --name=value, files, directories and otpu-lock's command.
# usage: completion_test.sh SOURCE_DIR BIN_DIR...
set -u
src=$1
shift
for d in "$@"; do PATH=$d:$PATH; done
export PATH
failures=0

# The per-program file the install puts in share/bash-completion/completions.
# shellcheck source=/dev/null
. "$src/scripts/completions/lens"
complete -p otpu-regress >/dev/null || { echo "otpu-regress: no completion registered"; exit 1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || exit 1
touch run.otpuprof run.json
mkdir outdir

# expect "WANT (sorted, space separated)" WORD... : completes the last WORD.
expect() {
  local want=$1
  shift
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$*"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _otpu_complete
  local got
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort -u | tr '\n' ' ' | sed 's/ $//')
  if [[ $got != "$want" ]]; then
    echo "FAIL: $* -> [$got], want [$want]"
    failures=$((failures + 1))
  fi
}

# The names `lens list` prints, the source of workload completion.
workloads=$(lens list | awk '{print $1}' | sort -u | tr '\n' ' ' | sed 's/ $//')
mlp_workloads=$(lens list | awk '$1 ~ /^mlp/ {print $1}' | sort -u | tr '\n' ' ' | sed 's/ $//')
[[ -n $mlp_workloads ]] || { echo "FAIL: lens list has no mlp workloads"; exit 1; }

expect "diff export help html info list open record summary" lens ""
expect "record" lens rec
expect "--help --version" lens --
expect "$workloads" lens record ""
expect "$mlp_workloads" lens record ml
expect "--out" lens record mlp --ou
expect "board sim" lens record mlp --config ""
expect "board" lens record mlp --config b
expect "board" lens record mlp --config = b
expect "board sim" lens record mlp --config =
expect "run.json run.otpuprof" lens info run.
expect "run.json run.otpuprof" lens record mlp -o run.
expect "--json" lens info run.otpuprof --js
expect "auto first last stream" otpu-lens record --keep ""
expect "$mlp_workloads" otpu-lens record --sim --workload ml
expect "int4 int8" otpu-lens record --head-format int
expect "--no-browser" otpu-lens record --no
expect "diff export help html info list open record summary" otpu-lens ""
expect "cell help list merge run slurm" otpu-regress ""
expect "--json" otpu-regress list --js
expect "--jobs" otpu-regress run --jo
expect "outdir" otpu-regress run x.json -o out
expect "outdir" otpu-xdma-emu out
expect "board sim" otpu-xdma-emu mnt --config ""
expect "--config" otpu-lock --con
expect "board sim" otpu-lock --config ""
expect "--seed --shape --shards" otpu-mkcheckpoint --s
# otpu-lock's COMMAND is any command on PATH; its arguments are files.
expect "otpu-lens otpu-lock" otpu-lock otpu-l
expect "run.json run.otpuprof" otpu-lock --dev /dev/x true run.

if ((failures)); then
  echo "$failures completion cases failed"
  exit 1
fi
echo "bash completion: every case completes as expected"
