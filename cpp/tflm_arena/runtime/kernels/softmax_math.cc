// Softmax math (see softmax.h for the rules reproduced).
//
// Fixed-point notation: "Qk" is an int32 with k integer bits and 31 - k
// fractional bits. A product of Qa and Qb is the saturating rounding
// doubling high multiply of the raws and is Q(a+b). Additions wrap (done in
// uint32 so the wrap is well defined).
#include <algorithm>
#include <cmath>
#include <limits>

#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/softmax.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr int kScaledDiffIntegerBits = 5;     // exp input: Q5.26
constexpr int kAccumulationIntegerBits = 12;  // sum of exps: Q12.19

inline int32_t Add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t Sub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
inline int32_t Mul(int32_t a, int32_t b) { return SaturatingRoundingDoublingHighMul(a, b); }

// x * 2^exponent with saturation for exponent > 0 (values beyond
// +/-(2^(31-exponent) - 1) saturate), rounding division for exponent < 0.
inline int32_t SaturatingRoundingMulByPOT(int32_t x, int exponent) {
  if (exponent == 0) return x;
  if (exponent < 0) return RoundingDivideByPOT(x, -exponent);
  const int32_t threshold = static_cast<int32_t>((int64_t{1} << (31 - exponent)) - 1);
  if (x > threshold) return std::numeric_limits<int32_t>::max();
  if (x < -threshold) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

// (a + b) / 2 rounded half away from zero, without overflow.
inline int32_t RoundingHalfSum(int32_t a, int32_t b) {
  const int64_t sum = static_cast<int64_t>(a) + static_cast<int64_t>(b);
  const int64_t sign = sum >= 0 ? 1 : -1;
  return static_cast<int32_t>((sum + sign) / 2);
}

inline int CountLeadingZeros32(uint32_t x) {
  if (x == 0) return 32;
  int n = 0;
  while ((x & 0x80000000u) == 0) {
    x <<= 1;
    ++n;
  }
  return n;
}

// MultiplyByQuantizedMultiplierGreaterThanOne: SRDHM(x * 2^shift, m). The
// product x * 2^shift is formed in 64 bits and wrapped to 32 (it fits for
// every difference the kernel lets through).
inline int32_t ScaleDiff(int32_t diff, int32_t multiplier, int32_t left_shift) {
  const int64_t shifted = static_cast<int64_t>(diff) * (int64_t{1} << left_shift);
  return Mul(static_cast<int32_t>(static_cast<uint32_t>(shifted)), multiplier);
}

// exp(scaled diff) in Q0.31 for every int8 difference diff = x - row max in
// [-255, 0], indexed by -diff; differences below diff_min contribute 0 (and
// give the output minimum). The value depends on the difference only, so
// the table (1 KiB on the stack, built per invoke: no arena bytes) replaces
// TFLM's two exp evaluations per element with 256 in all.
struct Int8ExpTable {
  static constexpr int32_t kBelowMin = 0;  // never an exp value (those are > 0)
  Int8ExpTable(const SoftmaxInt8Params& params, int32_t entries) {
    for (int32_t k = 0; k < entries; ++k) {
      const int32_t diff = -k;
      exp_q0[k] = diff >= params.diff_min
                      ? SoftmaxExpOnNegativeValuesQ5(
                            ScaleDiff(diff, params.input_multiplier, params.input_left_shift))
                      : kBelowMin;
    }
  }
  int32_t exp_q0[256];
};

template <typename OutT>
void SoftmaxFromInt8(const SoftmaxInt8Params& params, int32_t outer, int32_t depth,
                     const int8_t* input, OutT* output) {
  constexpr int32_t kOutMin = std::numeric_limits<OutT>::min();
  constexpr int32_t kOutMax = std::numeric_limits<OutT>::max();
  constexpr int kOutBits = static_cast<int>(sizeof(OutT) * 8);
  // Building the table costs 256 exps; a tiny tensor needs fewer.
  const int64_t elements = static_cast<int64_t>(outer) * depth;
  const int32_t entries = elements >= 128 ? 256 : 0;
  const Int8ExpTable table(params, entries);
  const int32_t diff_min = params.diff_min;
  const int32_t input_multiplier = params.input_multiplier;
  const int32_t input_left_shift = params.input_left_shift;
  auto exp_of = [&](int32_t diff) {  // diff >= diff_min
    return entries != 0
               ? table.exp_q0[-diff]
               : SoftmaxExpOnNegativeValuesQ5(ScaleDiff(diff, input_multiplier, input_left_shift));
  };
  for (int32_t row = 0; row < outer; ++row) {
    const int8_t* in = input + static_cast<size_t>(row) * depth;
    OutT* out = output + static_cast<size_t>(row) * depth;
    int32_t max_in_row = std::numeric_limits<int8_t>::min();
    for (int32_t c = 0; c < depth; ++c) max_in_row = std::max<int32_t>(max_in_row, in[c]);

    int32_t sum_of_exps = 0;  // Q12.19
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t diff = static_cast<int32_t>(in[c]) - max_in_row;
      if (diff >= diff_min) {
        sum_of_exps =
            Add(sum_of_exps, SaturatingRoundingMulByPOT(exp_of(diff), -kAccumulationIntegerBits));
      }
    }

    int bits_over_unit = 0;
    const int32_t reciprocal =
        SoftmaxReciprocal(sum_of_exps, kAccumulationIntegerBits, &bits_over_unit);
    int exponent = bits_over_unit + 31 - kOutBits;
    // TFLM CHECKs 0 <= exponent <= 31; keep the shift defined regardless.
    exponent = std::min(std::max(exponent, 0), 31);

    for (int32_t c = 0; c < depth; ++c) {
      const int32_t diff = static_cast<int32_t>(in[c]) - max_in_row;
      if (diff >= diff_min) {
        const int32_t unsat = RoundingDivideByPOT(Mul(reciprocal, exp_of(diff)), exponent);
        const int32_t shifted = unsat + kOutMin;
        out[c] = static_cast<OutT>(std::max(std::min(shifted, kOutMax), kOutMin));
      } else {
        out[c] = static_cast<OutT>(kOutMin);
      }
    }
  }
}

}  // namespace

bool PrepareSoftmaxInt8Params(double beta, double input_scale, SoftmaxInt8Params* params) {
  const double max_real = static_cast<double>((int64_t{1} << 31) - 1);
  const double real = std::min(
      beta * input_scale * static_cast<double>(1 << (31 - kScaledDiffIntegerBits)), max_real);
  if (!(real > 1.0)) return false;
  int32_t multiplier = 0;
  int shift = 0;
  QuantizeMultiplier(real, &multiplier, &shift);
  if (shift < 0) return false;
  params->input_multiplier = multiplier;
  params->input_left_shift = shift;
  // Largest |difference| whose scaled value stays within Q5.26.
  const double radius = 1.0 * ((1 << kScaledDiffIntegerBits) - 1) *
                        static_cast<double>(int64_t{1} << (31 - kScaledDiffIntegerBits)) /
                        static_cast<double>(int64_t{1} << shift);
  params->diff_min = -static_cast<int32_t>(std::floor(radius));
  return true;
}

void PrepareSoftmaxInt16Multiplier(double beta, double input_scale, SoftmaxInt16Params* params) {
  const double real = input_scale * beta / (10.0 / 65535.0);
  int32_t multiplier = 0;
  int shift = 0;
  QuantizeMultiplier(real, &multiplier, &shift);
  params->input_multiplier = multiplier;
  params->input_left_shift = shift;
}

int32_t SoftmaxExpOnQuarterInterval(int32_t a) {
  // Taylor expansion around -1/8: x = a + 1/8, exp(a) = exp(-1/8) *
  // (1 + x + x^2/2 + x^3/6 + x^4/24).
  constexpr int32_t kExpMinusOneEighth = 1895147668;  // exp(-1/8) in Q0.31
  constexpr int32_t kOneThird = 715827883;            // 1/3 in Q0.31
  const int32_t x = Add(a, int32_t{1} << 28);
  const int32_t x2 = Mul(x, x);
  const int32_t x3 = Mul(x2, x);
  const int32_t x4 = Mul(x2, x2);
  const int32_t x4_over_4 = SaturatingRoundingMulByPOT(x4, -2);
  const int32_t poly = SaturatingRoundingMulByPOT(Add(Mul(Add(x4_over_4, x3), kOneThird), x2), -1);
  return Add(kExpMinusOneEighth, Mul(kExpMinusOneEighth, Add(x, poly)));
}

int32_t SoftmaxExpOnNegativeValuesQ5(int32_t a) {
  constexpr int kIntegerBits = kScaledDiffIntegerBits;
  constexpr int kFractionalBits = 31 - kIntegerBits;
  constexpr int32_t kOneQuarter = int32_t{1} << (kFractionalBits - 2);
  const int32_t mask = kOneQuarter - 1;
  // a = (a mod 1/4) - 1/4 + (multiple of -1/4 held in `remainder`).
  const int32_t a_mod_quarter_minus_quarter = Sub(a & mask, kOneQuarter);
  int32_t result = SoftmaxExpOnQuarterInterval(
      SaturatingRoundingMulByPOT(a_mod_quarter_minus_quarter, kIntegerBits));
  const int32_t remainder = Sub(a_mod_quarter_minus_quarter, a);
  // exp(-2^k) for k = -2 .. 4, applied for each set bit of the remainder.
  struct Step {
    int exponent;
    int32_t multiplier;
  };
  constexpr Step kSteps[] = {{-2, 1672461947}, {-1, 1302514674}, {0, 790015084}, {1, 290630308},
                             {2, 39332535},    {3, 720401},      {4, 242}};
  for (const Step& s : kSteps) {
    if (kIntegerBits > s.exponent) {
      const int shift = kFractionalBits + s.exponent;
      if (remainder & (int32_t{1} << shift)) result = Mul(result, s.multiplier);
    }
  }
  // (With 5 integer bits no clamp below -32 is needed.)
  if (a == 0) result = std::numeric_limits<int32_t>::max();
  return result;
}

int32_t SoftmaxOneOverOnePlusX(int32_t a) {
  // Newton-Raphson on the half denominator d = (1 + a) / 2 in [1/2, 1):
  // x0 = 48/17 - 32/17 * d, x <- x + x * (1 - d * x), three times; x ~ 1/d
  // (Q2.29); the result 1/(1+a) = x / 2.
  constexpr int32_t kOneQ2 = int32_t{1} << 29;
  constexpr int32_t k48Over17 = 1515870810;      // Q2.29
  constexpr int32_t kNeg32Over17 = -1010580540;  // Q2.29
  const int32_t half_denominator = RoundingHalfSum(a, std::numeric_limits<int32_t>::max());
  int32_t x = Add(k48Over17, Mul(half_denominator, kNeg32Over17));
  for (int i = 0; i < 3; ++i) {
    const int32_t half_denominator_times_x = Mul(half_denominator, x);
    const int32_t one_minus = Sub(kOneQ2, half_denominator_times_x);
    x = Add(x, SaturatingRoundingMulByPOT(Mul(x, one_minus), 2));
  }
  // x as Q1.30 is x / 2; rescale Q1 -> Q0.
  return SaturatingRoundingMulByPOT(x, 1);
}

int32_t SoftmaxReciprocal(int32_t x, int x_integer_bits, int* num_bits_over_unit) {
  const int headroom_plus_one = CountLeadingZeros32(static_cast<uint32_t>(x));
  *num_bits_over_unit = x_integer_bits - headroom_plus_one;
  if (headroom_plus_one >= 32) return std::numeric_limits<int32_t>::max();  // x == 0
  const int32_t shifted_sum_minus_one =
      static_cast<int32_t>((static_cast<uint32_t>(x) << headroom_plus_one) - (uint32_t{1} << 31));
  return SoftmaxOneOverOnePlusX(shifted_sum_minus_one);
}

int16_t SoftmaxLutLookup(int16_t value, const int16_t* lut) {
  // 9 high bits index one of 512 segments, the low 7 bits interpolate.
  const uint16_t index = static_cast<uint16_t>(256 + (value >> 7));
  const int16_t offset = static_cast<int16_t>(value & 0x7f);
  const int16_t base = lut[index];
  const int16_t slope = static_cast<int16_t>(lut[index + 1] - lut[index]);
  const int delta = (slope * offset + 64) >> 7;
  return static_cast<int16_t>(base + delta);
}

namespace {

// TFLM's gen_lut<float, int16_t, int16_t> with output range [-1, 1]: 512
// segments over [in_min, in_max], each value biased by half the midpoint
// interpolation error, plus one final entry at in_max.
template <typename Func>
void GenerateInt16Lut(Func func, float in_min, float in_max, int16_t* lut) {
  constexpr int kSteps = 512;
  const float out_min = -1.0f;
  const float out_max = 1.0f;
  const float step = (in_max - in_min) / kSteps;
  const float half_step = step / 2;
  const float scaling_inv = static_cast<float>(32767 - (-32768) + 1) / (out_max - out_min);
  const float table_min = -32768.0f;
  const float table_max = 32767.0f;
  for (int i = 0; i < kSteps; ++i) {
    const float x = static_cast<float>(i);  // exact: i < kSteps
    const float val = func(in_min + x * step);
    const float val_midpoint = func(in_min + x * step + half_step);
    const float val_next = func(in_min + (x + 1) * step);
    const float sample = std::round(val * scaling_inv);
    const float midpoint_interp =
        std::round((val_next * scaling_inv + std::round(val * scaling_inv)) / 2);
    const float midpoint = std::round(val_midpoint * scaling_inv);
    const float midpoint_err = midpoint_interp - midpoint;
    const float bias = std::round(midpoint_err / 2);
    lut[i] = static_cast<int16_t>(std::min(std::max(sample - bias, table_min), table_max));
  }
  lut[kSteps] = static_cast<int16_t>(
      std::min(std::max(std::round(func(in_max) * scaling_inv), table_min), table_max));
}

}  // namespace

void GenerateSoftmaxInt16Luts(int16_t* exp_lut, int16_t* one_over_one_plus_x_lut) {
  GenerateInt16Lut([](float v) -> float { return std::exp(v); }, -10.0f, 0.0f, exp_lut);
  GenerateInt16Lut([](float v) -> float { return 1.0f / (1.0f + v); }, 0.0f, 1.0f,
                   one_over_one_plus_x_lut);
}

void SoftmaxFloat(float beta, int32_t outer, int32_t depth, const float* input, float* output) {
  for (int32_t row = 0; row < outer; ++row) {
    const float* in = input + static_cast<size_t>(row) * depth;
    float* out = output + static_cast<size_t>(row) * depth;
    float max = std::numeric_limits<float>::lowest();
    for (int32_t c = 0; c < depth; ++c) max = std::max(max, in[c]);
    float sum = 0.0f;
    for (int32_t c = 0; c < depth; ++c) {
      const float e = std::exp((in[c] - max) * beta);
      out[c] = e;
      sum += e;
    }
    for (int32_t c = 0; c < depth; ++c) out[c] = out[c] / sum;
  }
}

void SoftmaxInt8(const SoftmaxInt8Params& params, int32_t outer, int32_t depth, const int8_t* input,
                 int8_t* output) {
  SoftmaxFromInt8<int8_t>(params, outer, depth, input, output);
}

void SoftmaxInt8ToInt16(const SoftmaxInt8Params& params, int32_t outer, int32_t depth,
                        const int8_t* input, int16_t* output) {
  SoftmaxFromInt8<int16_t>(params, outer, depth, input, output);
}

void SoftmaxInt16(const SoftmaxInt16Params& params, int32_t outer, int32_t depth,
                  const int16_t* input, int16_t* output) {
  for (int32_t row = 0; row < outer; ++row) {
    const int16_t* in = input + static_cast<size_t>(row) * depth;
    int16_t* out = output + static_cast<size_t>(row) * depth;
    int16_t max_in_row = std::numeric_limits<int16_t>::min();
    for (int32_t c = 0; c < depth; ++c) max_in_row = std::max(max_in_row, in[c]);

    // exp(x - max) in Q0.15, cached in the output; sum in Q16.15.
    int32_t sum_of_exps = 0;
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t diff = static_cast<int32_t>(in[c]) - max_in_row;
      const int32_t scaled =
          MultiplyByQuantizedMultiplier(diff, params.input_multiplier, params.input_left_shift);
      const int32_t centred = scaled + 32767;  // [-65535, 0] -> [-32768, 32767]
      const int16_t clamped =
          static_cast<int16_t>(std::min<int32_t>(std::max<int32_t>(centred, -32768), 32767));
      out[c] = SoftmaxLutLookup(clamped, params.exp_lut);
      sum_of_exps += out[c];
    }

    // 1 / sum via the 1/(1+x) table on the sum normalised to [1, 2).
    const int headroom_plus_one = CountLeadingZeros32(static_cast<uint32_t>(sum_of_exps));
    const int32_t shifted_sum = static_cast<int32_t>(
        ((static_cast<int64_t>(sum_of_exps) << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
    const int32_t centred_sum = shifted_sum - ((1 << 15) + (1 << 16));
    const int16_t clamped_sum =
        static_cast<int16_t>(std::min<int32_t>(std::max<int32_t>(centred_sum, -32768), 32767));
    const int16_t reciprocal = SoftmaxLutLookup(clamped_sum, params.one_over_one_plus_x_lut);

    const int right_shift = 31 - headroom_plus_one;
    // The row's maximum maps to exp(0) = 32767 in exp_lut, so sum_of_exps >= 32767,
    // headroom_plus_one <= 17 and right_shift >= 14.
    // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
    const int64_t round = int64_t{1} << (right_shift - 1);
    for (int32_t c = 0; c < depth; ++c) {
      const int32_t result = static_cast<int32_t>(
          (static_cast<int64_t>(out[c]) * static_cast<int64_t>(reciprocal) + round) >> right_shift);
      out[c] = static_cast<int16_t>(std::min<int32_t>(std::max<int32_t>(result, 0), 32767));
    }
  }
}

}  // namespace runtime
}  // namespace tflm_arena
