# CMake toolchain file: Cortex-M3 (bluepill class), arm-none-eabi-g++ from
# Debian's gcc-arm-none-eabi with newlib-nano (libnewlib-arm-none-eabi).
# For the footprint programs only: they are built and sized, never run, so
# newlib's nosys stubs stand in for a board support package.
#   cmake -S . -B build/code_size/cortex_m -DTFLM_ARENA_BUILD_FOOTPRINT=ON \
#     -DCMAKE_TOOLCHAIN_FILE=benchmarks/code_size/arm-none-eabi.cmake
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
# -D__int64_t_defined=1: Debian's newlib 3.3.0 headers leave it undefined
# when <cinttypes> comes through libstdc++, so PRId64 / PRIu64 are missing
# (sys/_stdint.h defines it to 1 on the paths that work).
set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-m3 -mthumb --specs=nano.specs -D__int64_t_defined=1")
set(CMAKE_CXX_FLAGS_INIT "-mcpu=cortex-m3 -mthumb --specs=nano.specs -D__int64_t_defined=1")
# (CMake passes the compile flags, nano.specs included, to the link as well.)
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=nosys.specs")
# The compiler checks cannot link a program without a board: test libraries.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# Host programs (flatc) from the host; libraries and headers never.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
