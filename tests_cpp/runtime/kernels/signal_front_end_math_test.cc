// The Signal front end's arithmetic by hand (one test per operator; every
// operator's bit-exactness with TFLM is tests_py/test_kernel_signal.py's,
// against the wheel): window, auto-scale, energy, filter bank, square root,
// spectral subtraction, PCAN and log.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/runtime/kernels/signal_energy.h"
#include "tflm_arena/runtime/kernels/signal_fft_auto_scale.h"
#include "tflm_arena/runtime/kernels/signal_filter_bank.h"
#include "tflm_arena/runtime/kernels/signal_filter_bank_log.h"
#include "tflm_arena/runtime/kernels/signal_filter_bank_spectral_subtraction.h"
#include "tflm_arena/runtime/kernels/signal_filter_bank_square_root.h"
#include "tflm_arena/runtime/kernels/signal_pcan.h"
#include "tflm_arena/runtime/kernels/signal_window.h"

namespace tflm_arena {
namespace runtime {
namespace {

TEST(SignalWindowMath, ShiftsAndSaturates) {
  const int16_t in[] = {1000, -1000, 32767, -32768};
  const int16_t w[] = {4096, 4096, 32767, 32767};
  int16_t out[4];
  SignalWindowApply(in, w, 4, 12, out);
  EXPECT_EQ(out[0], 1000);
  EXPECT_EQ(out[1], -1000);
  EXPECT_EQ(out[2], 32767);  // 32767 * 32767 >> 12 saturates
  EXPECT_EQ(out[3], -32768);
  SignalWindowApply(in, w, 1, 0, out);
  EXPECT_EQ(out[0], 32767);  // 1000 * 4096 saturates
}

TEST(SignalFftAutoScaleMath, ScalesToTheTopBitAndKeepsTflmsQuirks) {
  const int16_t in[] = {100, -300, 7};
  int16_t out[3];
  // max |x| = 300: msb 9, shift 16 - 9 - 1 = 6.
  EXPECT_EQ(SignalFftAutoScale(in, 3, out), 6);
  EXPECT_EQ(out[1], -300 * 64);
  const int16_t zero[] = {0, 0};
  EXPECT_EQ(SignalFftAutoScale(zero, 2, out), 0);  // msb(0) is 32 on TFLM's GCC path
  const int16_t min[] = {5, -32768};
  EXPECT_EQ(SignalFftAutoScale(min, 2, out), 0);  // -(-32768) stays negative: msb 32
  EXPECT_EQ(SignalMostSignificantBit32(1), 1u);
  EXPECT_EQ(SignalMostSignificantBit64(uint64_t{1} << 40), 41u);
}

TEST(SignalEnergyMath, PowerInTheRangeOnly) {
  const int16_t spectrum[] = {3, 4, -32768, -32768, 1, 1};
  uint32_t out[3] = {7, 7, 7};
  SignalSpectrumToEnergy(spectrum, 1, 2, out);
  EXPECT_EQ(out[0], 7u);  // outside [start, end): untouched, as in TFLM
  EXPECT_EQ(out[1], 2147483648u);
  EXPECT_EQ(out[2], 7u);
  SignalSpectrumToEnergy(spectrum, 0, 1, out);
  EXPECT_EQ(out[0], 25u);
}

TEST(SignalFilterBankMath, AccumulatesWeightedAndCarriesTheUnweighted) {
  const int16_t starts[] = {0, 1, 3};
  const int16_t wstarts[] = {0, 1, 3};
  const int16_t widths[] = {1, 2, 1};
  const int16_t weights[] = {2, 3, -1, 5};
  const int16_t unweights[] = {1, 1, 1, 1};
  const uint32_t input[] = {10, 20, 30, 40};
  SignalFilterBankTables t;
  t.num_channels = 2;
  t.freq_starts = starts;
  t.weight_starts = wstarts;
  t.widths = widths;
  t.weights = weights;
  t.unweights = unweights;
  t.table_size = 3;
  t.weight_size = 4;
  t.input_size = 4;
  ASSERT_TRUE(SignalFilterBankCheck("SignalFilterBank", t).ok());
  uint64_t work[3];
  SignalFilterBankAccumulate(t, input, work);
  EXPECT_EQ(work[0], 20u);                // 2 * 10
  EXPECT_EQ(work[1], 10u + 3 * 20 - 30);  // carried 1 * 10, then 3 * 20 + (-1) * 30
  EXPECT_EQ(work[2], 20u + 30 + 5 * 40);  // carried 20 + 30, then 5 * 40
  t.input_size = 3;                       // channel 2 reads input[3]
  const Status s = SignalFilterBankCheck("SignalFilterBank", t);
  EXPECT_NE(std::string(s.message()).find("channel 2"), std::string::npos) << s.message();
  t.input_size = 4;
  t.table_size = 2;
  EXPECT_FALSE(SignalFilterBankCheck("SignalFilterBank", t).ok());
}

TEST(SignalSquareRootMath, RoundsAsTflm) {
  EXPECT_EQ(SignalSqrt32(0), 0);
  EXPECT_EQ(SignalSqrt32(16), 4);
  EXPECT_EQ(SignalSqrt32(20), 4);  // remainder 4 <= root 4: not rounded up
  EXPECT_EQ(SignalSqrt32(21), 5);  // remainder 5 > 4: up
  EXPECT_EQ(SignalSqrt32(0xFFFFFFFFu), 0xFFFF);
  EXPECT_EQ(SignalSqrt64(uint64_t{1} << 40), 1u << 20);
  EXPECT_EQ(SignalSqrt64(0xFFFFFFFFFFFFFFFFull), 0xFFFFFFFFu);
  for (uint64_t v : {uint64_t{123456789012}, uint64_t{5} << 50}) {
    const double r = std::sqrt(static_cast<double>(v));
    EXPECT_LE(std::fabs(SignalSqrt64(v) - r), 1.0) << v;
  }
  const uint64_t in[] = {1u << 20, 100};
  uint32_t out[2];
  SignalFilterBankSqrt(in, 2, 2, out);
  EXPECT_EQ(out[0], 256u);  // 1024 >> 2
  EXPECT_EQ(out[1], 2u);
}

TEST(SignalSpectralSubtractionMath, TracksNoiseAndKeepsTheFloor) {
  SignalSpectralSubtractionConfig c;
  c.num_channels = 2;
  c.smoothing = c.alternate_smoothing = 1 << 13;  // 0.5 in Q14
  c.one_minus_smoothing = c.alternate_one_minus_smoothing = 1 << 13;
  c.min_signal_remaining = 1 << 12;  // a quarter of the signal stays
  c.smoothing_bits = 2;
  c.spectral_subtraction_bits = 14;
  uint32_t noise[2] = {0, 0};
  const uint32_t in[] = {100, 8};
  uint32_t out[2];
  SignalSpectralSubtraction(c, in, out, noise);
  // s = 400: noise = (400 * 0.5 + 0) = 200; (400 - 200) >> 2 = 50 > floor 25
  EXPECT_EQ(noise[0], 200u);
  EXPECT_EQ(out[0], 50u);
  SignalSpectralSubtraction(c, in, out, noise);
  EXPECT_EQ(noise[0], 300u);  // 200 + 100
  EXPECT_EQ(out[0], 25u);     // (400 - 300) >> 2 = 25 = floor
}

TEST(SignalPcanMath, GainTableAndShrink) {
  std::vector<int16_t> lut(kSignalPcanLutEntries);
  for (size_t i = 0; i < lut.size(); ++i) lut[i] = static_cast<int16_t>(100 + i);
  EXPECT_EQ(SignalPcanGain(2, lut.data()), 102);  // x <= 2: lut[x]
  // x = 4: msb 3, row 4*3-6 = 6, frac (4 << 8) & 0x3FF = 0: gain lut[6].
  EXPECT_EQ(SignalPcanGain(4, lut.data()), 106);
  EXPECT_EQ(SignalPcanShrink(100), (100u * 100u) >> 20);
  EXPECT_EQ(SignalPcanShrink(8192), (8192u >> 6) - 64);
}

TEST(SignalLogMath, NaturalLogScaled) {
  // ln(x) * scale, to within the table's interpolation and rounding.
  for (uint32_t x : {2u, 3u, 10u, 1000u, 123456u, 0xFFFFFFFFu}) {
    const double want = std::log(static_cast<double>(x)) * 64;
    EXPECT_NEAR(SignalLog32(x, 64), want, 1.0) << x;
  }
  const uint32_t in[] = {0, 1, 2, 0xFFFFFFFFu};
  int16_t out[4];
  SignalFilterBankLog(in, 4, 1600, 0, out);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 0);  // s <= 1
  EXPECT_GT(out[2], 0);
  EXPECT_EQ(out[3], 32767);  // saturates
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
