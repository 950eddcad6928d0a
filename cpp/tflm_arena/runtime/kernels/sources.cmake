# runtime/kernels/: one file per builtin operator (glue over KernelContext)
# plus its *_math.cc (prepare logic and arithmetic on plain data, unit-tested
# without an interpreter). All RUNTIME code: no heap, no exceptions, no RTTI.
#   tflm_arena_quant_util      fixed-point helpers shared by every kernel
#   tflm_arena_kernels_common  padding and activation-range rules (TFLM's),
#                              the prepare checks every kernel shares
#   tflm_arena_kernels_a_math  FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D, ADD
#                              math + conv helpers
#   tflm_arena_kernels_b_math  pooling, softmax, reshape, quantize, dequantize
#   tflm_arena_kernels         every registration + the shipped-kernel table,
#                              and the glue they share (conv_glue.cc)
set(TFLM_ARENA_KERNELS_DIR ${TFLM_ARENA_SRC}/runtime/kernels)

tflm_arena_runtime_library(tflm_arena_quant_util
  SOURCES ${TFLM_ARENA_KERNELS_DIR}/quant_util.cc)

tflm_arena_runtime_library(tflm_arena_kernels_common
  SOURCES
    ${TFLM_ARENA_KERNELS_DIR}/padding.cc
    ${TFLM_ARENA_KERNELS_DIR}/activation.cc
    ${TFLM_ARENA_KERNELS_DIR}/tensor_checks.cc
  DEPS tflm_arena_core tflm_arena_model tflm_arena_quant_util)

tflm_arena_runtime_library(tflm_arena_kernels_a_math
  SOURCES
    ${TFLM_ARENA_KERNELS_DIR}/conv_common.cc
    ${TFLM_ARENA_KERNELS_DIR}/conv_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/depthwise_conv_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/fully_connected_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/add_math.cc
  DEPS tflm_arena_kernels_common tflm_arena_quant_util tflm_arena_model)

tflm_arena_runtime_library(tflm_arena_kernels_b_math
  SOURCES
    ${TFLM_ARENA_KERNELS_DIR}/pooling_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/softmax_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/reshape_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/quantize_math.cc
    ${TFLM_ARENA_KERNELS_DIR}/dequantize_math.cc
  DEPS tflm_arena_kernels_common tflm_arena_quant_util)

tflm_arena_runtime_library(tflm_arena_kernels
  SOURCES
    ${TFLM_ARENA_KERNELS_DIR}/conv_glue.cc
    ${TFLM_ARENA_KERNELS_DIR}/conv.cc
    ${TFLM_ARENA_KERNELS_DIR}/depthwise_conv.cc
    ${TFLM_ARENA_KERNELS_DIR}/fully_connected.cc
    ${TFLM_ARENA_KERNELS_DIR}/add.cc
    ${TFLM_ARENA_KERNELS_DIR}/pooling.cc
    ${TFLM_ARENA_KERNELS_DIR}/softmax.cc
    ${TFLM_ARENA_KERNELS_DIR}/reshape.cc
    ${TFLM_ARENA_KERNELS_DIR}/quantize.cc
    ${TFLM_ARENA_KERNELS_DIR}/dequantize.cc
    ${TFLM_ARENA_KERNELS_DIR}/all_kernels.cc
  DEPS tflm_arena_kernels_a_math tflm_arena_kernels_b_math tflm_arena_runtime)
