// MUL: out = in1 * in2; float32, int32 (not quantized) and int8 / int16
// (per-tensor quantized; int16 with zero points 0), same shapes or
// numpy-style broadcasting up to rank 6, with a fused activation — as TFLM's
// reference kernel (mul.cc, mul_common.cc, reference_integer_ops::Mul /
// BroadcastMul*, reference_ops::Mul).
//
// Facts reproduced:
//  - quantized: M = double(s1) * double(s2) / double(s_out) split by
//    QuantizeMultiplier (a left shift is allowed); per element
//    out = clamp(out_zp + MBQM((x1 - zp1) * (x2 - zp2), M));
//  - int16: TFLM requires all three zero points to be 0;
//  - float: clamp(x1 * x2); int32: clamp(x1 * x2) with TFLM's int32
//    activation range, wrapping on overflow (TFLM's WrappingMul).
//
// Memory per node, as TFLM: OpDataMul (36 bytes, persistent, in init); no
// scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_MUL_H_
#define TFLM_ARENA_RUNTIME_KERNELS_MUL_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernels/binary_glue.h"  // BinaryPrepareFn, BinaryMathFn

namespace tflm_arena {
namespace runtime {

// MUL's builtin options (MulOptions).
struct MulOptions {
  model::Activation activation = model::Activation::kNone;
};

// TFLM's OpDataMul, field for field (36 bytes).
struct MulOpData {
  int32_t input1_zero_point = 0;
  int32_t input2_zero_point = 0;
  int32_t output_activation_min = 0;  // quantized or int32 range
  int32_t output_activation_max = 0;
  int32_t output_zero_point = 0;
  int32_t output_multiplier = 0;
  int32_t output_shift = 0;
  float output_activation_min_f32 = 0.0f;
  float output_activation_max_f32 = 0.0f;
};
constexpr size_t kMulPersistentBytes = sizeof(MulOpData);  // 36

// Prepare and the math per output type (signatures: binary_glue.h).
BinaryPrepareFn<MulOptions, MulOpData> PrepareMul;
BinaryMathFn<float, MulOpData> MulFloat;
BinaryMathFn<int32_t, MulOpData> MulInt32;
BinaryMathFn<int8_t, MulOpData> MulInt8;
BinaryMathFn<int16_t, MulOpData> MulInt16;

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_MUL_H_
