// SOFTMAX: hand-checked math and LUTs, golden vectors from the real TFLM
// (integers bit for bit, float within 1e-5 relative, persistent bytes equal
// to TFLM's) and the kernel's options parser.
#include "tflm_arena/runtime/kernels/softmax.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "golden/softmax_golden.h"
#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::Activation;
using model::Padding;
using model::TensorInfo;
using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(SoftmaxMath, Int8ParamsForScale1Over256) {
  SoftmaxInt8Params p;
  ASSERT_TRUE(PrepareSoftmaxInt8Params(1.0, 1.0 / 256, &p));
  EXPECT_EQ(p.input_multiplier, 1 << 30);  // 2^18 = 0.5 * 2^19
  EXPECT_EQ(p.input_left_shift, 19);
  EXPECT_EQ(p.diff_min, -3968);  // -floor(31 * 2^26 / 2^19)
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
  EXPECT_FALSE(PrepareSoftmaxInt8Params(0.0, 0.1, &p));   // beta 0: TFLM aborts
  EXPECT_FALSE(PrepareSoftmaxInt8Params(1.0, 1e-9, &p));  // multiplier <= 1
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
  EXPECT_EQ(exp_lut[512], 32767);     // exp(0) * 32768, clamped
  EXPECT_NEAR(exp_lut[0], 1.5, 1.0);  // exp(-10) * 32768
  EXPECT_EQ(recip_lut[512], 16384);   // 1/2 * 32768
  for (int i = 1; i < kSoftmaxInt16LutSize; ++i) {
    EXPECT_GE(exp_lut[i], exp_lut[i - 1]);
    EXPECT_LE(recip_lut[i], recip_lut[i - 1]);
  }
  // Lookup interpolates between entries: the top of the table is exp(0).
  EXPECT_EQ(SoftmaxLutLookup(32767, exp_lut.data()),
            static_cast<int16_t>(exp_lut[511] + (((exp_lut[512] - exp_lut[511]) * 127 + 64) >> 7)));
}

TEST(SoftmaxPersistent, OpDataSizesMatchTflmOn64Bit) {
  if (sizeof(void*) != 8) GTEST_SKIP() << "figures measured on LP64";
  EXPECT_EQ(kSoftmaxPersistentBytes, 80u);
  EXPECT_EQ(kSoftmaxInt16LutBytes, 1026u);
}

// --- golden vectors from TFLM (golden/softmax_cases.py) -------------------------

using SoftmaxGolden = GoldenTest;

TEST_P(SoftmaxGolden, MatchesTflm) {
  const golden::Case& c = GetParam();
  const int32_t depth = c.input.shape[c.input.rank - 1];
  int32_t outer = 1;
  for (int32_t i = 0; i + 1 < c.input.rank; ++i) outer *= c.input.shape[i];
  const float beta = c.options.beta;
  const size_t n = Count(c.output);
  if (Is(c.input, TensorType::kFloat32)) {
    std::vector<float> out(n);
    SoftmaxFloat(beta, outer, depth, DataOf<float>(c.input), out.data());
    ExpectClose(c, out);
    return ExpectPersistent(kSoftmaxPersistentBytes, c);
  }
  if (Is(c.input, TensorType::kInt16)) {
    std::vector<int16_t> exp_lut(kSoftmaxInt16LutSize), recip_lut(kSoftmaxInt16LutSize);
    GenerateSoftmaxInt16Luts(exp_lut.data(), recip_lut.data());
    SoftmaxInt16Params p;
    PrepareSoftmaxInt16Multiplier(beta, ScaleOf(c.input), &p);
    p.exp_lut = exp_lut.data();
    p.one_over_one_plus_x_lut = recip_lut.data();
    std::vector<int16_t> out(n);
    SoftmaxInt16(p, outer, depth, DataOf<int16_t>(c.input), out.data());
    ExpectIdentical(c, out);
    return ExpectPersistent(kSoftmaxPersistentBytes + 2 * kSoftmaxInt16LutBytes, c);
  }
  SoftmaxInt8Params p;
  ASSERT_TRUE(PrepareSoftmaxInt8Params(beta, ScaleOf(c.input), &p));
  if (Is(c.output, TensorType::kInt16)) {
    std::vector<int16_t> out(n);
    SoftmaxInt8ToInt16(p, outer, depth, DataOf<int8_t>(c.input), out.data());
    ExpectIdentical(c, out);
  } else {
    std::vector<int8_t> out(n);
    SoftmaxInt8(p, outer, depth, DataOf<int8_t>(c.input), out.data());
    ExpectIdentical(c, out);
  }
  ExpectPersistent(kSoftmaxPersistentBytes, c);
}

INSTANTIATE_TEST_SUITE_P(Tflm, SoftmaxGolden, ::testing::ValuesIn(golden::softmax::kCases),
                         GoldenName);

// --- options parsing (SoftmaxOptions) --------------------------------------------

TEST(SoftmaxOptions, ParsesBeta) {
  OptionsTableBuilder full;
  full.Add<float>(0, 0.75f);
  model::OptionsTable table = full.Build(9);
  SoftmaxOptions o;
  ASSERT_TRUE(Parse(Register_SOFTMAX(), table, &o).ok());
  EXPECT_EQ(o.beta, 0.75f);
  OptionsTableBuilder empty;
  model::OptionsTable none = empty.Build(9);
  ASSERT_TRUE(Parse(Register_SOFTMAX(), none, &o).ok());
  EXPECT_EQ(o.beta, 0.0f);
  EXPECT_EQ(Register_SOFTMAX().options.table_type, 9);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
