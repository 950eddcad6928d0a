// SUB: out = in1 - in2; float32, int32 (not quantized) and int8 / int16
// (per-tensor quantized), same shapes or numpy-style broadcasting up to
// rank 6, with a fused activation — as TFLM's reference kernel (sub.cc,
// sub_common.cc, reference_ops::SubElementwise / BroadcastQuantSubSlow /
// SubWithActivation / BroadcastSubSlow).
//
// Quantized arithmetic (CalculateOpDataSub as the tflite_micro wheel has it:
// the multipliers in double, like ADD's; tflite-micro's main branch at
// 686df2db9 divides in float, which differs in the last bits — the wheel is
// the reference, measured on all 65536 int8 pairs):
//   left_shift = 20 for int8, 15 for int16
//   twice_max = 2 * double(max(scale1, scale2))       (max taken in float)
//   M1 = double(scale1) / twice_max, M2 = double(scale2) / twice_max,
//   Mout = twice_max / (2^left_shift * double(out_scale)),
//   each in (0, 1) (TFLM CHECK-fails otherwise; we return kInvalidArgument);
//   per element: a = MBQM((x1 - zp1) << left_shift, M1), b likewise,
//   out = clamp(MBQM(a - b, Mout) + out_zp).
// float: clamp(x1 - x2). int32: clamp(x1 - x2) with TFLM's int32 activation
// range (RELU [0, max], RELU6 [0, 6], RELU_N1_TO_1 [-1, 1]); overflow wraps
// here (undefined in TFLM).
//
// Memory per node, as TFLM: OpDataSub (52 bytes, persistent, in init); no
// scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SUB_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SUB_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernels/binary_glue.h"  // BinaryPrepareFn, BinaryMathFn

namespace tflm_arena {
namespace runtime {

// SUB's builtin options (SubOptions; pot_scale_int16 is read but, as in
// TFLM's reference kernel, changes nothing).
struct SubOptions {
  model::Activation activation = model::Activation::kNone;
  bool pot_scale_int16 = true;
};

// TFLM's OpDataSub, field for field (52 bytes on 64-bit).
struct SubOpData {
  bool requires_broadcast = false;
  int32_t input1_shift = 0;
  int32_t input2_shift = 0;
  int32_t output_activation_min = 0;  // also the int32 range
  int32_t output_activation_max = 0;
  int32_t input1_multiplier = 0;
  int32_t input2_multiplier = 0;
  int32_t output_multiplier = 0;
  int32_t output_shift = 0;
  int32_t left_shift = 0;
  int32_t input1_offset = 0;  // -zero point
  int32_t input2_offset = 0;
  int32_t output_offset = 0;  // +zero point
};
constexpr size_t kSubPersistentBytes = sizeof(SubOpData);  // 52

// Prepare (signature: binary_glue.h).
BinaryPrepareFn<SubOptions, SubOpData> PrepareSub;

// The int8 / int16 multipliers and offsets alone (used by PrepareSub).
Status QuantizedSubParams(model::TensorType type, float scale1, int32_t zero_point1, float scale2,
                          int32_t zero_point2, float output_scale, int32_t output_zero_point,
                          SubOpData* data);

// MultiplyByQuantizedMultiplier(v << left_shift, multiplier, shift) for
// left_shift in [1, 30], multiplier > 0, shift in [-31, 0] (the input
// rescaling of the quantized path), computed without a 64-bit division.
int32_t ScaleShiftedInput(int32_t v, int32_t left_shift, int32_t multiplier, int32_t shift);

// The math per output type (signatures: binary_glue.h).
BinaryFloatActivationFn SubFloat;
BinaryMathFn<int32_t, SubOpData> SubInt32;
BinaryMathFn<int8_t, SubOpData> SubInt8;
BinaryMathFn<int16_t, SubOpData> SubInt16;

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SUB_H_
