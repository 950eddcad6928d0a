#!/usr/bin/env bash
# Runs every test: rebuilds the Python module from this tree, then the C++
# suite (CTest), the model-reader suite under ASan+UBSan, and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}

python3 -m pip install -q --no-build-isolation --no-deps .

cmake -S . -B build/cpp -DTFLM_ARENA_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/cpp -j"$jobs"
ctest --test-dir build/cpp --output-on-failure

# Malformed-input suites again under the sanitizers (they must not crash).
cmake -S . -B build/asan -DTFLM_ARENA_BUILD_TESTS=ON -DTFLM_ARENA_SANITIZE=ON \
  -DCMAKE_BUILD_TYPE=Debug >/dev/null
asan_targets=$(cd build/asan && ctest -N | sed -n 's/^ *Test *#[0-9]*: \(.*\)$/\1/p' | grep -E '^(model|plan)_tests$' || true)
if [ -n "$asan_targets" ]; then
  cmake --build build/asan -j"$jobs" --target $asan_targets
  for t in $asan_targets; do ./build/asan/"$t" --gtest_brief=1; done
fi

python3 -m pytest
