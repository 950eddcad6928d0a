// DIV: out = in1 / in2; float32, int32 (not quantized) and int8 (per-tensor
// quantized), same shapes or numpy-style broadcasting, with a fused
// activation — as TFLM's reference kernel (div.cc, reference_ops::Div /
// DivElementwise / BroadcastDivSlow).
//
// int8 arithmetic (facts from TFLM): M = double(float(s1 / (s2 * s_out)))
// split by QuantizeMultiplier; per element, a = x1 - zp1, b = x2 - zp2,
// both negated when b < 0; r = GetReciprocal(b, 31 integer bits) (Q0.31,
// with b's bits over unit), h = CountLeadingSignBits(a),
// q = SRDHM(a << h, r), out = clamp(out_zp + RoundingDivideByPOT(SRDHM(q,
// M.multiplier), -(M.shift - bits_over_unit - h))).
//
// Where TFLM's behaviour is undefined we choose (documented, tested):
//  - int8 divisor at its zero point: the quotient saturates by the sign of
//    a (a = 0 gives the output zero point);
//  - int32 x / 0 = 0, INT32_MIN / -1 = INT32_MIN (wraps);
//  - float follows IEEE then the activation clamp, like TFLM (x / 0 =
//    +-FLT_MAX with no activation, 0 / 0 = NaN);
//  - a rounding shift beyond 31 bits (tiny quotients, e.g. 0 / b or 1 / 128
//    at ratio 20) is undefined C++ in TFLM; we reproduce what the wheel's
//    x86-64 build computes (div_math.cc, RoundingDivideByPOTAsTflm);
//  - M.shift above 23 (a scale ratio >= 2^23) is refused: TFLM would shift
//    left inside a "smaller than one" multiply.
//
// Memory per node, as TFLM: OpDataDiv (28 bytes, persistent, in init); no
// scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_DIV_H_
#define TFLM_ARENA_RUNTIME_KERNELS_DIV_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernels/binary_glue.h"  // BinaryPrepareFn, BinaryMathFn

namespace tflm_arena {
namespace runtime {

// DIV's builtin options (DivOptions).
struct DivOptions {
  model::Activation activation = model::Activation::kNone;
};

// TFLM's OpDataDiv, field for field (28 bytes); the float / int32 ranges
// (TFLM computes them at invoke) reuse the activation fields.
struct DivOpData {
  int32_t input1_zero_point = 0;
  int32_t input2_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t output_activation_min = 0;
  int32_t output_activation_max = 0;
  int32_t output_multiplier = 0;
  int32_t output_shift = 0;
};
constexpr size_t kDivPersistentBytes = sizeof(DivOpData);  // 28

// Prepare (signature: binary_glue.h).
BinaryPrepareFn<DivOptions, DivOpData> PrepareDiv;

// One int8 quotient (exposed for tests).
int8_t DivOneInt8(const DivOpData& data, int8_t x1, int8_t x2);

// The math per output type (signatures: binary_glue.h).
BinaryFloatActivationFn DivFloat;
BinaryMathFn<int32_t, DivOpData> DivInt32;
BinaryMathFn<int8_t, DivOpData> DivInt8;

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_DIV_H_
