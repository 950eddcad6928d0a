// QUANTIZE: hand-checked math and golden vectors from the real TFLM
// (bit for bit, persistent bytes equal to TFLM's).
#include "tflm_arena/runtime/kernels/quantize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "golden/quantize_golden.h"
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

TEST(QuantizePersistent, OpDataSizeMatchesTflmOn64Bit) {
  if (sizeof(void*) != 8) GTEST_SKIP() << "figures measured on LP64";
  EXPECT_EQ(kQuantizePersistentBytes, 32u);
  EXPECT_EQ(Register_QUANTIZE().options.parse, nullptr);  // reads no options
}

// --- golden vectors from TFLM (golden/quantize_cases.py) ------------------------

using QuantizeGolden = GoldenTest;

template <typename InT, typename OutT>
void RunRequantize(const golden::Case& c) {
  const RequantizeParams p = MakeRequantizeParams(ScaleOf(c.input), ZeroPointOf(c.input),
                                                  ScaleOf(c.output), ZeroPointOf(c.output));
  std::vector<OutT> out(Count(c.output));
  Requantize(DataOf<InT>(c.input), Count(c.input), p, out.data());
  ExpectIdentical(c, out);
}

template <typename OutT>
void RunAffine(const golden::Case& c) {
  std::vector<OutT> out(Count(c.output));
  AffineQuantize(DataOf<float>(c.input), Count(c.input), ScaleOf(c.output), ZeroPointOf(c.output),
                 out.data());
  ExpectIdentical(c, out);
}

TEST_P(QuantizeGolden, MatchesTflm) {
  const golden::Case& c = GetParam();
  ExpectPersistent(kQuantizePersistentBytes, c);
  using TT = TensorType;
  const auto it = static_cast<TT>(c.input.type);
  const auto ot = static_cast<TT>(c.output.type);
  if (it == TT::kFloat32 && ot == TT::kInt8) return RunAffine<int8_t>(c);
  if (it == TT::kFloat32 && ot == TT::kInt16) return RunAffine<int16_t>(c);
  if (it == TT::kInt8 && ot == TT::kInt8) return RunRequantize<int8_t, int8_t>(c);
  if (it == TT::kInt8 && ot == TT::kUint8) return RunRequantize<int8_t, uint8_t>(c);
  if (it == TT::kInt8 && ot == TT::kInt16) return RunRequantize<int8_t, int16_t>(c);
  if (it == TT::kInt8 && ot == TT::kInt32) return RunRequantize<int8_t, int32_t>(c);
  if (it == TT::kInt16 && ot == TT::kInt8) return RunRequantize<int16_t, int8_t>(c);
  if (it == TT::kInt16 && ot == TT::kInt16) return RunRequantize<int16_t, int16_t>(c);
  if (it == TT::kInt16 && ot == TT::kInt32) return RunRequantize<int16_t, int32_t>(c);
  if (it == TT::kInt32 && ot == TT::kInt8) return RunRequantize<int32_t, int8_t>(c);
  if (it == TT::kInt32 && ot == TT::kInt16) return RunRequantize<int32_t, int16_t>(c);
  if (it == TT::kUint8 && ot == TT::kInt8) return RunRequantize<uint8_t, int8_t>(c);
  FAIL() << c.name << ": no QUANTIZE path for types " << c.input.type << " -> " << c.output.type;
}

INSTANTIATE_TEST_SUITE_P(Tflm, QuantizeGolden, ::testing::ValuesIn(golden::quantize::kCases),
                         GoldenName);

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
