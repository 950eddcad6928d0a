// SignalRfft: kiss's factorisation and refusals, twiddles by hand, and the
// transform against a double-precision DFT (bit-exactness with TFLM is
// tests_py/test_kernel_signal.py's, against the wheel).
#include "tflm_arena/runtime/kernels/signal_rfft.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

namespace tflm_arena {
namespace runtime {
namespace {

std::vector<int32_t> Factors(int32_t fft_length) {
  int32_t f[kSignalRfftMaxFactors] = {};
  if (!SignalRfftFactor("SignalRfft", fft_length, f).ok()) return {};
  std::vector<int32_t> out;
  for (size_t i = 0; i < kSignalRfftMaxFactors && f[i] != 0; i += 2) out.push_back(f[i]);
  return out;
}

TEST(SignalRfftMath, FactorsAsKissDoes) {
  EXPECT_EQ(Factors(512), (std::vector<int32_t>{4, 4, 4, 4}));  // n = 256
  EXPECT_EQ(Factors(16), (std::vector<int32_t>{4, 2}));         // 4s first, then 2s
  EXPECT_EQ(Factors(12), (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(Factors(30), (std::vector<int32_t>{3, 5}));
  EXPECT_EQ(Factors(4), (std::vector<int32_t>{2}));
  EXPECT_EQ(Factors(96), (std::vector<int32_t>{4, 4, 3}));
}

TEST(SignalRfftMath, RefusesWhatTflmCannotRun) {
  int32_t f[kSignalRfftMaxFactors] = {};
  Status s = SignalRfftFactor("SignalRfft", 14, f);  // n = 7: generic radix
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("the factor 7"), std::string::npos) << s.message();
  EXPECT_FALSE(SignalRfftFactor("SignalRfft", 2, f).ok());   // n = 1
  EXPECT_FALSE(SignalRfftFactor("SignalRfft", 66, f).ok());  // n = 33 = 3 * 11
  EXPECT_FALSE(SignalRfftFactor("SignalRfft", 31, f).ok());  // odd
  EXPECT_FALSE(SignalRfftFactor("SignalRfft", -8, f).ok());
  EXPECT_FALSE(SignalRfftFactor("SignalRfft", kSignalRfftMaxLength * 2, f).ok());
}

struct Plan {
  explicit Plan(int32_t length)
      : twiddles(length / 2), super_twiddles(length / 4 + 1), spectrum(length / 2) {
    EXPECT_TRUE(SignalRfftFactor("SignalRfft", length, plan.factors).ok());
    plan.fft_length = length;
    plan.n = length / 2;
    plan.type = SignalRfftType::kInt16;
    plan.twiddles = twiddles.data();
    plan.super_twiddles = super_twiddles.data();
    plan.spectrum = spectrum.data();
    SignalRfftTwiddles(&plan);
  }
  SignalRfftPlan plan;
  std::vector<SignalComplex16> twiddles, super_twiddles, spectrum;
};

TEST(SignalRfftMath, TwiddlesAreRoundedQ15) {
  Plan p(16);  // n = 8: e^(-2 pi i k / 8)
  EXPECT_EQ(p.twiddles[0].r, 32767);
  EXPECT_EQ(p.twiddles[0].i, 0);
  EXPECT_EQ(p.twiddles[2].r, 0);
  EXPECT_EQ(p.twiddles[2].i, -32767);
  EXPECT_EQ(p.twiddles[1].r, 23170);  // floor(0.5 + 32767 / sqrt 2)
  EXPECT_EQ(p.twiddles[1].i, -23170);
  EXPECT_EQ(p.twiddles[4].r, -32767);
}

TEST(SignalRfftMath, IsTheDftDividedByTheLength) {
  for (int32_t length : {16, 12, 20, 30, 64, 96, 512}) {
    Plan p(length);
    std::vector<int16_t> x(static_cast<size_t>(length));
    for (int32_t t = 0; t < length; ++t) {
      x[static_cast<size_t>(t)] = static_cast<int16_t>(12000 * std::sin(2 * M_PI * 3 * t / length) +
                                                       5000 * std::cos(2 * M_PI * t / length));
    }
    std::vector<SignalComplex16> bins(static_cast<size_t>(length / 2 + 1));
    SignalRfftRow(p.plan, x.data(), bins.data());
    double worst = 0;
    for (int32_t k = 0; k <= length / 2; ++k) {
      std::complex<double> want = 0;
      for (int32_t t = 0; t < length; ++t) {
        want += static_cast<double>(x[static_cast<size_t>(t)]) *
                std::polar(1.0, -2 * M_PI * k * t / length);
      }
      want /= length;
      const auto& b = bins[static_cast<size_t>(k)];
      worst = std::fmax(worst, std::abs(std::complex<double>(b.r, b.i) - want));
    }
    EXPECT_LT(worst, 6.0) << "fft_length " << length;  // a few LSBs of stage rounding
  }
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
