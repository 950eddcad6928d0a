// Small arithmetic shared by the elementwise kernels (SUB, MUL, DIV):
// TFLM's int32 activation range and wrapping int32 arithmetic.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_ELEMENTWISE_UTIL_H_
#define TFLM_ARENA_RUNTIME_KERNELS_ELEMENTWISE_UTIL_H_

#include <cstdint>
#include <limits>

#include "tflm_arena/model/builtin_options.h"

namespace tflm_arena {
namespace runtime {

// TFLM's CalculateActivationRange<int32_t>: RELU [0, max], RELU6 [0, 6],
// RELU_N1_TO_1 [-1, 1], anything else the whole range.
inline void Int32ActivationRange(model::Activation activation, int32_t* lo, int32_t* hi) {
  *lo = std::numeric_limits<int32_t>::min();
  *hi = std::numeric_limits<int32_t>::max();
  if (activation == model::Activation::kRelu) {
    *lo = 0;
  } else if (activation == model::Activation::kRelu6) {
    *lo = 0;
    *hi = 6;
  } else if (activation == model::Activation::kReluN1To1) {
    *lo = -1;
    *hi = 1;
  }
}

// Two's-complement wrapping, where TFLM's int arithmetic would overflow
// (undefined there, wraps in practice).
inline int32_t WrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t WrapSub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
inline int32_t WrapMul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

inline int32_t Clamp32(int32_t x, int32_t lo, int32_t hi) {
  const int32_t lower = x < lo ? lo : x;
  return hi < lower ? hi : lower;
}

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_ELEMENTWISE_UTIL_H_
