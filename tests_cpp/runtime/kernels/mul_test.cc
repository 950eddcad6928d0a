// MUL: hand-checked math (quantized multiplier below and above 1, int32
// activation range and wrapping, broadcasting), persistent bytes equal to
// TFLM's OpDataMul and the options parser. Parity with the real TFLM:
// tests_py/test_kernel_binary_elementwise.py.
#include "tflm_arena/runtime/kernels/mul.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "binary_kernel_golden.h"
#include "golden/mul_golden.h"
#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

model::TensorInfo Quantized(TensorType type, float scale, int64_t zero_point) {
  static float scales[8];
  static int64_t zps[8];
  static int next = 0;
  const int i = next++ % 8;
  scales[i] = scale;
  zps[i] = zero_point;
  model::TensorInfo t;
  t.type = type;
  t.scale = Span<const float>(&scales[i], 1);
  t.zero_point = Span<const int64_t>(&zps[i], 1);
  return t;
}

TEST(MulMath, Int8MultiplierAboveOneAndZeroPoints) {
  // 0.1 * 0.2 / 0.01 = 2: out = 2 * (a - 3) * (b + 1) + (-5), saturated.
  MulOpData d;
  ASSERT_TRUE(PrepareMul(MulOptions(), Quantized(TensorType::kInt8, 0.1f, 3),
                         Quantized(TensorType::kInt8, 0.2f, -1),
                         Quantized(TensorType::kInt8, 0.01f, -5), &d)
                  .ok());
  EXPECT_GT(d.output_shift, 0);
  const int8_t a[] = {3, 4, 5, 10, -128};
  const int8_t b[] = {7, 1, -2, 9, 100};
  int8_t out[5];
  BroadcastDims unused{};
  MulInt8(d, false, unused, 5, a, b, out);
  EXPECT_EQ(out[0], -5);   // a at its zero point
  EXPECT_EQ(out[1], -1);   // 2 * 1 * 2 - 5
  EXPECT_EQ(out[2], -9);   // 2 * 2 * -1 - 5
  EXPECT_EQ(out[3], 127);  // 2 * 7 * 10 - 5 = 135 saturates
  EXPECT_EQ(out[4], -128);
}

TEST(MulMath, Int16RequiresZeroPointsZero) {
  MulOpData d;
  const Status st = PrepareMul(MulOptions(), Quantized(TensorType::kInt16, 0.1f, 1),
                               Quantized(TensorType::kInt16, 0.1f, 0),
                               Quantized(TensorType::kInt16, 0.1f, 0), &d);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(st.message()).find("MUL"), std::string::npos);
}

TEST(MulMath, Int32WrapsAndClampsWithRelu) {
  MulOpData d;
  model::TensorInfo t;
  t.type = TensorType::kInt32;
  MulOptions o;
  o.activation = model::Activation::kRelu;
  ASSERT_TRUE(PrepareMul(o, t, t, t, &d).ok());
  const int32_t a[] = {3, -3, 65536};
  const int32_t b[] = {4, 4, 65536};
  int32_t out[3];
  BroadcastDims unused{};
  MulInt32(d, false, unused, 3, a, b, out);
  EXPECT_EQ(out[0], 12);
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[2], 0);  // 2^32 wraps to 0
}

TEST(MulMath, FloatBroadcastWithActivation) {
  MulOpData d;
  model::TensorInfo t;
  t.type = TensorType::kFloat32;
  MulOptions o;
  o.activation = model::Activation::kReluN1To1;
  ASSERT_TRUE(PrepareMul(o, t, t, t, &d).ok());
  const int32_t s1[] = {2, 1}, s2[] = {2}, so[] = {2, 2};
  BroadcastDims dims;
  ASSERT_TRUE(BinaryBroadcastDims("MUL", Span<const int32_t>(s1, 2), Span<const int32_t>(s2, 1),
                                  Span<const int32_t>(so, 2), &dims)
                  .ok());
  const float a[] = {0.5f, -2.0f};
  const float b[] = {0.5f, 1.0f};
  float out[4];
  MulFloat(d, true, dims, 4, a, b, out);
  EXPECT_EQ(out[0], 0.25f);
  EXPECT_EQ(out[1], 0.5f);
  EXPECT_EQ(out[2], -1.0f);
  EXPECT_EQ(out[3], -1.0f);
}

TEST(MulPersistent, OpDataIsTflms36Bytes) {
  EXPECT_EQ(kMulPersistentBytes, 36u);
  EXPECT_EQ(Register_MUL().builtin_code, model::kBuiltinMul);
}

TEST(MulOptions, ParsesActivation) {
  // Table type MulOptions.
  ExpectParsesActivation<MulOptions>(Register_MUL(), 21, model::Activation::kRelu);
}

// --- golden vectors from TFLM (golden/mul_cases.py) ---------------------------

using MulGolden = GoldenTest;

TEST_P(MulGolden, MatchesTflm) {
  using Kernels = BinaryKernels<MulOptions, MulOpData>;
  ExpectBinaryGolden(GetParam(), "MUL", kMulPersistentBytes,
                     Kernels{PrepareMul, MulInt8, MulInt16, MulInt32, MulFloat});
}

INSTANTIATE_TEST_SUITE_P(Tflm, MulGolden, ::testing::ValuesIn(golden::mul::kCases), GoldenName);

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
