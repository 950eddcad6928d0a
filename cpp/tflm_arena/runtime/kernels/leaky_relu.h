// LEAKY_RELU: y = x for x > 0, alpha * x otherwise; float32, int8 and int16,
// bit-exact with TFLM's reference kernel (leaky_relu.cc,
// leaky_relu_common.cc, reference_ops::QuantizeLeakyRelu).
//
// Facts reproduced:
//  - float: val > 0 ? val : val * alpha (alpha may be > 1 or < 0);
//  - quantized: two multipliers from QuantizeMultiplier, each computed in
//    double from the float scales and alpha (as the tflite_micro wheel
//    does): alpha = in_scale * alpha / out_scale, identity = in_scale /
//    out_scale. With d = q - input_zero_point, the
//    output is output_zero_point + d * identity for d >= 0, else d * alpha;
//    a negative alpha multiplier is negated before the multiply and the
//    product negated after (TFLM's "safe" multiplier), then the result is
//    clamped to the type's range;
//  - absent LeakyReluOptions: alpha 0 (TFLM's parser zero-initialises).
//
// Memory per node, as TFLM: the 24-byte OpData (persistent, in init) and
// the options struct (tail); no scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_LEAKY_RELU_H_
#define TFLM_ARENA_RUNTIME_KERNELS_LEAKY_RELU_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

// LEAKY_RELU's builtin options (LeakyReluOptions).
struct LeakyReluOptions {
  float alpha = 0.0f;
};

// Quantized parameters, laid out like TFLM's LeakyReluOpData (24 bytes).
struct LeakyReluOpData {
  int32_t output_multiplier_alpha = 0;
  int32_t output_shift_alpha = 0;
  int32_t output_multiplier_identity = 0;
  int32_t output_shift_identity = 0;
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
};
constexpr size_t kLeakyReluPersistentBytes = sizeof(LeakyReluOpData);  // 24

// The quantized parameters from the tensors' scales and zero points.
// kInvalidArgument when a multiplier is not finite or needs a left shift
// beyond 31 (our fixed-point helpers' range; TFLM would shift out of range).
Status PrepareLeakyReluQuantized(float alpha, float input_scale, int32_t input_zero_point,
                                 float output_scale, int32_t output_zero_point,
                                 LeakyReluOpData* data);

void LeakyReluFloat(float alpha, size_t count, const float* input, float* output);
void LeakyReluInt8(const LeakyReluOpData& data, size_t count, const int8_t* input, int8_t* output);
void LeakyReluInt16(const LeakyReluOpData& data, size_t count, const int16_t* input,
                    int16_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_LEAKY_RELU_H_
