// RELU and RELU6: float32, int8 and int16, as TFLM's reference kernels
// (activations.cc, activations_common.cc).
//
// Facts reproduced:
//  - float RELU: x < 0 ? 0 : x; RELU6: x > 6 ? 6 : x < 0 ? 0 : x (NaN
//    passes through both);
//  - quantized RELU requantizes: M = double(float(in_scale / out_scale)),
//    split by QuantizeMultiplier; out = clamp(out_zp + MBQM(x - in_zp, M))
//    to [max(type_min, out_zp), type_max];
//  - quantized RELU6 does not requantize (TFLM reads only the input's
//    parameters): out = clamp(x, in_zp, six) with six = in_zp +
//    round(6 / in_scale) clamped to the type;
//  - int16 RELU: input and output zero points must be 0.
//
// Memory per node, as TFLM: RELU ReluOpData (28 bytes), RELU6 Relu6OpData
// (8 bytes), persistent, in init; no scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_RELU_H_
#define TFLM_ARENA_RUNTIME_KERNELS_RELU_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace runtime {

// TFLM's ReluOpData (ReluParams: ActivationParams + 4 fields), 28 bytes.
struct ReluOpData {
  int32_t activation_type = 0;  // unused; keeps TFLM's layout
  int32_t quantized_activation_min = 0;
  int32_t quantized_activation_max = 0;
  int32_t input_offset = 0;  // input zero point
  int32_t output_offset = 0;
  int32_t output_multiplier = 0;
  int32_t output_shift = 0;
};
constexpr size_t kReluPersistentBytes = sizeof(ReluOpData);  // 28

// TFLM's Relu6OpData, 8 bytes.
struct Relu6OpData {
  int32_t six = 0;
  int32_t zero = 0;
};
constexpr size_t kRelu6PersistentBytes = sizeof(Relu6OpData);  // 8

// `type` INT8 or INT16; scales checked finite and > 0 by the caller.
Status PrepareReluQuantized(model::TensorType type, float input_scale, int32_t input_zero_point,
                            float output_scale, int32_t output_zero_point, ReluOpData* data);
void PrepareRelu6Quantized(model::TensorType type, float input_scale, int32_t input_zero_point,
                           Relu6OpData* data);

void ReluFloat(size_t n, const float* in, float* out);
void ReluInt8(const ReluOpData& data, size_t n, const int8_t* in, int8_t* out);
void ReluInt16(const ReluOpData& data, size_t n, const int16_t* in, int16_t* out);

void Relu6Float(size_t n, const float* in, float* out);
void Relu6Int8(const Relu6OpData& data, size_t n, const int8_t* in, int8_t* out);
void Relu6Int16(const Relu6OpData& data, size_t n, const int16_t* in, int16_t* out);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_RELU_H_
