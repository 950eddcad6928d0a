// HARD_SWISH: y = x * relu6(x + 3) / 6; float32 and int8, bit-exact with
// TFLM's reference kernel (hard_swish.cc, hard_swish_common.cc,
// reference_ops::HardSwish).
//
// int8 facts (all intermediate values int16, as TFLM):
//  - hires input scale = in_scale / 128; output multiplier = double(float(
//    hires / out_scale)), reluish multiplier = double(float(hires / (3 /
//    32768))), each split by QuantizeMultiplier and its Q31 mantissa
//    rounded to Q15 (DownScaleInt32ToInt16Multiplier); the output exponent
//    must be <= 0 (TFLM's check);
//  - per element: v = (x - in_zp) * 128; o = SRDHM16(v, out_mult); the
//    reluish value is v scaled to [-1, 1] (saturating left shifts around an
//    SRDHM16 for positive exponents, a rounding right shift otherwise), mapped
//    to [0, 1] by (r + 2^15) >> 1; y = RoundingDivideByPOT16(
//    SaturatingDoublingHighMul16(r, o), -out_exp) + out_zp, wrapped to int16
//    then clamped to int8;
//  - gemmlowp's 16-bit RoundingDivideByPOT for exponents 16..31 truncates
//    its mask to 16 bits (defined C++: non-negative values give 1, negative
//    -1); reproduced.
//
// Memory per node, as TFLM: HardSwishParams (20 bytes, persistent, in
// init); no scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_HARD_SWISH_H_
#define TFLM_ARENA_RUNTIME_KERNELS_HARD_SWISH_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

// TFLM's HardSwishParams, field for field (20 bytes).
struct HardSwishOpData {
  int16_t input_zero_point = 0;
  int16_t output_zero_point = 0;
  int16_t reluish_multiplier_fixedpoint_int16 = 0;
  int32_t reluish_multiplier_exponent = 0;
  int16_t output_multiplier_fixedpoint_int16 = 0;
  int32_t output_multiplier_exponent = 0;
};
constexpr size_t kHardSwishPersistentBytes = sizeof(HardSwishOpData);  // 20

// Scales finite and > 0, zero points in the int8 range (the caller checks).
Status PrepareHardSwishInt8(float input_scale, int32_t input_zero_point, float output_scale,
                            int32_t output_zero_point, HardSwishOpData* data);

void HardSwishFloat(size_t n, const float* in, float* out);
void HardSwishInt8(const HardSwishOpData& data, size_t n, const int8_t* in, int8_t* out);

// gemmlowp's int16 RoundingDivideByPOT (exponent 0..31; exposed for tests).
int16_t RoundingDivideByPOT16(int16_t x, int exponent);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_HARD_SWISH_H_
