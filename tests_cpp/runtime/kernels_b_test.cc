// Unit tests of the kernels_b math (pooling, softmax, reshape, quantize,
// dequantize) without an interpreter: hand-checked cases, and golden vectors
// produced by the real TFLM (golden/gen_kernels_b.py) that integer outputs
// must reproduce bit for bit and float outputs within 1e-5 relative.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "golden/kernels_b_golden.h"
#include "tflm_arena/runtime/kernels/dequantize.h"
#include "tflm_arena/runtime/kernels/pooling.h"
#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/padding.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/quantize.h"
#include "tflm_arena/runtime/kernels/reshape.h"
#include "tflm_arena/runtime/kernels/softmax.h"

namespace tflm_arena {
namespace runtime {
namespace {

namespace golden = kernels_b_golden;

// ---------------------------------------------------------------------------
// Hand-checked cases
// ---------------------------------------------------------------------------

TEST(PoolingMath, RoundedAverageRoundsHalfAwayFromZero) {
  EXPECT_EQ(RoundedAverage(5, 2), 3);    // 2.5
  EXPECT_EQ(RoundedAverage(-5, 2), -3);  // -2.5
  EXPECT_EQ(RoundedAverage(7, 3), 2);    // 2.33
  EXPECT_EQ(RoundedAverage(-7, 3), -2);
  EXPECT_EQ(RoundedAverage(8, 3), 3);    // 2.67
  EXPECT_EQ(RoundedAverage(-8, 3), -3);
  EXPECT_EQ(RoundedAverage(2, 4), 1);    // 0.5
  EXPECT_EQ(RoundedAverage(-2, 4), -1);
  EXPECT_EQ(RoundedAverage(1, 4), 0);    // 0.25
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
  ASSERT_TRUE(
      QuantizedActivationRange(model::Activation::kRelu6, kInt8, 0.05f, -3, &lo, &hi).ok());
  EXPECT_EQ(lo, -3);
  EXPECT_EQ(hi, 117);  // -3 + round(6 / 0.05)
  ASSERT_TRUE(
      QuantizedActivationRange(model::Activation::kRelu, kInt8, 0.05f, -3, &lo, &hi).ok());
  EXPECT_EQ(lo, -3);
  EXPECT_EQ(hi, 127);
  ASSERT_TRUE(
      QuantizedActivationRange(model::Activation::kReluN1To1, kInt8, 0.02f, 10, &lo, &hi).ok());
  EXPECT_EQ(lo, -40);
  EXPECT_EQ(hi, 60);
  ASSERT_TRUE(
      QuantizedActivationRange(model::Activation::kRelu6, kInt8, 0.01f, 0, &lo, &hi).ok());
  EXPECT_EQ(hi, 127);  // 600 clamps to the type
  ASSERT_TRUE(
      QuantizedActivationRange(model::Activation::kTanh, kInt8, 0.01f, 0, &lo, &hi).ok());
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
  const int8_t in[16] = {1, 2, 3, 4,  //
                         5, 6, 7, 8,  //
                         -1, -2, -9, -9,
                         -3, -3, 100, 101};
  int8_t out[4] = {0, 0, 0, 0};
  const PoolGeometry g = Geometry(1, 4, 4, 1, 2, 2, 2, 2, 2, 2, 0, 0);
  ASSERT_TRUE(AveragePoolInt8(g, -128, 127, in, out));
  EXPECT_EQ(out[0], 4);    // 14/4 = 3.5 -> 4
  EXPECT_EQ(out[1], 6);    // 22/4 = 5.5 -> 6
  EXPECT_EQ(out[2], -2);   // -9/4 = -2.25 -> -2
  EXPECT_EQ(out[3], 46);   // 183/4 = 45.75 -> 46
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

TEST(SoftmaxMath, Int8ParamsForScale1Over256) {
  SoftmaxInt8Params p;
  ASSERT_TRUE(PrepareSoftmaxInt8Params(1.0, 1.0 / 256, &p));
  EXPECT_EQ(p.input_multiplier, 1 << 30);  // 2^18 = 0.5 * 2^19
  EXPECT_EQ(p.input_left_shift, 19);
  EXPECT_EQ(p.diff_min, -3968);             // -floor(31 * 2^26 / 2^19)
  ASSERT_TRUE(PrepareSoftmaxInt8Params(1.0, 0.1, &p));
  EXPECT_EQ(p.input_left_shift, 23);
  EXPECT_EQ(p.diff_min, -248);
  // Capped multiplier: min(40 * 2^26, 2^31 - 1) = 2^31 - 1 is exactly a Q31
  // mantissa with shift 31; diff_min = -floor(31 / 32) = 0 (only the row
  // maxima contribute).
  ASSERT_TRUE(PrepareSoftmaxInt8Params(1.0, 40.0, &p));
  EXPECT_EQ(p.input_multiplier, 2147483647);
  EXPECT_EQ(p.input_left_shift, 31);
  EXPECT_EQ(p.diff_min, 0);
  EXPECT_FALSE(PrepareSoftmaxInt8Params(0.0, 0.1, &p));      // beta 0: TFLM aborts
  EXPECT_FALSE(PrepareSoftmaxInt8Params(1.0, 1e-9, &p));     // multiplier <= 1
}

TEST(SoftmaxMath, ExpOnNegativeValuesTracksExp) {
  EXPECT_EQ(SoftmaxExpOnNegativeValuesQ5(0), std::numeric_limits<int32_t>::max());
  // exp(-2^k) constants are reached exactly at the powers of two.
  double worst = 0;
  for (int32_t i = 1; i <= 4000; ++i) {
    const double x = -i * (31.0 / 4000.0);  // (-31, 0)
    const int32_t raw = static_cast<int32_t>(std::lround(x * (1 << 26)));
    const double got = SoftmaxExpOnNegativeValuesQ5(raw) / 2147483648.0;
    worst = std::max(worst, std::fabs(got - std::exp(raw / 67108864.0)));
  }
  EXPECT_LT(worst, 5e-7);  // gemmlowp's approximation error (~2e-7)
  // The quarter-interval polynomial at -1/8 is the exp(-1/8) constant.
  EXPECT_EQ(SoftmaxExpOnQuarterInterval(-(1 << 28)), 1895147668);
}

TEST(SoftmaxMath, OneOverOnePlusXTracksReciprocal) {
  double worst = 0;
  for (int i = 0; i < 1000; ++i) {
    const int32_t raw = static_cast<int32_t>(i * 2147483.0);
    const double a = raw / 2147483648.0;
    const double got = SoftmaxOneOverOnePlusX(raw) / 2147483648.0;
    worst = std::max(worst, std::fabs(got - 1.0 / (1.0 + a)));
  }
  EXPECT_LT(worst, 1e-8);
  int bits = 0;
  // x = 1.0 in Q12.19: reciprocal 1, no bits over unit.
  const int32_t r = SoftmaxReciprocal(1 << 19, 12, &bits);
  EXPECT_EQ(bits, 0);
  EXPECT_NEAR(r / 2147483648.0, 1.0, 1e-8);
  // x = 3.0: 1/3 relative to 2^1.
  const int32_t r3 = SoftmaxReciprocal(3 << 19, 12, &bits);
  EXPECT_EQ(bits, 1);
  EXPECT_NEAR(r3 / 2147483648.0, 2.0 / 3.0, 1e-8);
}

TEST(SoftmaxMath, Int8ByHand) {
  SoftmaxInt8Params p;
  ASSERT_TRUE(PrepareSoftmaxInt8Params(1.0, 0.1, &p));
  const int8_t equal4[4] = {7, 7, 7, 7};
  int8_t out[4] = {};
  SoftmaxInt8(p, 1, 4, equal4, out);
  for (int8_t v : out) EXPECT_EQ(v, -64);  // 0.25 * 256 - 128
  const int8_t equal2[2] = {-3, -3};
  SoftmaxInt8(p, 1, 2, equal2, out);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 0);
  // -255 is below diff_min (-248): the small entry is skipped entirely and
  // the big one saturates at 127 (1.0 is not representable).
  const int8_t far[2] = {127, -128};
  SoftmaxInt8(p, 1, 2, far, out);
  EXPECT_EQ(out[0], 127);
  EXPECT_EQ(out[1], -128);
  // Two rows are independent.
  const int8_t rows[4] = {0, 0, 5, 5};
  int16_t out16[4] = {};
  SoftmaxInt8ToInt16(p, 2, 2, rows, out16);
  for (int16_t v : out16) EXPECT_EQ(v, 0);  // 0.5 * 65536 - 32768
}

TEST(SoftmaxMath, FloatByHand) {
  const float in[2] = {0.0f, std::log(3.0f)};
  float out[2] = {};
  SoftmaxFloat(1.0f, 1, 2, in, out);
  EXPECT_NEAR(out[0], 0.25f, 1e-6f);
  EXPECT_NEAR(out[1], 0.75f, 1e-6f);
  SoftmaxFloat(0.0f, 1, 2, in, out);  // beta 0: uniform
  EXPECT_FLOAT_EQ(out[0], 0.5f);
}

TEST(SoftmaxMath, Int16Luts) {
  std::vector<int16_t> exp_lut(kSoftmaxInt16LutSize), recip_lut(kSoftmaxInt16LutSize);
  GenerateSoftmaxInt16Luts(exp_lut.data(), recip_lut.data());
  EXPECT_EQ(exp_lut[512], 32767);      // exp(0) * 32768, clamped
  EXPECT_NEAR(exp_lut[0], 1.5, 1.0);   // exp(-10) * 32768
  EXPECT_EQ(recip_lut[512], 16384);    // 1/2 * 32768
  for (int i = 1; i < kSoftmaxInt16LutSize; ++i) {
    EXPECT_GE(exp_lut[i], exp_lut[i - 1]);
    EXPECT_LE(recip_lut[i], recip_lut[i - 1]);
  }
  // Lookup interpolates between entries: the top of the table is exp(0).
  EXPECT_EQ(SoftmaxLutLookup(32767, exp_lut.data()),
            static_cast<int16_t>(exp_lut[511] +
                                 (((exp_lut[512] - exp_lut[511]) * 127 + 64) >> 7)));
}

TEST(QuantizeMath, AffineRoundsHalfAwayAndClamps) {
  const float in[6] = {0.25f, -0.25f, 0.75f, -0.75f, 1000.0f, -1000.0f};
  int8_t out[6] = {};
  AffineQuantize(in, 6, 0.5, 0, out);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], -1);
  EXPECT_EQ(out[2], 2);
  EXPECT_EQ(out[3], -2);
  EXPECT_EQ(out[4], 127);
  EXPECT_EQ(out[5], -128);
  int16_t out16[6] = {};
  AffineQuantize(in, 6, 0.5, 10, out16);
  EXPECT_EQ(out16[0], 11);
  EXPECT_EQ(out16[4], 2010);
}

TEST(QuantizeMath, RequantizeByHand) {
  const RequantizeParams p = MakeRequantizeParams(0.5, 0, 0.25, 1);
  EXPECT_EQ(p.multiplier, 1 << 30);
  EXPECT_EQ(p.shift, 2);
  const int8_t in[4] = {3, -3, 100, -100};
  int8_t out[4] = {};
  Requantize(in, 4, p, out);
  EXPECT_EQ(out[0], 7);
  EXPECT_EQ(out[1], -5);
  EXPECT_EQ(out[2], 127);
  EXPECT_EQ(out[3], -128);
  // Halving (multiplier 2^30, shift 0) rounds in the doubling high multiply,
  // whose nudge for negative products is 1 - 2^30 before truncation: ties go
  // up, so 1.5 -> 2 but -1.5 -> -1 (and -2.5 -> -2).
  const RequantizeParams half = MakeRequantizeParams(0.25, 0, 0.5, 0);
  EXPECT_EQ(half.shift, 0);
  const int16_t in16[4] = {3, -3, -5, -7};
  int8_t out8[4] = {};
  Requantize(in16, 4, half, out8);
  EXPECT_EQ(out8[0], 2);
  EXPECT_EQ(out8[1], -1);
  EXPECT_EQ(out8[2], -2);
  EXPECT_EQ(out8[3], -3);
}

TEST(DequantizeMath, ByHand) {
  const int8_t in[3] = {5, 3, -128};
  float out[3] = {};
  Dequantize(in, 3, 0.5, 3, out);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_EQ(out[2], -65.5f);
  const uint8_t u[2] = {0, 255};
  Dequantize(u, 2, 1.0, 128, out);
  EXPECT_EQ(out[0], -128.0f);
  EXPECT_EQ(out[1], 127.0f);
}

TEST(ReshapeMath, CountsAndCopies) {
  const int32_t shape[3] = {2, 3, 4};
  EXPECT_EQ(ReshapeElementCount(shape, 3, true), 24);
  const int32_t legacy[1] = {0};
  EXPECT_EQ(ReshapeElementCount(legacy, 1, true), 1);   // legacy scalar
  EXPECT_EQ(ReshapeElementCount(legacy, 1, false), 0);  // shape tensor given
  EXPECT_EQ(ReshapeElementCount(nullptr, 0, true), 1);  // scalar
  float a[4] = {1, 2, 3, 4};
  float b[4] = {};
  ReshapeCopy(a, b, sizeof(a));
  EXPECT_EQ(std::memcmp(a, b, sizeof(a)), 0);
  ReshapeCopy(a, a, sizeof(a));  // in place: untouched
  EXPECT_EQ(a[3], 4.0f);
}

TEST(KernelsBPersistent, OpDataSizesMatchTflmOn64Bit) {
  if (sizeof(void*) != 8) GTEST_SKIP() << "figures measured on LP64";
  EXPECT_EQ(kPoolingPersistentBytes, 32u);
  EXPECT_EQ(kSoftmaxPersistentBytes, 80u);
  EXPECT_EQ(kSoftmaxInt16LutBytes, 1026u);
  EXPECT_EQ(kQuantizePersistentBytes, 32u);
  EXPECT_EQ(kDequantizePersistentBytes, 32u);
  EXPECT_EQ(kReshapePersistentBytes, 0u);
}

// ---------------------------------------------------------------------------
// Golden vectors from TFLM
// ---------------------------------------------------------------------------

class TflmGolden : public ::testing::TestWithParam<size_t> {};

template <typename T>
std::vector<T> Buffer(int32_t count) {
  return std::vector<T>(static_cast<size_t>(count));
}

// Integer outputs: every element identical.
template <typename T>
void ExpectIdentical(const golden::Case& c, const std::vector<T>& got) {
  const T* want = static_cast<const T*>(c.expected);
  int mismatches = 0;
  for (int32_t i = 0; i < c.out_count; ++i) {
    if (got[i] != want[i]) {
      if (++mismatches <= 8) {
        ADD_FAILURE() << c.name << " [" << i << "]: got " << static_cast<int64_t>(got[i])
                      << ", TFLM " << static_cast<int64_t>(want[i]);
      }
    }
  }
  EXPECT_EQ(mismatches, 0) << c.name << ": " << mismatches << " of " << c.out_count
                           << " differ from TFLM";
}

// Float outputs: within 1e-5 relative (absolute near 0); reports how many
// are bit-identical.
void ExpectClose(const golden::Case& c, const std::vector<float>& got) {
  const float* want = static_cast<const float*>(c.expected);
  int bad = 0, identical = 0;
  for (int32_t i = 0; i < c.out_count; ++i) {
    const double tol = 1e-5 * std::max(1.0, std::fabs(static_cast<double>(want[i])));
    if (std::memcmp(&got[i], &want[i], sizeof(float)) == 0) ++identical;
    if (!(std::fabs(static_cast<double>(got[i]) - want[i]) <= tol)) {
      if (++bad <= 8) {
        ADD_FAILURE() << c.name << " [" << i << "]: got " << got[i] << ", TFLM " << want[i];
      }
    }
  }
  EXPECT_EQ(bad, 0);
  std::printf("    %s: %d/%d float outputs bit-identical to TFLM\n", c.name, identical,
              c.out_count);
}

// The kernel's persistent request equals TFLM's (figures measured on LP64).
void ExpectPersistent(size_t ours, const golden::Case& c) {
  if (sizeof(void*) != 8) return;
  EXPECT_EQ(ours, static_cast<size_t>(c.tflm_persistent_bytes)) << c.name;
}

int32_t Outer(const golden::Case& c) {
  int32_t n = 1;
  for (int32_t i = 0; i + 1 < c.in_rank; ++i) n *= c.in_shape[i];
  return n;
}

void RunSoftmax(const golden::Case& c) {
  const int32_t depth = c.in_shape[c.in_rank - 1];
  const int32_t outer = Outer(c);
  if (c.in_type == golden::kFloat32) {
    auto out = Buffer<float>(c.out_count);
    SoftmaxFloat(c.beta, outer, depth, static_cast<const float*>(c.input), out.data());
    ExpectClose(c, out);
    ExpectPersistent(kSoftmaxPersistentBytes, c);
    return;
  }
  if (c.in_type == golden::kInt16) {
    std::vector<int16_t> exp_lut(kSoftmaxInt16LutSize), recip_lut(kSoftmaxInt16LutSize);
    GenerateSoftmaxInt16Luts(exp_lut.data(), recip_lut.data());
    SoftmaxInt16Params p;
    PrepareSoftmaxInt16Multiplier(c.beta, c.in_scale, &p);
    p.exp_lut = exp_lut.data();
    p.one_over_one_plus_x_lut = recip_lut.data();
    auto out = Buffer<int16_t>(c.out_count);
    SoftmaxInt16(p, outer, depth, static_cast<const int16_t*>(c.input), out.data());
    ExpectIdentical(c, out);
    ExpectPersistent(kSoftmaxPersistentBytes + 2 * kSoftmaxInt16LutBytes, c);
    return;
  }
  SoftmaxInt8Params p;
  ASSERT_TRUE(PrepareSoftmaxInt8Params(c.beta, c.in_scale, &p));
  if (c.out_type == golden::kInt16) {
    auto out = Buffer<int16_t>(c.out_count);
    SoftmaxInt8ToInt16(p, outer, depth, static_cast<const int8_t*>(c.input), out.data());
    ExpectIdentical(c, out);
  } else {
    auto out = Buffer<int8_t>(c.out_count);
    SoftmaxInt8(p, outer, depth, static_cast<const int8_t*>(c.input), out.data());
    ExpectIdentical(c, out);
  }
  ExpectPersistent(kSoftmaxPersistentBytes, c);
}

void RunPool(const golden::Case& c) {
  const model::Padding padding = c.padding == 0 ? model::Padding::kSame : model::Padding::kValid;
  const model::Activation activation = static_cast<model::Activation>(c.activation);
  int32_t oh = 0, ow = 0;
  const PaddingValues pad =
      ComputePaddingHeightWidth(c.stride_h, c.stride_w, 1, 1, c.in_shape[1],
                             c.in_shape[2], c.filter_h, c.filter_w, padding, &oh, &ow);
  ASSERT_EQ(oh, c.out_shape[1]);
  ASSERT_EQ(ow, c.out_shape[2]);
  const PoolGeometry g =
      Geometry(c.in_shape[0], c.in_shape[1], c.in_shape[2], c.in_shape[3], c.out_shape[1],
               c.out_shape[2], c.filter_h, c.filter_w, c.stride_h, c.stride_w, pad.height,
               pad.width);
  const bool average = c.pool_op == 0;
  if (c.in_type == golden::kFloat32) {
    float lo = 0, hi = 0;
    FloatActivationRange(activation, &lo, &hi);
    auto out = Buffer<float>(c.out_count);
    const float* in = static_cast<const float*>(c.input);
    if (average) {
      ASSERT_TRUE(AveragePoolFloat(g, lo, hi, in, out.data()));
    } else {
      MaxPoolFloat(g, lo, hi, in, out.data());
    }
    ExpectClose(c, out);
  } else {
    const bool int8 = c.in_type == golden::kInt8;
    int32_t lo = 0, hi = 0;
    const model::TensorType type = int8 ? model::TensorType::kInt8 : model::TensorType::kInt16;
    ASSERT_TRUE(
        QuantizedActivationRange(activation, type, c.out_scale, c.out_zero_point, &lo, &hi).ok());
    if (int8) {
      auto out = Buffer<int8_t>(c.out_count);
      const int8_t* in = static_cast<const int8_t*>(c.input);
      if (average) {
        ASSERT_TRUE(AveragePoolInt8(g, lo, hi, in, out.data()));
      } else {
        MaxPoolInt8(g, lo, hi, in, out.data());
      }
      ExpectIdentical(c, out);
    } else {
      auto out = Buffer<int16_t>(c.out_count);
      const int16_t* in = static_cast<const int16_t*>(c.input);
      if (average) {
        ASSERT_TRUE(AveragePoolInt16(g, lo, hi, in, out.data()));
      } else {
        MaxPoolInt16(g, lo, hi, in, out.data());
      }
      ExpectIdentical(c, out);
    }
  }
  ExpectPersistent(kPoolingPersistentBytes, c);
}

template <typename InT, typename OutT>
void RunRequantize(const golden::Case& c) {
  const RequantizeParams p =
      MakeRequantizeParams(c.in_scale, c.in_zero_point, c.out_scale, c.out_zero_point);
  auto out = Buffer<OutT>(c.out_count);
  Requantize(static_cast<const InT*>(c.input), static_cast<size_t>(c.in_count), p, out.data());
  ExpectIdentical(c, out);
}

void RunQuantize(const golden::Case& c) {
  ExpectPersistent(kQuantizePersistentBytes, c);
  const size_t n = static_cast<size_t>(c.in_count);
  const int32_t it = c.in_type, ot = c.out_type;
  if (it == golden::kFloat32 && ot == golden::kInt8) {
    auto out = Buffer<int8_t>(c.out_count);
    AffineQuantize(static_cast<const float*>(c.input), n, c.out_scale, c.out_zero_point,
                   out.data());
    return ExpectIdentical(c, out);
  }
  if (it == golden::kFloat32 && ot == golden::kInt16) {
    auto out = Buffer<int16_t>(c.out_count);
    AffineQuantize(static_cast<const float*>(c.input), n, c.out_scale, c.out_zero_point,
                   out.data());
    return ExpectIdentical(c, out);
  }
  if (it == golden::kInt8 && ot == golden::kInt8) return RunRequantize<int8_t, int8_t>(c);
  if (it == golden::kInt8 && ot == golden::kUint8) return RunRequantize<int8_t, uint8_t>(c);
  if (it == golden::kInt8 && ot == golden::kInt16) return RunRequantize<int8_t, int16_t>(c);
  if (it == golden::kInt8 && ot == golden::kInt32) return RunRequantize<int8_t, int32_t>(c);
  if (it == golden::kInt16 && ot == golden::kInt8) return RunRequantize<int16_t, int8_t>(c);
  if (it == golden::kInt16 && ot == golden::kInt16) return RunRequantize<int16_t, int16_t>(c);
  if (it == golden::kInt16 && ot == golden::kInt32) return RunRequantize<int16_t, int32_t>(c);
  if (it == golden::kInt32 && ot == golden::kInt8) return RunRequantize<int32_t, int8_t>(c);
  if (it == golden::kInt32 && ot == golden::kInt16) return RunRequantize<int32_t, int16_t>(c);
  if (it == golden::kUint8 && ot == golden::kInt8) return RunRequantize<uint8_t, int8_t>(c);
  FAIL() << c.name << ": no QUANTIZE path for types " << it << " -> " << ot;
}

void RunDequantize(const golden::Case& c) {
  ExpectPersistent(kDequantizePersistentBytes, c);
  const size_t n = static_cast<size_t>(c.in_count);
  auto out = Buffer<float>(c.out_count);
  switch (c.in_type) {
    case golden::kInt8:
      Dequantize(static_cast<const int8_t*>(c.input), n, c.in_scale, c.in_zero_point,
                 out.data());
      break;
    case golden::kInt16:
      Dequantize(static_cast<const int16_t*>(c.input), n, c.in_scale, c.in_zero_point,
                 out.data());
      break;
    case golden::kUint8:
      Dequantize(static_cast<const uint8_t*>(c.input), n, c.in_scale, c.in_zero_point,
                 out.data());
      break;
    default:
      FAIL() << c.name << ": unexpected input type " << c.in_type;
  }
  ExpectClose(c, out);
}

TEST_P(TflmGolden, MatchesTflm) {
  const golden::Case& c = golden::kCases[GetParam()];
  switch (c.kind) {
    case 0:
      return RunSoftmax(c);
    case 1:
      return RunPool(c);
    case 2:
      return RunQuantize(c);
    case 3:
      return RunDequantize(c);
    default:
      FAIL() << "unknown case kind " << c.kind;
  }
}

std::string CaseName(const ::testing::TestParamInfo<size_t>& info) {
  std::string name = golden::kCases[info.param].name;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(KernelsB, TflmGolden, ::testing::Range<size_t>(0, golden::kNumCases),
                         CaseName);

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
