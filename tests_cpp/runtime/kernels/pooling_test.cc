// AVERAGE_POOL_2D / MAX_POOL_2D: hand-checked math, golden vectors from the
// real TFLM (integers bit for bit, float within 1e-5 relative, persistent
// bytes equal to TFLM's) and the kernels' options parser.
#include "tflm_arena/runtime/kernels/pooling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "golden/pooling_golden.h"
#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/padding.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::Activation;
using model::Padding;
using model::TensorInfo;
using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(PoolingMath, RoundedAverageRoundsHalfAwayFromZero) {
  EXPECT_EQ(RoundedAverage(5, 2), 3);    // 2.5
  EXPECT_EQ(RoundedAverage(-5, 2), -3);  // -2.5
  EXPECT_EQ(RoundedAverage(7, 3), 2);    // 2.33
  EXPECT_EQ(RoundedAverage(-7, 3), -2);
  EXPECT_EQ(RoundedAverage(8, 3), 3);  // 2.67
  EXPECT_EQ(RoundedAverage(-8, 3), -3);
  EXPECT_EQ(RoundedAverage(2, 4), 1);  // 0.5
  EXPECT_EQ(RoundedAverage(-2, 4), -1);
  EXPECT_EQ(RoundedAverage(1, 4), 0);  // 0.25
  EXPECT_EQ(RoundedAverage(0, 9), 0);
}

TEST(PoolingMath, PaddingFollowsTflm) {
  int32_t oh = 0, ow = 0;
  // SAME 7 -> 4 with filter 3 stride 2: total 2*3+3-7 = 2 -> 1 each side.
  PaddingValues p =
      ComputePaddingHeightWidth(2, 2, 1, 1, 7, 7, 3, 3, model::Padding::kSame, &oh, &ow);
  EXPECT_EQ(oh, 4);
  EXPECT_EQ(ow, 4);
  EXPECT_EQ(p.height, 1);
  EXPECT_EQ(p.height_offset, 0);
  // SAME 6 -> 3 with filter 3 stride 2: total 1 -> 0 before, 1 after.
  p = ComputePaddingHeightWidth(2, 2, 1, 1, 6, 6, 3, 3, model::Padding::kSame, &oh, &ow);
  EXPECT_EQ(oh, 3);
  EXPECT_EQ(p.height, 0);
  EXPECT_EQ(p.height_offset, 1);
  // SAME, even filter 4 stride 1 over 5: total 3 -> 1 before, 2 after.
  p = ComputePaddingHeightWidth(1, 1, 1, 1, 5, 5, 4, 4, model::Padding::kSame, &oh, &ow);
  EXPECT_EQ(oh, 5);
  EXPECT_EQ(p.height, 1);
  EXPECT_EQ(p.height_offset, 1);
  // VALID never pads.
  p = ComputePaddingHeightWidth(2, 2, 1, 1, 8, 7, 2, 3, model::Padding::kValid, &oh, &ow);
  EXPECT_EQ(oh, 4);
  EXPECT_EQ(ow, 3);
  EXPECT_EQ(p.height, 0);
  EXPECT_EQ(p.width, 0);
  // Stride 0 gives output size 0 (TFLM's error signal).
  EXPECT_EQ(ComputeOutSize(model::Padding::kSame, 5, 3, 0, 1), 0);
}

TEST(PoolingMath, QuantizedActivationRange) {
  constexpr model::TensorType kInt8 = model::TensorType::kInt8;
  int32_t lo = 0, hi = 0;
  ASSERT_TRUE(QuantizedActivationRange(model::Activation::kRelu6, kInt8, 0.05f, -3, &lo, &hi).ok());
  EXPECT_EQ(lo, -3);
  EXPECT_EQ(hi, 117);  // -3 + round(6 / 0.05)
  ASSERT_TRUE(QuantizedActivationRange(model::Activation::kRelu, kInt8, 0.05f, -3, &lo, &hi).ok());
  EXPECT_EQ(lo, -3);
  EXPECT_EQ(hi, 127);
  ASSERT_TRUE(
      QuantizedActivationRange(model::Activation::kReluN1To1, kInt8, 0.02f, 10, &lo, &hi).ok());
  EXPECT_EQ(lo, -40);
  EXPECT_EQ(hi, 60);
  ASSERT_TRUE(QuantizedActivationRange(model::Activation::kRelu6, kInt8, 0.01f, 0, &lo, &hi).ok());
  EXPECT_EQ(hi, 127);  // 600 clamps to the type
  ASSERT_TRUE(QuantizedActivationRange(model::Activation::kTanh, kInt8, 0.01f, 0, &lo, &hi).ok());
  EXPECT_EQ(lo, -128);
  EXPECT_EQ(hi, 127);
  float flo = 0, fhi = 0;
  FloatActivationRange(model::Activation::kRelu6, &flo, &fhi);
  EXPECT_EQ(flo, 0.0f);
  EXPECT_EQ(fhi, 6.0f);
  FloatActivationRange(model::Activation::kNone, &flo, &fhi);
  EXPECT_EQ(flo, std::numeric_limits<float>::lowest());
}

PoolGeometry Geometry(int32_t n, int32_t h, int32_t w, int32_t c, int32_t oh, int32_t ow,
                      int32_t fh, int32_t fw, int32_t sh, int32_t sw, int32_t ph, int32_t pw) {
  PoolGeometry g;
  g.batches = n;
  g.input_height = h;
  g.input_width = w;
  g.depth = c;
  g.output_height = oh;
  g.output_width = ow;
  g.filter_height = fh;
  g.filter_width = fw;
  g.stride_height = sh;
  g.stride_width = sw;
  g.pad_height = ph;
  g.pad_width = pw;
  return g;
}

TEST(PoolingMath, AverageInt8ValidByHand) {
  const int8_t in[16] = {1,  2,  3,  4,  //
                         5,  6,  7,  8,  //
                         -1, -2, -9, -9, -3, -3, 100, 101};
  int8_t out[4] = {0, 0, 0, 0};
  const PoolGeometry g = Geometry(1, 4, 4, 1, 2, 2, 2, 2, 2, 2, 0, 0);
  ASSERT_TRUE(AveragePoolInt8(g, -128, 127, in, out));
  EXPECT_EQ(out[0], 4);   // 14/4 = 3.5 -> 4
  EXPECT_EQ(out[1], 6);   // 22/4 = 5.5 -> 6
  EXPECT_EQ(out[2], -2);  // -9/4 = -2.25 -> -2
  EXPECT_EQ(out[3], 46);  // 183/4 = 45.75 -> 46
  ASSERT_TRUE(AveragePoolInt8(g, 0, 10, in, out));
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(out[3], 10);
}

TEST(PoolingMath, SamePaddingWindowsAreClippedNotZeroPadded) {
  // 3x3 input, 3x3 filter, SAME stride 1: the corner window has 4 elements.
  const float in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  float out[9] = {};
  const PoolGeometry g = Geometry(1, 3, 3, 1, 3, 3, 3, 3, 1, 1, 1, 1);
  ASSERT_TRUE(AveragePoolFloat(g, std::numeric_limits<float>::lowest(),
                               std::numeric_limits<float>::max(), in, out));
  EXPECT_FLOAT_EQ(out[0], (1 + 2 + 4 + 5) / 4.0f);
  EXPECT_FLOAT_EQ(out[4], 5.0f);
  MaxPoolFloat(g, 0.0f, 6.0f, in, out);
  EXPECT_FLOAT_EQ(out[0], 5.0f);
  EXPECT_FLOAT_EQ(out[8], 6.0f);  // 9 clamped by RELU6
  const int8_t qin[9] = {-100, -90, -80, -70, -60, -50, -40, -30, -20};
  int8_t qout[9] = {};
  MaxPoolInt8(g, -128, 127, qin, qout);
  EXPECT_EQ(qout[0], -60);
  EXPECT_EQ(qout[8], -20);
}

TEST(PoolingMath, EmptyWindowReportsFalse) {
  // Output larger than the input can cover: the last window starts past it.
  const int8_t in[2] = {1, 2};
  int8_t out[4] = {};
  const PoolGeometry g = Geometry(1, 1, 2, 1, 1, 4, 1, 1, 1, 1, 0, 0);
  EXPECT_FALSE(AveragePoolInt8(g, -128, 127, in, out));
}

TEST(PoolingPersistent, OpDataSizeMatchesTflmOn64Bit) {
  if (sizeof(void*) != 8) GTEST_SKIP() << "figures measured on LP64";
  EXPECT_EQ(kPoolingPersistentBytes, 32u);
}

// --- golden vectors from TFLM (golden/pooling_cases.py) ------------------------

using PoolingGolden = GoldenTest;

TEST_P(PoolingGolden, MatchesTflm) {
  const golden::Case& c = GetParam();
  const golden::Options& o = c.options;
  const int32_t* in = c.input.shape;
  const int32_t* out_shape = c.output.shape;
  const auto activation = static_cast<Activation>(o.activation);
  int32_t oh = 0, ow = 0;
  const PaddingValues pad =
      ComputePaddingHeightWidth(o.stride_h, o.stride_w, 1, 1, in[1], in[2], o.filter_h, o.filter_w,
                                static_cast<Padding>(o.padding), &oh, &ow);
  ASSERT_EQ(oh, out_shape[1]);
  ASSERT_EQ(ow, out_shape[2]);
  const PoolGeometry g =
      Geometry(in[0], in[1], in[2], in[3], out_shape[1], out_shape[2], o.filter_h, o.filter_w,
               o.stride_h, o.stride_w, pad.height, pad.width);
  const bool average = std::strcmp(c.op, "AVERAGE_POOL_2D") == 0;
  const size_t n = Count(c.output);
  if (Is(c.input, TensorType::kFloat32)) {
    float lo = 0, hi = 0;
    FloatActivationRange(activation, &lo, &hi);
    std::vector<float> out(n);
    if (average) {
      ASSERT_TRUE(AveragePoolFloat(g, lo, hi, DataOf<float>(c.input), out.data()));
    } else {
      MaxPoolFloat(g, lo, hi, DataOf<float>(c.input), out.data());
    }
    ExpectClose(c, out);
  } else {
    const auto type = static_cast<TensorType>(c.input.type);
    int32_t lo = 0, hi = 0;
    ASSERT_TRUE(QuantizedActivationRange(activation, type, ScaleOf(c.output), ZeroPointOf(c.output),
                                         &lo, &hi)
                    .ok());
    if (type == TensorType::kInt8) {
      std::vector<int8_t> out(n);
      if (average) {
        ASSERT_TRUE(AveragePoolInt8(g, lo, hi, DataOf<int8_t>(c.input), out.data()));
      } else {
        MaxPoolInt8(g, lo, hi, DataOf<int8_t>(c.input), out.data());
      }
      ExpectIdentical(c, out);
    } else {
      std::vector<int16_t> out(n);
      if (average) {
        ASSERT_TRUE(AveragePoolInt16(g, lo, hi, DataOf<int16_t>(c.input), out.data()));
      } else {
        MaxPoolInt16(g, lo, hi, DataOf<int16_t>(c.input), out.data());
      }
      ExpectIdentical(c, out);
    }
  }
  ExpectPersistent(kPoolingPersistentBytes, c);
}

INSTANTIATE_TEST_SUITE_P(Tflm, PoolingGolden, ::testing::ValuesIn(golden::pooling::kCases),
                         GoldenName);

// --- options parsing (Pool2DOptions, shared by both pooling kernels) ----------

TEST(PoolOptions, ParsesEveryField) {
  OptionsTableBuilder full;
  full.Add<int8_t>(0, 1).Add<int32_t>(1, 2).Add<int32_t>(2, 3).Add<int32_t>(3, 4);
  full.Add<int32_t>(4, 5).Add<int8_t>(5, 2);
  for (const KernelRegistration* r : {&Register_AVERAGE_POOL_2D(), &Register_MAX_POOL_2D()}) {
    model::OptionsTable table = full.Build(5);
    PoolOptions o;
    ASSERT_TRUE(Parse(*r, table, &o).ok()) << r->name;
    EXPECT_EQ(o.padding, Padding::kValid);
    EXPECT_EQ(o.stride_w, 2);
    EXPECT_EQ(o.stride_h, 3);
    EXPECT_EQ(o.filter_w, 4);
    EXPECT_EQ(o.filter_h, 5);
    EXPECT_EQ(o.activation, Activation::kReluN1To1);
    EXPECT_EQ(r->options.table_type, 5);
  }
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
