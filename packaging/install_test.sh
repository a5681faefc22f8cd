#!/bin/bash
# Installs the build into a fresh prefix outside the checkout and runs each program's main path
# from another directory, with no OTPU_* variables, under strace: any file the programs touch
# in the checkout or the build tree fails the test (installed, they must not need either).
# usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1")
src=$(realpath "$2")
w=$(mktemp -d /tmp/otpu-install-test.XXXXXX)
trap 'rm -rf "$w"' EXIT
p=$w/prefix
cmake --install "$build" --prefix "$p" >/dev/null
mkdir -p "$w/work" "$w/home" "$w/run"
cd "$w/work"

fail() { echo "install_test: $*" >&2; exit 1; }
for f in bin/lens bin/otpu-lens bin/otpu-lock bin/otpu-regress bin/otpu-xdma-emu bin/otpu-prebuild \
         bin/otpu-mkcheckpoint share/man/man1/otpu-lock.1 share/man/man1/lens.1 \
         share/doc/otpu/README.md share/otpu/regress/smoke.json share/otpu/regress/baselines \
         share/otpu/rtl/core/otpu_core.sv share/otpu/rtl/otpu_core_sim.f share/otpu/rtl/otpu.core \
         share/bash-completion/completions/otpu.bash share/bash-completion/completions/otpu-regress; do
  [ -e "$p/$f" ] || fail "$f is not installed"
done

# A clean environment: the prefix's bin first, no OTPU_*, a HOME of our own (image cache).
run() {
  echo "+ $*"
  env -i PATH="$p/bin:/usr/bin:/bin" HOME="$w/home" LANG=C.UTF-8 \
    strace -f -qq -e trace=%file -o "$w/strace.$((++n))" "$@"
}
n=0
version=$(env -i PATH="$p/bin:/usr/bin:/bin" lens --version)
case "$version" in "lens otpu "*) ;; *) fail "lens --version: '$version'" ;; esac
for prog in lens otpu-lens otpu-lock otpu-regress otpu-xdma-emu otpu-prebuild otpu-mkcheckpoint; do
  run "$prog" --version | grep -qF "${version#lens }" || fail "$prog --version differs from lens's"
done
run lens list | grep -q mlp-small || fail "lens list has no mlp-small"
run lens record mlp-small -o x.otpuprof
run lens info x.otpuprof | grep -qF "${version#lens }" || fail "lens info: no tool_version"
run otpu-lens record --sim --workload mlp-small -o y.otpuprof
run otpu-lock --help >/dev/null
run otpu-regress run --help | grep -q -- "--only REGEX" || fail "otpu-regress run --help lists no --only"
# The installed completion, loaded as bash-completion loads it (by the program's name).
words=$(env -i PATH="$p/bin:/usr/bin:/bin" bash -c \
  '. "$0/share/bash-completion/completions/otpu-regress"; COMP_WORDS=(otpu-regress r); COMP_CWORD=1
   _otpu_complete; echo "${COMPREPLY[*]}"' "$p")
[ "$words" = "run" ] || fail "installed completion of 'otpu-regress r': '$words'"
run otpu-mkcheckpoint d2
# The lock's run dir: our own (OTPU_RUN_DIR would be an OTPU_* variable; /tmp/otpu is shared).
env -i PATH="$p/bin:/usr/bin:/bin" HOME="$w/home" OTPU_RUN_DIR="$w/run" \
  strace -f -qq -e trace=%file -o "$w/strace.lock" \
  otpu-lock --dev "$w/xdma0" --prebuild d2:int4:- -- true
run otpu-regress run "$p/share/otpu/regress/smoke.json" --only 'mlp-small/sim/ideal/sim' --out d
grep -q '"passed": true' d/index.json || fail "otpu-regress: the cell did not pass ($(cat d/index.json))"
grep -rqF "${version#lens }" d/index.json || fail "index.json has no tool_version"
run otpu-xdma-emu --help >/dev/null
run verilator --lint-only -Wall "$p/share/otpu/rtl/lint/otpu.vlt" --top-module otpu_core \
  -f "$p/share/otpu/rtl/otpu_core_sim.f"

# Nothing above may have looked into the checkout (nor the build tree inside it), not even
# for a file that is not there.
if grep -h "\"$src[/\"]\|\"$build[/\"]" "$w"/strace.*; then
  fail "an installed program looked into the checkout or the build tree (above)"
fi
echo "install_test: ok"
