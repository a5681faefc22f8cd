#!/bin/bash
# Builds the .deb with CPack and checks it: its control fields (Depends from dpkg-shlibdeps),
# its contents, and a program run from a scratch root it was unpacked into (dpkg -x).
# usage: deb_test.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
w=$(mktemp -d /tmp/otpu-deb-test.XXXXXX)
trap 'rm -rf "$w"' EXIT
fail() { echo "deb_test: $*" >&2; exit 1; }
(cd "$w" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$w/out" >/dev/null)
deb=$(ls "$w"/out/otpu_*.deb)
info=$(dpkg-deb --info "$deb")
echo "$info"
depends=$(dpkg-deb --field "$deb" Depends)
for pkg in libsystemc libboost-program-options libdeflate0 zlib1g libpcre2-8-0 libfuse3 fuse3; do
  grep -q "$pkg" <<<"$depends" || fail "Depends lacks $pkg: $depends"
done
dpkg-deb --field "$deb" Recommends | grep -q chromium || fail "Recommends lacks chromium"
contents=$(dpkg-deb --contents "$deb")
for f in ./usr/bin/lens ./usr/bin/otpu-lens ./usr/bin/otpu-lock ./usr/bin/otpu-regress \
         ./usr/bin/otpu-xdma-emu ./usr/bin/otpu-prebuild ./usr/bin/otpu-mkcheckpoint \
         ./usr/share/man/man1/otpu-lock.1 ./usr/share/doc/otpu/README.md \
         ./usr/share/otpu/regress/smoke.json ./usr/share/otpu/rtl/otpu.core \
         ./usr/share/otpu/rtl/otpu_board_board.f; do
  grep -q " $f\$" <<<"$contents" || fail "$f is not in the package"
done
# Installed filelists name the files where the package puts them.
dpkg-deb -x "$deb" "$w/root"
grep -q "^/usr/share/otpu/rtl/core/otpu_core.sv$" "$w/root/usr/share/otpu/rtl/otpu_core_sim.f" ||
  fail "otpu_core_sim.f does not name /usr/share/otpu/rtl/core/otpu_core.sv"
cd "$w"
env -i PATH=/usr/bin:/bin "$w/root/usr/bin/lens" list | grep -q mlp-small || fail "lens list from the package"
env -i PATH=/usr/bin:/bin "$w/root/usr/bin/otpu-regress" list "$w/root/usr/share/otpu/regress/smoke.json" \
  >/dev/null || fail "otpu-regress list of the packaged matrix"
echo "deb_test: ok ($(basename "$deb"))"
