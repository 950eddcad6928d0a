// Helpers every kernel shares: TFLM's padding and activation-range rules and
// the per-channel requantization multipliers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/conv_common.h"
#include "tflm_arena/runtime/kernels/padding.h"
#include "tflm_arena/runtime/kernels/quant_util.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::Activation;
using model::Padding;
using model::TensorInfo;
using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

// --- padding ------------------------------------------------------------

TEST(Padding, SameStride2OddInput) {
  // in 7, filter 3, stride 2: out 4, total padding (4-1)*2 + 3 - 7 = 2.
  int32_t oh = 0, ow = 0;
  const PaddingValues p =
      ComputePaddingHeightWidth(2, 2, 1, 1, 7, 7, 3, 3, Padding::kSame, &oh, &ow);
  EXPECT_EQ(oh, 4);
  EXPECT_EQ(ow, 4);
  EXPECT_EQ(p.height, 1);
  EXPECT_EQ(p.width, 1);
  EXPECT_EQ(p.height_offset, 0);
  EXPECT_EQ(p.width_offset, 0);
}

TEST(Padding, SameStride2EvenInputPutsOddPixelAfter) {
  // in 8, filter 3, stride 2: out 4, total 1 -> 0 before, 1 after.
  int32_t oh = 0, ow = 0;
  const PaddingValues p =
      ComputePaddingHeightWidth(2, 2, 1, 1, 8, 8, 3, 3, Padding::kSame, &oh, &ow);
  EXPECT_EQ(oh, 4);
  EXPECT_EQ(p.height, 0);
  EXPECT_EQ(p.height_offset, 1);
}

TEST(Padding, DilationWidensTheFilter) {
  // filter 3 with dilation 2 spans 5: SAME in 8 stride 1 -> total 4 -> 2.
  int32_t oh = 0, ow = 0;
  PaddingValues p = ComputePaddingHeightWidth(1, 1, 2, 2, 8, 8, 3, 3, Padding::kSame, &oh, &ow);
  EXPECT_EQ(oh, 8);
  EXPECT_EQ(p.height, 2);
  EXPECT_EQ(p.height_offset, 0);
  // VALID: out = (8 + 1 - 5) / 1 = 4, no padding.
  p = ComputePaddingHeightWidth(1, 1, 2, 2, 8, 8, 3, 3, Padding::kValid, &oh, &ow);
  EXPECT_EQ(oh, 4);
  EXPECT_EQ(p.height, 0);
  EXPECT_EQ(p.height_offset, 0);
}

TEST(Padding, MixedAxesAndStrideZero) {
  int32_t oh = 0, ow = 0;
  const PaddingValues p =
      ComputePaddingHeightWidth(1, 3, 1, 1, 5, 10, 3, 4, Padding::kSame, &oh, &ow);
  EXPECT_EQ(oh, 5);  // total 2 -> 1
  EXPECT_EQ(ow, 4);  // (10 + 2) / 3; total (3 * 3 + 4 - 10) = 3 -> 1, offset 1
  EXPECT_EQ(p.height, 1);
  EXPECT_EQ(p.width, 1);
  EXPECT_EQ(p.width_offset, 1);
  EXPECT_EQ(ComputeOutSize(Padding::kSame, 10, 3, 0, 1), 0);
}

// --- activation ----------------------------------------------------------

TEST(Activation, FloatRanges) {
  float lo = 0, hi = 0;
  FloatActivationRange(Activation::kRelu6, &lo, &hi);
  EXPECT_EQ(lo, 0.0f);
  EXPECT_EQ(hi, 6.0f);
  FloatActivationRange(Activation::kReluN1To1, &lo, &hi);
  EXPECT_EQ(lo, -1.0f);
  EXPECT_EQ(hi, 1.0f);
  FloatActivationRange(Activation::kRelu, &lo, &hi);
  EXPECT_EQ(lo, 0.0f);
  EXPECT_EQ(hi, std::numeric_limits<float>::max());
  // TANH / SIGN_BIT fused into these ops do not clamp (as in TFLM).
  FloatActivationRange(Activation::kTanh, &lo, &hi);
  EXPECT_EQ(lo, std::numeric_limits<float>::lowest());
  EXPECT_EQ(ApplyActivation(-7.5f, lo, hi), -7.5f);
  EXPECT_EQ(ApplyActivation(7.5f, 0.0f, 6.0f), 6.0f);
}

TEST(Activation, QuantizedRanges) {
  int32_t lo = 0, hi = 0;
  // RELU6, scale 0.05, zp -10: q(0) = -10, q(6) = -10 + 120 = 110.
  ASSERT_TRUE(
      QuantizedActivationRange(Activation::kRelu6, TensorType::kInt8, 0.05f, -10, &lo, &hi).ok());
  EXPECT_EQ(lo, -10);
  EXPECT_EQ(hi, 110);
  // RELU_N1_TO_1, scale 0.1, zp 3: [3 - 10, 3 + 10].
  ASSERT_TRUE(
      QuantizedActivationRange(Activation::kReluN1To1, TensorType::kInt8, 0.1f, 3, &lo, &hi).ok());
  EXPECT_EQ(lo, -7);
  EXPECT_EQ(hi, 13);
  // RELU with the zero point below the type range clamps to the type.
  ASSERT_TRUE(
      QuantizedActivationRange(Activation::kRelu, TensorType::kInt8, 0.1f, -200, &lo, &hi).ok());
  EXPECT_EQ(lo, -128);
  EXPECT_EQ(hi, 127);
  // RELU6 with a tiny scale: q(6) saturates to 127.
  ASSERT_TRUE(
      QuantizedActivationRange(Activation::kRelu6, TensorType::kInt8, 0.001f, 0, &lo, &hi).ok());
  EXPECT_EQ(hi, 127);
  // Rounding is half away from zero: 6 / 4 = 1.5 -> 2, +-1 / 2 -> +-1.
  ASSERT_TRUE(
      QuantizedActivationRange(Activation::kRelu6, TensorType::kInt8, 4.0f, 0, &lo, &hi).ok());
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 2);
  ASSERT_TRUE(
      QuantizedActivationRange(Activation::kReluN1To1, TensorType::kInt8, 2.0f, 0, &lo, &hi).ok());
  EXPECT_EQ(lo, -1);
  EXPECT_EQ(hi, 1);
  ASSERT_TRUE(
      QuantizedActivationRange(Activation::kNone, TensorType::kInt16, 1.0f, 0, &lo, &hi).ok());
  EXPECT_EQ(lo, -32768);
  EXPECT_EQ(hi, 32767);
  EXPECT_FALSE(
      QuantizedActivationRange(Activation::kRelu6, TensorType::kInt8, 0.0f, 0, &lo, &hi).ok());
  EXPECT_FALSE(
      QuantizedActivationRange(Activation::kNone, TensorType::kFloat32, 1.0f, 0, &lo, &hi).ok());
}

// --- per-channel multipliers ----------------------------------------------

TEST(ConvCommon, PerChannelMultipliersBroadcastAPerTensorScale) {
  const float scales[] = {0.5f};
  int32_t m[3], s[3];
  // 2 * 0.5 / 0.25 = 4 = 0.5 * 2^3.
  PerChannelMultipliers(2.0f, Span<const float>(scales, 1), 0.25f, 3, m, s);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(m[i], 1 << 30);
    EXPECT_EQ(s[i], 3);
  }
  const float per_channel[] = {0.5f, 0.25f};
  PerChannelMultipliers(1.0f, Span<const float>(per_channel, 2), 1.0f, 2, m, s);
  EXPECT_EQ(m[0], 1 << 30);
  EXPECT_EQ(s[0], 0);
  EXPECT_EQ(m[1], 1 << 30);
  EXPECT_EQ(s[1], -1);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
