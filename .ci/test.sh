#!/usr/bin/env bash
# Runs every test: rebuilds the Python module from this tree, then the C++
# suite (CTest), the same suite under ASan+UBSan, and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}

python3 -m pip install -q --no-build-isolation --no-deps .

cmake -S . -B build/cpp -DTFLM_ARENA_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/cpp -j"$jobs"
ctest --test-dir build/cpp --output-on-failure

# The whole C++ suite again under AddressSanitizer + UBSan (malformed models,
# arena sizes, kernels): it must not crash, leak or hit undefined behaviour.
cmake -S . -B build/asan -DTFLM_ARENA_BUILD_TESTS=ON -DTFLM_ARENA_SANITIZE=ON \
  -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build/asan -j"$jobs"
ctest --test-dir build/asan --output-on-failure

python3 -m pytest
