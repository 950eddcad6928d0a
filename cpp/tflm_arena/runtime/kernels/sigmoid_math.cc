// LOGISTIC / TANH: prepare logic and math (glue in logistic.cc, tanh.cc).
#include <cmath>
#include <cstdlib>
#include <limits>

#include "tflm_arena/runtime/kernels/elementwise_util.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/sigmoid.h"
#include "tflm_arena/runtime/kernels/sigmoid_lut.h"
#include "tflm_arena/runtime/kernels/softmax.h"  // SoftmaxExpOnQuarterInterval, ...
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();

inline int32_t FpMul(int32_t a, int32_t b) { return SaturatingRoundingDoublingHighMul(a, b); }

// x * 2^exponent, saturating (exponent > 0) or rounding (exponent < 0).
int32_t SaturatingRoundingMulByPOT(int32_t x, int exponent) {
  if (exponent == 0) return x;
  if (exponent < 0) return RoundingDivideByPOT(x, -exponent);
  const int64_t limit = int64_t{1} << (31 - exponent);
  if (x >= limit) return kInt32Max;
  if (x < -limit) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(static_cast<uint32_t>(x) << exponent);
}

// (a + b) / 2 rounded half away from zero (gemmlowp's RoundingHalfSum).
int32_t RoundingHalfSum(int32_t a, int32_t b) {
  const int64_t sum = static_cast<int64_t>(a) + b;
  return static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
}

// (1 - a) / (1 + a) for a in [0, 1) (Q0.31): Newton-Raphson on the half
// denominator, as gemmlowp's one_minus_x_over_one_plus_x_for_x_in_0_1.
int32_t OneMinusXOverOnePlusX(int32_t a) {
  constexpr int32_t kOneQ2 = int32_t{1} << 29;
  constexpr int32_t k48Over17 = 1515870810;      // Q2.29
  constexpr int32_t kNeg32Over17 = -1010580540;  // Q2.29
  const int32_t half_denominator = RoundingHalfSum(a, kInt32Max);
  int32_t x = WrapAdd(k48Over17, FpMul(half_denominator, kNeg32Over17));
  for (int i = 0; i < 3; ++i) {
    const int32_t one_minus = WrapSub(kOneQ2, FpMul(half_denominator, x));
    x = WrapAdd(x, SaturatingRoundingMulByPOT(FpMul(x, one_minus), 2));
  }
  return SaturatingRoundingMulByPOT(WrapSub(x, kOneQ2), 2);
}

// TFLM's CheckedLog2: log2 in float, rounded half away from zero; true
// when within 1e-3 of an integer.
bool CheckedLog2(float x, int* log2_result) {
  const float x_log2 = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(x_log2);
  *log2_result = static_cast<int>(rounded);
  return std::fabs(x_log2 - rounded) < 1e-3f;
}

template <SigmoidKind kKind>
void QuantizedInt8(const SigmoidOpData& d, size_t n, const int8_t* in, int8_t* out) {
  constexpr int kInputIntegerBits = 4;
  for (size_t i = 0; i < n; ++i) {
    const int32_t x = static_cast<int32_t>(in[i]) - d.input_zero_point;
    if (x <= -d.input_range_radius) {
      out[i] = -128;
    } else if (x >= d.input_range_radius) {
      out[i] = 127;
    } else {
      const int32_t q4 = MultiplyByQuantizedMultiplier(x, d.input_multiplier, d.input_left_shift);
      int32_t y;
      if (kKind == SigmoidKind::kLogistic) {
        y = RoundingDivideByPOT(FixedPointLogistic(q4, kInputIntegerBits), 23) - 128;
      } else {
        y = RoundingDivideByPOT(FixedPointTanh(q4, kInputIntegerBits), 24);
      }
      out[i] = static_cast<int8_t>(Clamp32(y, -128, 127));
    }
  }
}

// Table interpolation of TFLM's int16 kernels; `kTanh` selects the tanh
// variant (8 fractional table bits instead of 9, symmetric output).
template <SigmoidKind kKind>
void QuantizedInt16(const SigmoidOpData& d, size_t n, const int16_t* in, int16_t* out) {
  int32_t multiplier = d.input_multiplier;
  int32_t shift = d.input_left_shift;
  if (multiplier == 0) {  // power-of-two input scale
    multiplier = 3 << shift;
    shift = 0;
  }
  const int32_t round = shift > 0 ? int32_t{1} << (shift - 1) : 0;
  for (size_t i = 0; i < n; ++i) {
    // |in| * multiplier <= 32768 * 32767: fits int32 (prepare caps it).
    const int32_t x = (in[i] * multiplier + round) >> shift;
    out[i] = kKind == SigmoidKind::kLogistic ? SigmoidLutInt16(x) : TanhLutInt16(x);
  }
}

Status PrepareInt8(const char* op, SigmoidKind kind, const model::TensorInfo& input,
                   const model::TensorInfo& output, SigmoidOpData* d) {
  if (kind == SigmoidKind::kLogistic && TensorZeroPoint(output) != -128) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: INT8 output zero point must be -128, got %d", op,
                         TensorZeroPoint(output));
  }
  // M = in_scale * 2^27 as a Q31 mantissa and a left shift (frexp).
  const double real = static_cast<double>(TensorScale(input)) * static_cast<double>(1 << 27);
  int shift = 0;
  const double mantissa = std::frexp(real, &shift);
  // Our fixed-point multiply takes left shifts up to 30 (TFLM forms
  // x * (1 << shift) in int): input scales in [2^-27, 8).
  if (shift < 0 || shift > 30) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: input scale %g outside [2^-27, 8) for INT8", op,
                         static_cast<double>(TensorScale(input)));
  }
  d->input_zero_point = TensorZeroPoint(input);
  d->input_multiplier = static_cast<int32_t>(std::round(mantissa * 2147483648.0));
  d->input_left_shift = shift;
  // TFLM's CalculateInputRadius(4, shift, 31).
  d->input_range_radius = static_cast<int32_t>(std::floor(
      15.0 * static_cast<double>(int64_t{1} << 27) / static_cast<double>(int64_t{1} << shift)));
  return Status::Ok();
}

Status PrepareInt16(const char* op, SigmoidKind kind, const model::TensorInfo& input,
                    const model::TensorInfo& output, SigmoidOpData* d) {
  TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(op, "input", input));
  TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(op, "output", output));
  constexpr int kInputIntegerBits = 3;
  int log2_in = 0;
  bool pot = CheckedLog2(TensorScale(input), &log2_in);
  int shift = (15 - kInputIntegerBits) + log2_in;
  pot = pot && (shift == 0 || (kind == SigmoidKind::kTanh && shift == 1));
  int32_t multiplier = 0;
  if (!pot) {
    // Rescale the input to 1 / (3 * 4096) steps: +-2^17 is +-10.7.
    double m = static_cast<double>(TensorScale(input)) * 4096.0 * 3.0;
    shift = 0;
    while (m <= 32767.0 / 2.0 && shift <= 30) {
      ++shift;
      m *= 2.0;
    }
    if (m > 32767.0) {  // TFLM DCHECKs this; beyond it the products overflow
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: INT16 input scale %g too large (multiplier %g > 32767)", op,
                           static_cast<double>(TensorScale(input)), m);
    }
    multiplier = static_cast<int32_t>(m);
  }
  int log2_out = 0;
  if (!CheckedLog2(TensorScale(output), &log2_out) || log2_out != -15) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: INT16 output scale must be 2^-15, got %g", op,
                         static_cast<double>(TensorScale(output)));
  }
  d->input_zero_point = 0;
  d->input_range_radius = 0;
  d->input_multiplier = multiplier;
  d->input_left_shift = shift;
  return Status::Ok();
}

}  // namespace

int32_t FixedPointExpOnNegativeValues(int32_t a, int integer_bits) {
  const int fractional_bits = 31 - integer_bits;
  const int32_t one_quarter = int32_t{1} << (fractional_bits - 2);
  const int32_t mask = one_quarter - 1;
  const int32_t a_mod_quarter_minus_quarter = WrapSub(a & mask, one_quarter);
  int32_t result = SoftmaxExpOnQuarterInterval(
      SaturatingRoundingMulByPOT(a_mod_quarter_minus_quarter, integer_bits));
  const int32_t remainder = WrapSub(a_mod_quarter_minus_quarter, a);
  // exp(-2^k) in Q0.31 for k = -2 .. 4 (gemmlowp's barrel shifter).
  constexpr int32_t kExpNegPow2[7] = {1672461947, 1302514674, 790015084, 290630308,
                                      39332535,   720401,     242};
  for (int k = -2; k <= 4; ++k) {
    if (integer_bits > k) {
      const int bit = fractional_bits + k;
      if (bit < 31 && (remainder & (int32_t{1} << bit)) != 0) {
        result = FpMul(result, kExpNegPow2[k + 2]);
      }
    }
  }
  if (integer_bits > 5 && a < -(int32_t{1} << (fractional_bits + 5))) result = 0;
  return a == 0 ? kInt32Max : result;
}

int32_t FixedPointLogistic(int32_t a, int integer_bits) {
  if (a == 0) return int32_t{1} << 30;  // one half
  // 1 / (1 + exp(-|a|)); for a < 0 the complement 1 - that.
  const int32_t negative_abs = a > 0 ? -a : a;
  const int32_t positive =
      SoftmaxOneOverOnePlusX(FixedPointExpOnNegativeValues(negative_abs, integer_bits));
  return a > 0 ? positive : WrapSub(kInt32Max, positive);
}

int32_t FixedPointTanh(int32_t a, int integer_bits) {
  if (a == 0) return 0;
  const int32_t n = a < 0 ? a : -a;
  // -tanh(n) = (1 - exp(2n)) / (1 + exp(2n)); 2n keeps the raw value with
  // one more integer bit.
  const int32_t t = OneMinusXOverOnePlusX(FixedPointExpOnNegativeValues(n, integer_bits + 1));
  return a < 0 ? -t : t;
}

Status PrepareSigmoid(const char* op, SigmoidKind kind, const model::TensorInfo& input,
                      const model::TensorInfo& output, SigmoidOpData* data) {
  const TensorType type = input.type;
  const bool supported =
      type == TensorType::kFloat32 || type == TensorType::kInt8 || type == TensorType::kInt16;
  if (!supported || output.type != type) {
    return Status::Error(StatusCode::kUnimplemented, "%s: input %s, output %s not supported", op,
                         model::TensorTypeName(type), model::TensorTypeName(output.type));
  }
  SigmoidOpData d;
  if (type != TensorType::kFloat32) {
    TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(op, "input", input));
    TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(op, "output", output));
    TFLM_ARENA_RETURN_IF_ERROR(type == TensorType::kInt8
                                   ? PrepareInt8(op, kind, input, output, &d)
                                   : PrepareInt16(op, kind, input, output, &d));
  }
  *data = d;
  return Status::Ok();
}

void LogisticFloat(size_t n, const float* in, float* out) {
  const float cutoff_upper = 16.619047164916992188f;
  const float cutoff_lower = -9.0f;
  for (size_t i = 0; i < n; ++i) {
    const float v = in[i];
    out[i] = v > cutoff_upper   ? 1.0f
             : v < cutoff_lower ? std::exp(v)
                                : 1.0f / (1.0f + std::exp(-v));
  }
}

void LogisticInt8(const SigmoidOpData& data, size_t n, const int8_t* in, int8_t* out) {
  QuantizedInt8<SigmoidKind::kLogistic>(data, n, in, out);
}

void LogisticInt16(const SigmoidOpData& data, size_t n, const int16_t* in, int16_t* out) {
  QuantizedInt16<SigmoidKind::kLogistic>(data, n, in, out);
}

void TanhFloat(size_t n, const float* in, float* out) {
  for (size_t i = 0; i < n; ++i) out[i] = std::tanh(in[i]);
}

void TanhInt8(const SigmoidOpData& data, size_t n, const int8_t* in, int8_t* out) {
  QuantizedInt8<SigmoidKind::kTanh>(data, n, in, out);
}

void TanhInt16(const SigmoidOpData& data, size_t n, const int16_t* in, int16_t* out) {
  QuantizedInt16<SigmoidKind::kTanh>(data, n, in, out);
}

}  // namespace runtime
}  // namespace tflm_arena
