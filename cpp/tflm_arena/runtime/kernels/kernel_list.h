// The kernels tflm_arena ships, one line per builtin operator: NAME as in the
// format's BuiltinOperator enum; Register_NAME() is defined in the kernel's
// own file (runtime/kernels/<op>.cc). Adding an operator adds one line here
// (registrations.h declares and all_kernels.cc tables every entry).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_KERNEL_LIST_H_
#define TFLM_ARENA_RUNTIME_KERNELS_KERNEL_LIST_H_

// clang-format off
#define TFLM_ARENA_SHIPPED_KERNELS(KERNEL) \
  KERNEL(FULLY_CONNECTED)               \
  KERNEL(CONV_2D)                       \
  KERNEL(DEPTHWISE_CONV_2D)             \
  KERNEL(ADD)                           \
  KERNEL(AVERAGE_POOL_2D)               \
  KERNEL(MAX_POOL_2D)                   \
  KERNEL(SOFTMAX)                       \
  KERNEL(RESHAPE)                       \
  KERNEL(QUANTIZE)                      \
  KERNEL(DEQUANTIZE)                    \
  KERNEL(LEAKY_RELU)                    \
  /* end of the list */
// clang-format on

#endif  // TFLM_ARENA_RUNTIME_KERNELS_KERNEL_LIST_H_
