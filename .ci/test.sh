#!/usr/bin/env bash
# Runs every test: rebuilds the Python module from this tree, checks the
# Python style (ruff) and types (mypy --strict), the C++ style and static
# checks (.ci/lint.sh: clang-format, clang-tidy), then the C++
# suite (CTest), the same suite under ASan+UBSan, pytest, pytest again on an
# ASan+UBSan build of the module, and the fuzzers' regression corpus plus a
# short fuzzing run (fuzz/run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}

# Everything runs in the environment .ci/install.sh made.
if [ ! -x .venv/bin/python ]; then
  echo ".ci/test.sh: no .venv here; run 'bash .ci/install.sh' first" >&2
  exit 2
fi
# shellcheck disable=SC1091
source .venv/bin/activate

python3 -m pip install -q --no-build-isolation --no-deps .

# Style and types first (fail fast); both configured in pyproject.toml.
python3 -m ruff check python tests_py benchmarks docs fuzz tests_cpp
python3 -m ruff format --check python tests_py benchmarks docs fuzz tests_cpp
python3 -m mypy --strict python/tflm_arena
# clang-format, then clang-tidy over cpp/ (about 8 minutes at -j2 on a
# shared 2-core machine, 7 minutes of CPU).
JOBS="$jobs" bash .ci/lint.sh

cmake -S . -B build/cpp -DTFLM_ARENA_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/cpp -j"$jobs"
ctest --test-dir build/cpp --output-on-failure -j"$jobs"

# The whole C++ suite again under AddressSanitizer + UBSan (malformed models,
# arena sizes, kernels): it must not crash, leak or hit undefined behaviour.
# The same build makes the ASan+UBSan Python module for the second pytest
# pass below (one instrumented compile of the libraries, not two).
cmake -S . -B build/asan -DTFLM_ARENA_BUILD_TESTS=ON -DTFLM_ARENA_SANITIZE=ON \
  -DCMAKE_BUILD_TYPE=Debug -DTFLM_ARENA_BUILD_PYTHON=ON -DPython_EXECUTABLE="$PWD/.venv/bin/python" \
  -Dpybind11_DIR="$(python3 -m pybind11 --cmakedir)" >/dev/null
cmake --build build/asan -j"$jobs"
ctest --test-dir build/asan --output-on-failure -j"$jobs"

# pytest runs on $jobs workers (pytest-xdist), one test file per worker at a
# time (--dist loadfile: a file's tests share fixtures and build folders).
python3 -m pytest -n "$jobs" --dist loadfile

# pytest again against the ASan+UBSan build of the module (build/asan's
# _core beside the package's Python files in build/pyasan, loaded first;
# Python itself is not instrumented, so the ASan runtime is preloaded, with
# libstdc++ so that ASan can intercept C++ exceptions). Any report aborts the run. Tests marked no_asan are left
# out here (they run in the pass above): their time goes outside our C++
# module (CMake builds of standalone programs, Jupyter kernels, Chromium,
# matplotlib drawing, bisecting the tflite-micro wheel) or they repeat the
# same C++ paths on every shared model; every binding, kernel test, hostile
# model test and tflm model path still runs here.
rm -rf build/pyasan && mkdir -p build/pyasan
cp -R python/tflm_arena build/pyasan/
cp build/asan/_core.*.so build/pyasan/tflm_arena/
LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)" \
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  PYTHONPATH="$PWD/build/pyasan" \
  python3 -m pytest -q -p no:cacheprovider -m "not install and not no_asan" -n "$jobs" \
  --dist loadfile

# Fuzzing: replay every saved reproducer, then a short run of each of the
# eight harnesses, two at a time (fuzz/README.md has the figures of longer
# runs).
FUZZ_SECONDS="${FUZZ_SECONDS:-20}" bash fuzz/run.sh
