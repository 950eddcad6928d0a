#!/usr/bin/env bash
# Installs everything tflm_arena needs on a fresh Debian machine (run as root or
# with sudo available): system packages, pinned Python packages, then the
# package itself from this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."

# clang + its runtime libraries: libFuzzer harnesses (fuzz/run.sh).
# gcc-arm-none-eabi + newlib: the Cortex-M footprint programs (benchmarks/code_size).
debs=(g++ libgtest-dev flatbuffers-compiler libflatbuffers-dev clang libclang-rt-14-dev
      gcc-arm-none-eabi libnewlib-arm-none-eabi)
command -v cmake >/dev/null 2>&1 || debs+=(cmake)  # pip's cmake also does
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

python3 -m pip install -q -r .ci/requirements.txt
python3 -m pip install -q --no-build-isolation .
echo "tflm_arena installed: $(python3 -c 'import tflm_arena; print(tflm_arena.__version__)')"
