#!/usr/bin/env bash
# C++ style and static checks (run by .ci/test.sh; runnable alone after
# .ci/install.sh):
#   clang-format: .clang-format over cpp/, tests_cpp/, fuzz/ and
#     benchmarks/ sources, generated files excepted (*_golden.h from
#     gen_golden.py, footprint_model.cc from make_model.py);
#   clang-tidy: .clang-tidy over every translation unit in cpp/ (the
#     libraries and the bindings), from a CMake build's
#     compile_commands.json in build/tidy.
# JOBS (default 2) clang-tidy processes run at once.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
python=${PYTHON:-$PWD/.venv/bin/python}

git ls-files 'cpp/*.h' 'cpp/*.cc' 'cpp/*.cpp' 'tests_cpp/*.h' 'tests_cpp/*.cc' \
    'fuzz/*.h' 'fuzz/*.cc' 'benchmarks/*.h' 'benchmarks/*.cc' |
  grep -v -e '_golden\.h$' -e '^benchmarks/code_size/footprint_model\.cc$' |
  xargs clang-format --dry-run -Werror

cmake -S . -B build/tidy -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_BUILD_TYPE=Release \
  -DTFLM_ARENA_BUILD_TESTS=ON -DTFLM_ARENA_BUILD_PYTHON=ON \
  -DPython3_EXECUTABLE="$python" -Dpybind11_DIR="$("$python" -m pybind11 --cmakedir)" \
  >/dev/null
# The flatc-generated header the model reader includes (built with model/).
cmake --build build/tidy --target tflm_arena_model -j"$jobs" >/dev/null
run-clang-tidy -p build/tidy -j "$jobs" -quiet "$PWD/cpp/" >build/tidy/clang-tidy.log 2>&1 ||
  { grep -E "(warning|error):" build/tidy/clang-tidy.log; exit 1; }
echo "clang-format and clang-tidy: clean"
