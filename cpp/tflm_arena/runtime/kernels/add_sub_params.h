// ADD / SUB int8 / int16 parameters, computed alike by TFLM (both rescale
// the two inputs to twice the larger input scale, shifted left by 20 or 15
// bits): one definition for add_math.cc and sub_math.cc.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_ADD_SUB_PARAMS_H_
#define TFLM_ARENA_RUNTIME_KERNELS_ADD_SUB_PARAMS_H_

#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/runtime/kernels/quant_util.h"

namespace tflm_arena {
namespace runtime {

// TFLM's QuantizeMultiplierSmallerThanOneExp: real in (0, 1), shift in
// [min_shift, 0].
inline bool QuantizeSmallerThanOne(double real, int min_shift, int32_t* multiplier,
                                   int32_t* shift) {
  if (!(real > 0.0 && real < 1.0)) return false;
  int s = 0;
  QuantizeMultiplier(real, multiplier, &s);
  *shift = s;
  return s <= 0 && s >= min_shift;
}

// Fills the offsets, left shift and the three multipliers of `params` (an
// AddParams or SubOpData: same field names) for the int16 or int8 type;
// kInvalidArgument naming `op` when a zero point is outside the type (then
// the shifted inputs could overflow int32) or a multiplier is outside (0, 1)
// or its shift below `min_shift`.
template <typename Params>
Status AddSubQuantizedParams(const char* op, bool is_int16, float scale1, int32_t zero_point1,
                             float scale2, int32_t zero_point2, float output_scale,
                             int32_t output_zero_point, int min_shift, Params* params) {
  const int32_t lo = is_int16 ? -32768 : -128;
  const int32_t hi = is_int16 ? 32767 : 127;
  if (zero_point1 < lo || zero_point1 > hi || zero_point2 < lo || zero_point2 > hi) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: input zero points %d, %d outside [%d, %d]", op, zero_point1,
                         zero_point2, lo, hi);
  }
  params->input1_offset = -zero_point1;
  params->input2_offset = -zero_point2;
  params->output_offset = output_zero_point;
  params->left_shift = is_int16 ? 15 : 20;
  const double twice_max = 2 * static_cast<double>(scale1 > scale2 ? scale1 : scale2);
  const double real1 = static_cast<double>(scale1) / twice_max;
  const double real2 = static_cast<double>(scale2) / twice_max;
  const double real_out =
      twice_max / ((1 << params->left_shift) * static_cast<double>(output_scale));
  if (!QuantizeSmallerThanOne(real1, min_shift, &params->input1_multiplier,
                              &params->input1_shift) ||
      !QuantizeSmallerThanOne(real2, min_shift, &params->input2_multiplier,
                              &params->input2_shift) ||
      !QuantizeSmallerThanOne(real_out, min_shift, &params->output_multiplier,
                              &params->output_shift)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: scales (%g, %g -> %g) give a multiplier outside (0, 1)", op,
                         static_cast<double>(scale1), static_cast<double>(scale2),
                         static_cast<double>(output_scale));
  }
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_ADD_SUB_PARAMS_H_
