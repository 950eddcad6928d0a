# runtime/kernels/: one kernels library. Each builtin operator has its glue
# file <op>.cc (options parsing, init / prepare / invoke over KernelContext,
# its registration) and, when it has arithmetic, <op>_math.cc (prepare logic
# and math on plain data, unit-tested without an interpreter). All RUNTIME
# code: no heap, no exceptions, no RTTI.
#   tflm_arena_kernels_common  helpers every kernel shares: fixed-point
#                              arithmetic, padding and activation-range rules
#                              (TFLM's), the prepare checks
#   tflm_arena_kernels_math    every operator's *_math.cc (+ conv_common.cc)
#   tflm_arena_kernels         every operator's glue + the shipped-kernel
#                              table (kernel_list.h)
# Per-operator files are found by name, so adding an operator needs no edit
# here: its <op>.cc / <op>_math.cc and its line in kernel_list.h.
set(TFLM_ARENA_KERNELS_DIR ${TFLM_ARENA_SRC}/runtime/kernels)
set(TFLM_ARENA_KERNELS_COMMON_SOURCES
  ${TFLM_ARENA_KERNELS_DIR}/quant_util.cc
  ${TFLM_ARENA_KERNELS_DIR}/padding.cc
  ${TFLM_ARENA_KERNELS_DIR}/activation.cc
  ${TFLM_ARENA_KERNELS_DIR}/tensor_checks.cc)
file(GLOB TFLM_ARENA_KERNELS_MATH_SOURCES CONFIGURE_DEPENDS
  ${TFLM_ARENA_KERNELS_DIR}/*_math.cc)
file(GLOB TFLM_ARENA_KERNELS_SOURCES CONFIGURE_DEPENDS ${TFLM_ARENA_KERNELS_DIR}/*.cc)
list(REMOVE_ITEM TFLM_ARENA_KERNELS_SOURCES ${TFLM_ARENA_KERNELS_COMMON_SOURCES}
     ${TFLM_ARENA_KERNELS_MATH_SOURCES} ${TFLM_ARENA_KERNELS_DIR}/conv_common.cc)

tflm_arena_runtime_library(tflm_arena_kernels_common
  SOURCES ${TFLM_ARENA_KERNELS_COMMON_SOURCES}
  DEPS tflm_arena_core tflm_arena_model)

tflm_arena_runtime_library(tflm_arena_kernels_math
  SOURCES ${TFLM_ARENA_KERNELS_DIR}/conv_common.cc ${TFLM_ARENA_KERNELS_MATH_SOURCES}
  DEPS tflm_arena_kernels_common tflm_arena_model)

# Every operator's glue, conv_glue.cc (shared by the weighted kernels) and
# all_kernels.cc.
tflm_arena_runtime_library(tflm_arena_kernels
  SOURCES ${TFLM_ARENA_KERNELS_SOURCES}
  DEPS tflm_arena_kernels_math tflm_arena_runtime)
