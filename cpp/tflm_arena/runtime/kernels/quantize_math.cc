// QUANTIZE math (see quantize.h).
#include <algorithm>
#include <limits>

#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/quantize.h"

namespace tflm_arena {
namespace runtime {
namespace {

// (int32) round_half_away(v). Out-of-range and NaN give INT32_MIN, which is
// what the unguarded conversion in TFLM's reference produces on x86 (the
// host its golden data comes from); then the zero point is added with
// wrap-around, again as that build computes it.
// Computed without std::round (a libm call per element on x86-64): truncate,
// then step away from zero when the exact fraction v - trunc(v) reaches
// one half. Identical to (int32)std::round(v) with the range check for every
// float (checked exhaustively); round(v) lies in [-2^31, 2^31) exactly when
// v does, as no float lies within one half of those bounds.
inline int32_t RoundToInt32(float v) {
  if (!(v >= -2147483648.0f && v < 2147483648.0f)) return std::numeric_limits<int32_t>::min();
  const int32_t truncated = static_cast<int32_t>(v);
  const float fraction = v - static_cast<float>(truncated);  // exact
  return truncated + (fraction >= 0.5f ? 1 : 0) - (fraction <= -0.5f ? 1 : 0);
}

inline int32_t WrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

// a - b wrapped (an INT32 input's zero point may be INT32_MIN: no negation).
inline int32_t WrapSub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}

template <typename OutT>
void AffineQuantizeTyped(const float* input, size_t count, double scale, int32_t zero_point,
                         OutT* output) {
  constexpr int32_t kMin = std::numeric_limits<OutT>::min();
  constexpr int32_t kMax = std::numeric_limits<OutT>::max();
  const float fscale = static_cast<float>(scale);
  for (size_t i = 0; i < count; ++i) {
    const int32_t unclamped = WrapAdd(RoundToInt32(input[i] / fscale), zero_point);
    output[i] = static_cast<OutT>(std::min(std::max(unclamped, kMin), kMax));
  }
}

template <typename InT, typename OutT>
void RequantizeTyped(const InT* input, size_t count, const RequantizeParams& p, OutT* output) {
  constexpr int32_t kMin = std::numeric_limits<OutT>::min();
  constexpr int32_t kMax = std::numeric_limits<OutT>::max();
  for (size_t i = 0; i < count; ++i) {
    const int32_t centred = WrapSub(static_cast<int32_t>(input[i]), p.input_zero_point);
    const int32_t out =
        WrapAdd(MultiplyByQuantizedMultiplier(centred, p.multiplier, p.shift), p.output_zero_point);
    output[i] = static_cast<OutT>(std::max(std::min(out, kMax), kMin));
  }
}

}  // namespace

void AffineQuantize(const float* input, size_t count, double scale, int32_t zero_point,
                    int8_t* output) {
  AffineQuantizeTyped(input, count, scale, zero_point, output);
}
void AffineQuantize(const float* input, size_t count, double scale, int32_t zero_point,
                    int16_t* output) {
  AffineQuantizeTyped(input, count, scale, zero_point, output);
}

RequantizeParams MakeRequantizeParams(double input_scale, int32_t input_zero_point,
                                      double output_scale, int32_t output_zero_point) {
  RequantizeParams p;
  QuantizeMultiplier(input_scale / output_scale, &p.multiplier, &p.shift);
  p.input_zero_point = input_zero_point;
  p.output_zero_point = output_zero_point;
  return p;
}

void Requantize(const int8_t* input, size_t count, const RequantizeParams& p, int8_t* output) {
  RequantizeTyped(input, count, p, output);
}
void Requantize(const int8_t* input, size_t count, const RequantizeParams& p, uint8_t* output) {
  RequantizeTyped(input, count, p, output);
}
void Requantize(const int8_t* input, size_t count, const RequantizeParams& p, int16_t* output) {
  RequantizeTyped(input, count, p, output);
}
void Requantize(const int8_t* input, size_t count, const RequantizeParams& p, int32_t* output) {
  RequantizeTyped(input, count, p, output);
}
void Requantize(const int16_t* input, size_t count, const RequantizeParams& p, int8_t* output) {
  RequantizeTyped(input, count, p, output);
}
void Requantize(const int16_t* input, size_t count, const RequantizeParams& p, int16_t* output) {
  RequantizeTyped(input, count, p, output);
}
void Requantize(const int16_t* input, size_t count, const RequantizeParams& p, int32_t* output) {
  RequantizeTyped(input, count, p, output);
}
void Requantize(const int32_t* input, size_t count, const RequantizeParams& p, int8_t* output) {
  RequantizeTyped(input, count, p, output);
}
void Requantize(const int32_t* input, size_t count, const RequantizeParams& p, int16_t* output) {
  RequantizeTyped(input, count, p, output);
}
void Requantize(const uint8_t* input, size_t count, const RequantizeParams& p, int8_t* output) {
  RequantizeTyped(input, count, p, output);
}

}  // namespace runtime
}  // namespace tflm_arena
