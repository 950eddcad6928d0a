// The kernels tflm_arena ships, one line per builtin operator: NAME as in the
// format's BuiltinOperator enum; Register_NAME() is defined in the kernel's
// own file (runtime/kernels/<op>.cc). registrations.h declares and
// all_kernels.cc tables every entry.
//
// Adding an operator (LEAKY_RELU is the worked example):
//  1. runtime/kernels/<op>.h, <op>.cc and, for its arithmetic, <op>_math.cc:
//     the options struct and its Read<Op>() (OptionsReader<T, Read<Op>>),
//     the OpData (InitOpData<T>), prepare / invoke, and Register_<OP>()
//     returning a constexpr MakeRegistration(model::kBuiltin<Op>, ...)
//     (kernel_util.h). The build finds the files by name.
//  2. One line below.
//  3. Tests: tests_cpp/runtime/kernels/<op>_test.cc (found by name) with
//     golden vectors from golden/<op>_cases.py (gen_golden.py <op>), and a
//     parity test against the tflite_micro wheel in tests_py/.
//  4. Only if the Python builder does not know the options table's fields
//     yet: python/tflm_arena/_builder_options.py. (Python's
//     tflm_arena.resolver.RUNTIME_KERNELS and the docs read this list.)
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
  KERNEL(BATCH_MATMUL)                  \
  KERNEL(SVDF)                          \
  KERNEL(TRANSPOSE_CONV)                \
  KERNEL(UNIDIRECTIONAL_SEQUENCE_LSTM)  \
  KERNEL(STRIDED_SLICE)                 \
  KERNEL(PAD)                           \
  KERNEL(PADV2)                         \
  KERNEL(CONCATENATION)                 \
  KERNEL(MEAN)                          \
  KERNEL(TRANSPOSE)                     \
  KERNEL(SQUEEZE)                       \
  KERNEL(EXPAND_DIMS)                   \
  KERNEL(PACK)                          \
  KERNEL(UNPACK)                        \
  KERNEL(SPLIT)                         \
  KERNEL(GATHER)                        \
  KERNEL(SUB)                           \
  KERNEL(MUL)                           \
  KERNEL(RELU)                          \
  KERNEL(RELU6)                         \
  KERNEL(MAXIMUM)                       \
  KERNEL(MINIMUM)                       \
  KERNEL(DIV)                           \
  KERNEL(LOGISTIC)                      \
  KERNEL(TANH)                          \
  KERNEL(HARD_SWISH)                    \
  KERNEL(CAST)                          \
  KERNEL(SPLIT_V)                       \
  KERNEL(VAR_HANDLE)                    \
  KERNEL(READ_VARIABLE)                 \
  KERNEL(ASSIGN_VARIABLE)               \
  KERNEL(CALL_ONCE)                     \
  /* end of the list */

// Custom operators, one line each: Register_NAME() is defined in
// runtime/kernels/<name>.cc and returns a registration whose `name` is the
// custom code the model carries (TFLM's Signal library: the audio front
// end of its micro_speech example). Adding one: steps 1 and 3 above, with
// MakeCustomRegistration (signal_glue.h), and a line here.
#define TFLM_ARENA_SHIPPED_CUSTOM_KERNELS(KERNEL)  \
  KERNEL(SIGNAL_WINDOW)                             \
  KERNEL(SIGNAL_FFT_AUTO_SCALE)                     \
  KERNEL(SIGNAL_RFFT)                               \
  KERNEL(SIGNAL_ENERGY)                             \
  KERNEL(SIGNAL_FILTER_BANK)                        \
  KERNEL(SIGNAL_FILTER_BANK_SQUARE_ROOT)            \
  KERNEL(SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION)   \
  KERNEL(SIGNAL_PCAN)                               \
  KERNEL(SIGNAL_FILTER_BANK_LOG)                    \
  /* end of the list */
// clang-format on

#endif  // TFLM_ARENA_RUNTIME_KERNELS_KERNEL_LIST_H_
