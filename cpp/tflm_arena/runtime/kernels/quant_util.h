// Fixed-point helpers with TFLite's exact rounding rules (facts: a real
// multiplier M is stored as a Q31 mantissa and a power-of-two exponent;
// products use a saturating rounding doubling high multiply followed by a
// rounding right shift that rounds half away from zero).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_QUANT_UTIL_H_
#define TFLM_ARENA_RUNTIME_KERNELS_QUANT_UTIL_H_

#include <cstdint>
#include <limits>

namespace tflm_arena {
namespace runtime {

// Splits `real_multiplier` into a Q31 mantissa in [2^30, 2^31) (or 0) and a
// shift, such that real ~= mantissa * 2^(shift - 31).
void QuantizeMultiplier(double real_multiplier, int32_t* quantized_multiplier, int* shift);

// High 32 bits of 2*a*b with rounding to nearest; saturates INT32_MIN^2.
inline int32_t SaturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  const bool overflow = a == b && a == std::numeric_limits<int32_t>::min();
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int32_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  const int32_t high = static_cast<int32_t>((ab + nudge) / (1LL << 31));
  return overflow ? std::numeric_limits<int32_t>::max() : high;
}

// x / 2^exponent, rounding half away from zero (exponent in [0, 31]).
inline int32_t RoundingDivideByPOT(int32_t x, int exponent) {
  const int32_t mask = static_cast<int32_t>((1LL << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// x * M where M = (quantized_multiplier, shift) from QuantizeMultiplier;
// shift in [-31, 31] (prepare checks it: CheckedQuantizeMultiplier). TFLM
// forms x * 2^left_shift in int, which overflows for large x; it wraps in
// practice, so we wrap explicitly (in uint32) to keep the same bits
// without undefined behaviour.
inline int32_t MultiplyByQuantizedMultiplier(int32_t x, int32_t quantized_multiplier, int shift) {
  const int left_shift = shift > 0 ? shift : 0;
  const int right_shift = shift > 0 ? 0 : -shift;
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left_shift);
  return RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(shifted, quantized_multiplier),
                             right_shift);
}

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_QUANT_UTIL_H_
