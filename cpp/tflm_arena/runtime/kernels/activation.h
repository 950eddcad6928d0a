// Fused activations (RELU, RELU6, RELU_N1_TO_1) as clamp bounds, computed
// as TFLM's CalculateActivationRange / CalculateActivationRangeQuantized do.
//
// Facts:
//  - float: RELU -> [0, FLT_MAX], RELU6 -> [0, 6], RELU_N1_TO_1 -> [-1, 1];
//    NONE and every other activation (TANH, SIGN_BIT) -> [lowest, FLT_MAX],
//    i.e. no clamp. TFLM's conv / FC / add kernels silently ignore TANH and
//    SIGN_BIT; we do the same so results match.
//  - quantized: the type's range [qmin, qmax] intersected with the quantized
//    bounds, where q(f) = zero_point + (int32) round_half_away(f / scale),
//    f / scale evaluated in float. A q(f) outside int32 is an error.
//  - applying: min(max(x, lo), hi) (so NaN stays NaN for float).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_ACTIVATION_H_
#define TFLM_ARENA_RUNTIME_KERNELS_ACTIVATION_H_

#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace runtime {

// Float clamp bounds of a fused activation.
void FloatActivationRange(model::Activation activation, float* act_min, float* act_max);

// Integer clamp bounds of a fused activation for a quantized output of type
// `output_type` (INT8, UINT8 or INT16) with the given scale and zero point.
// kInvalidArgument for any other type or when a bound does not fit int32
// (e.g. scale 0).
Status QuantizedActivationRange(model::Activation activation, model::TensorType output_type,
                                float output_scale, int32_t output_zero_point, int32_t* act_min,
                                int32_t* act_max);

// TFLM's ActivationFunctionWithMinMax.
inline float ApplyActivation(float x, float act_min, float act_max) {
  const float lower = x < act_min ? act_min : x;  // std::max(x, act_min)
  return act_max < lower ? act_max : lower;       // std::min(lower, act_max)
}
inline int32_t ApplyActivation(int32_t x, int32_t act_min, int32_t act_max) {
  const int32_t lower = x < act_min ? act_min : x;
  return act_max < lower ? act_max : lower;
}

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_ACTIVATION_H_
