// SUB: hand-checked math (quantized with TFLM's float-divided multipliers,
// broadcasting, int32 activation range), persistent bytes equal to TFLM's
// OpDataSub and the options parser. Parity with the real TFLM:
// tests_py/test_kernel_binary_elementwise.py.
#include "tflm_arena/runtime/kernels/sub.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "binary_kernel_golden.h"
#include "golden/sub_golden.h"
#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(SubMath, FloatSameShapesWithRelu6) {
  const float a[] = {10.0f, 1.0f, -3.0f, 2.5f};
  const float b[] = {1.0f, 3.0f, -4.0f, 0.5f};
  float out[4];
  BroadcastDims unused{};
  SubFloat(model::Activation::kRelu6, false, unused, 4, a, b, out);
  EXPECT_EQ(out[0], 6.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_EQ(out[3], 2.0f);
}

TEST(SubMath, FloatBroadcastsBothWays) {
  // [2, 1] - [3] -> [2, 3]
  const int32_t s1[] = {2, 1}, s2[] = {3}, so[] = {2, 3};
  BroadcastDims dims;
  ASSERT_TRUE(BinaryBroadcastDims("SUB", Span<const int32_t>(s1, 2), Span<const int32_t>(s2, 1),
                                  Span<const int32_t>(so, 2), &dims)
                  .ok());
  const float a[] = {10.0f, 20.0f};
  const float b[] = {1.0f, 2.0f, 3.0f};
  float out[6];
  SubFloat(model::Activation::kNone, true, dims, 6, a, b, out);
  const float want[] = {9, 8, 7, 19, 18, 17};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(SubMath, BroadcastRejectsIncompatibleShapesByName) {
  const int32_t s1[] = {2, 3}, s2[] = {4, 3}, so[] = {4, 3};
  BroadcastDims dims;
  const Status st =
      BinaryBroadcastDims("SUB", Span<const int32_t>(s1, 2), Span<const int32_t>(s2, 2),
                          Span<const int32_t>(so, 2), &dims);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(st.message()).find("SUB: shapes do not broadcast"), std::string::npos);
}

TEST(SubMath, Int32UsesTflmsIntegerActivationRange) {
  SubOpData d;
  model::TensorInfo t;
  t.type = TensorType::kInt32;
  SubOptions o;
  o.activation = model::Activation::kRelu6;
  ASSERT_TRUE(PrepareSub(o, t, t, t, &d).ok());
  const int32_t a[] = {100, 3, -5, std::numeric_limits<int32_t>::min()};
  const int32_t b[] = {1, 1, 1, 1};
  int32_t out[4];
  BroadcastDims unused{};
  SubInt32(d, false, unused, 4, a, b, out);
  EXPECT_EQ(out[0], 6);
  EXPECT_EQ(out[1], 2);
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(out[3], 6);  // INT32_MIN - 1 wraps to INT32_MAX, then RELU6
}

TEST(SubMath, Int8EqualScalesSubtractExactly) {
  // Scales 0.5, 0.5 -> 0.5, zero points 0: out = a - b, saturated.
  SubOpData d;
  ASSERT_TRUE(QuantizedSubParams(TensorType::kInt8, 0.5f, 0, 0.5f, 0, 0.5f, 0, &d).ok());
  d.output_activation_min = -128;
  d.output_activation_max = 127;
  EXPECT_EQ(d.left_shift, 20);
  const int8_t a[] = {10, -5, 100, -100};
  const int8_t b[] = {3, 7, -100, 100};
  int8_t out[4];
  BroadcastDims unused{};
  SubInt8(d, false, unused, 4, a, b, out);
  EXPECT_EQ(out[0], 7);
  EXPECT_EQ(out[1], -12);
  EXPECT_EQ(out[2], 127);
  EXPECT_EQ(out[3], -128);
}

TEST(SubMath, Int16ZeroPointsAndScales) {
  // in1 0.002, in2 0.001 -> out 0.004: out = (2a - b) / 4, rounded.
  SubOpData d;
  ASSERT_TRUE(QuantizedSubParams(TensorType::kInt16, 0.002f, 0, 0.001f, 0, 0.004f, 0, &d).ok());
  d.output_activation_min = -32768;
  d.output_activation_max = 32767;
  EXPECT_EQ(d.left_shift, 15);
  const int16_t a[] = {400, -400, 1};
  const int16_t b[] = {0, 400, 0};
  int16_t out[3];
  BroadcastDims unused{};
  SubInt16(d, false, unused, 3, a, b, out);
  EXPECT_EQ(out[0], 200);
  EXPECT_EQ(out[1], -300);
  EXPECT_EQ(out[2], 1);  // 0.5 rounds away from zero
}

TEST(SubMath, MultipliersAreComputedInDoubleAsTheWheel) {
  // Scales 0.1, 0.03 -> 0.08: dividing in float (tflite-micro main) gives
  // 1288490112 / 1342177280; the wheel divides in double (parity test case
  // ((0.1, -3), (0.03, 7), (0.08, 5)) differs on 616 of 65536 pairs).
  SubOpData d;
  ASSERT_TRUE(QuantizedSubParams(TensorType::kInt8, 0.1f, -3, 0.03f, 7, 0.08f, 5, &d).ok());
  EXPECT_EQ(d.input1_multiplier, 1073741824);
  EXPECT_EQ(d.input1_shift, 0);
  EXPECT_EQ(d.input2_multiplier, 1288490141);
  EXPECT_EQ(d.input2_shift, -2);
  EXPECT_EQ(d.output_multiplier, 1342177330);
  EXPECT_EQ(d.output_shift, -18);
}

TEST(SubMath, RejectsMultipliersAtOrAboveOne) {
  SubOpData d;
  // twice_max / (2^20 * out_scale) >= 1 for a tiny output scale.
  EXPECT_EQ(QuantizedSubParams(TensorType::kInt8, 0.5f, 0, 0.5f, 0, 1e-9f, 0, &d).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(QuantizedSubParams(TensorType::kInt8, 0.5f, 200, 0.5f, 0, 0.5f, 0, &d).code(),
            StatusCode::kInvalidArgument);
}

TEST(SubMath, ScaleShiftedInputEqualsTheGenericMultiply) {
  // Every int16 input offset (left shift 15) and every int8 one (left shift
  // 20), multipliers in [2^30, 2^31) with shifts 0 .. -31, both signs, the
  // half-way ties included.
  const int32_t multipliers[] = {1073741824, 1073741825, 1288490141, 1500000001, 2147483647};
  const int32_t shifts[] = {0, -1, -2, -7, -18, -31};
  for (int32_t m : multipliers) {
    for (int32_t s : shifts) {
      for (int32_t v = -65535; v <= 65535; ++v) {
        ASSERT_EQ(ScaleShiftedInput(v, 15, m, s),
                  MultiplyByQuantizedMultiplier(v * (1 << 15), m, s))
            << v << " " << m << " " << s;
      }
      for (int32_t v = -255; v <= 255; ++v) {
        ASSERT_EQ(ScaleShiftedInput(v, 20, m, s),
                  MultiplyByQuantizedMultiplier(v * (1 << 20), m, s))
            << v << " " << m << " " << s;
      }
    }
  }
}

TEST(SubPersistent, OpDataIsTflms52Bytes) {
  EXPECT_EQ(kSubPersistentBytes, 52u);
  EXPECT_EQ(Register_SUB().builtin_code, model::kBuiltinSub);
}

TEST(SubOptions, ParsesActivationAndPotScale) {
  OptionsTableBuilder full;
  full.Add<uint8_t>(0, 3).Add<uint8_t>(1, 0);
  model::OptionsTable table = full.Build(28);
  SubOptions o;
  ASSERT_TRUE(Parse(Register_SUB(), table, &o).ok());
  EXPECT_EQ(o.activation, model::Activation::kRelu6);
  EXPECT_FALSE(o.pot_scale_int16);
  OptionsTableBuilder empty;
  model::OptionsTable none = empty.Build(28);
  ASSERT_TRUE(Parse(Register_SUB(), none, &o).ok());
  EXPECT_EQ(o.activation, model::Activation::kNone);
  EXPECT_TRUE(o.pot_scale_int16);
  EXPECT_EQ(Register_SUB().options.table_type, 28);  // SubOptions
}

// --- golden vectors from TFLM (golden/sub_cases.py) ---------------------------

using SubGolden = GoldenTest;

TEST_P(SubGolden, MatchesTflm) {
  using Kernels = BinaryKernels<SubOptions, SubOpData, model::Activation>;
  // SubFloat takes the activation.
  ExpectBinaryGolden(GetParam(), "SUB", kSubPersistentBytes,
                     Kernels{PrepareSub, SubInt8, SubInt16, SubInt32, SubFloat});
}

INSTANTIATE_TEST_SUITE_P(Tflm, SubGolden, ::testing::ValuesIn(golden::sub::kCases), GoldenName);

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
