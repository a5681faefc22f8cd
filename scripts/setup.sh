#!/usr/bin/env bash
# Installs every Debian package otpu needs. Idempotent: runs apt-get update once,
# and only when something is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache git
  verilator libsystemc-dev gtkwave  # gtkwave: fst2vcd reads the regression's waves back (tests)
  libboost-program-options-dev libgtest-dev libgmock-dev
  rapidjson-dev libdeflate-dev zlib1g-dev libpcre2-dev libicu-dev
  libfuse3-dev fuse3 libcpp-httplib-dev
  chromium python3 gzip libxml2-utils
  groff-base man-db dpkg-dev strace python3-yaml  # man pages, the .deb, the install and filelist tests
  slurmctld slurmd slurm-client munge
  clang libclang-rt-14-dev  # the libFuzzer targets (tests/fuzz)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
