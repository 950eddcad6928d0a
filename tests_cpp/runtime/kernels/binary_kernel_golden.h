// The golden replay shared by the two-input kernels with one signature per
// output type, Kernel(op_data, broadcast, dims, n, in1, in2, out) (MUL, SUB,
// DIV): prepare from the case's activation and tensors, broadcast when the
// input shapes differ, run the kernel of the output's type, compare with
// TFLM's output (ExpectMatchesTflm) and the persistent bytes with TFLM's;
// and their one-field options parser.
#ifndef TFLM_ARENA_TESTS_RUNTIME_KERNELS_BINARY_KERNEL_GOLDEN_H_
#define TFLM_ARENA_TESTS_RUNTIME_KERNELS_BINARY_KERNEL_GOLDEN_H_

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/binary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace kernel_testing {

// Kernel(first, broadcast, dims, n, in1, in2, out): `first` is the OpData
// (const OpData&), or for a float kernel that needs only the activation
// (SUB, DIV), that (model::Activation).
template <typename First, typename T>
using BinaryKernel = void (*)(First, bool, const BroadcastDims&, size_t, const T*, const T*,
                              T*);

// The prepare and the per-type kernels of one operator; a null kernel means
// the operator has none for that type (a case of that type then fails).
template <typename Options, typename OpData, typename FloatFirst = const OpData&>
struct BinaryKernels {
  Status (*prepare)(const Options&, const model::TensorInfo&, const model::TensorInfo&,
                    const model::TensorInfo&, OpData*);
  BinaryKernel<const OpData&, int8_t> int8;
  BinaryKernel<const OpData&, int16_t> int16;
  BinaryKernel<const OpData&, int32_t> int32;
  BinaryKernel<FloatFirst, float> float32;
};

template <typename T, typename First>
void RunBinaryKernel(const golden::Case& c, BinaryKernel<First, T> kernel,
                     typename std::enable_if<true, First>::type first, bool broadcast,
                     const BroadcastDims& dims) {
  ASSERT_NE(kernel, nullptr) << c.name << ": no kernel for output type " << c.output.type;
  std::vector<T> y(Count(c.output));
  kernel(first, broadcast, dims, y.size(), DataOf<T>(c.input), DataOf<T>(c.input2), y.data());
  ExpectMatchesTflm(c, y);
}

template <typename Options, typename OpData, typename FloatFirst>
void ExpectBinaryGolden(const golden::Case& c, const char* op, size_t persistent_bytes,
                        const BinaryKernels<Options, OpData, FloatFirst>& k) {
  ExpectPersistent(persistent_bytes, c);
  const model::TensorInfo in1 = ToInfo(c.input), in2 = ToInfo(c.input2), out = ToInfo(c.output);
  Options o;
  o.activation = static_cast<model::Activation>(c.options.activation);
  OpData d;
  const Status st = k.prepare(o, in1, in2, out, &d);
  ASSERT_TRUE(st.ok()) << st.message();
  BroadcastDims dims{};
  const bool b = !SameShape(in1.shape, in2.shape);
  if (b) ASSERT_TRUE(BinaryBroadcastDims(op, in1.shape, in2.shape, out.shape, &dims).ok());
  switch (out.type) {
    case model::TensorType::kInt8: return RunBinaryKernel<int8_t>(c, k.int8, d, b, dims);
    case model::TensorType::kInt16: return RunBinaryKernel<int16_t>(c, k.int16, d, b, dims);
    case model::TensorType::kInt32: return RunBinaryKernel<int32_t>(c, k.int32, d, b, dims);
    default:
      if constexpr (std::is_same_v<FloatFirst, const OpData&>) {
        return RunBinaryKernel<float>(c, k.float32, d, b, dims);
      } else {
        return RunBinaryKernel<float>(c, k.float32, o.activation, b, dims);
      }
  }
}

// The options parser of `registration` reads fused_activation_function
// (field 0 of MulOptions, DivOptions, ...) from a table of `table_type`, and
// the registration names that table type.
template <typename Options>
void ExpectParsesActivation(const KernelRegistration& registration,
                            model::OptionsType table_type, model::Activation activation) {
  OptionsTableBuilder full;
  full.Add<uint8_t>(0, static_cast<uint8_t>(activation));
  model::OptionsTable table = full.Build(table_type);
  Options o;
  ASSERT_TRUE(Parse(registration, table, &o).ok());
  EXPECT_EQ(o.activation, activation);
  EXPECT_EQ(registration.options.table_type, table_type);
}

}  // namespace kernel_testing
}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TESTS_RUNTIME_KERNELS_BINARY_KERNEL_GOLDEN_H_
