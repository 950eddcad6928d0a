# runtime/kernels/: one kernels library. Each builtin operator has its glue
# file <op>.cc (options parsing, init / prepare / invoke over KernelContext,
# its registration) and, when it has arithmetic, <op>_math.cc (prepare logic
# and math on plain data, unit-tested without an interpreter). All RUNTIME
# code: no heap, no exceptions, no RTTI.
#   tflm_arena_kernels_common  helpers every kernel shares: fixed-point
#                              arithmetic, padding and activation-range rules
#                              (TFLM's), the prepare checks
#   tflm_arena_kernels_math    every operator's *_math.cc
#   tflm_arena_kernels         every operator's glue + the shipped-kernel
#                              table (kernel_list.h)
# Adding an operator: its files in the two lists below, its line in
# kernel_list.h.
set(TFLM_ARENA_KERNELS_DIR ${TFLM_ARENA_SRC}/runtime/kernels)

tflm_arena_runtime_library(tflm_arena_kernels_common
  SOURCES
    ${TFLM_ARENA_KERNELS_DIR}/quant_util.cc
    ${TFLM_ARENA_KERNELS_DIR}/padding.cc
    ${TFLM_ARENA_KERNELS_DIR}/activation.cc
    ${TFLM_ARENA_KERNELS_DIR}/tensor_checks.cc
  DEPS tflm_arena_core tflm_arena_model)

tflm_arena_runtime_library(tflm_arena_kernels_math
  SOURCES
    ${TFLM_ARENA_KERNELS_DIR}/conv_common.cc
    ${TFLM_ARENA_KERNELS_DIR}/add_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/conv_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/depthwise_conv_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/dequantize_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/fully_connected_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/pooling_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/quantize_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/reshape_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/softmax_math.cc
  DEPS tflm_arena_kernels_common tflm_arena_model)

tflm_arena_runtime_library(tflm_arena_kernels
  SOURCES
    ${TFLM_ARENA_KERNELS_DIR}/conv_glue.cc
    ${TFLM_ARENA_KERNELS_DIR}/add.cc
    ${TFLM_ARENA_KERNELS_DIR}/conv.cc
    ${TFLM_ARENA_KERNELS_DIR}/depthwise_conv.cc
    ${TFLM_ARENA_KERNELS_DIR}/dequantize.cc
    ${TFLM_ARENA_KERNELS_DIR}/fully_connected.cc
    ${TFLM_ARENA_KERNELS_DIR}/pooling.cc
    ${TFLM_ARENA_KERNELS_DIR}/quantize.cc
    ${TFLM_ARENA_KERNELS_DIR}/reshape.cc
    ${TFLM_ARENA_KERNELS_DIR}/softmax.cc
    ${TFLM_ARENA_KERNELS_DIR}/all_kernels.cc
  DEPS tflm_arena_kernels_math tflm_arena_runtime)
