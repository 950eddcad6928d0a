// FULLY_CONNECTED: float32, and int8 with int8 weights quantized per tensor
// or per channel (one scale per output unit), as TFLM's reference kernel.
// (TFLM also runs int16 activations and int4 weights: kUnimplemented here.)
//
// Tensors: input [..., accum_depth] (any shape with batches * accum_depth
// elements), weights [units, accum_depth], optional bias [units] (float32 /
// int32, input index -1 when omitted), output [..., units]. The output shape
// comes from the model, as in TFLM: keep_num_dims only decides what shape the
// converter wrote ([batches, units] when false, the input's leading dims plus
// units when true); batches = output elements / units in both cases.
//
// int8 arithmetic per output element (facts from TFLM's FullyConnected /
// FullyConnectedPerChannel):
//   per tensor:  acc = sum (w + weights_offset) * (x + input_offset),
//                weights_offset = -weights zero point (applied as TFLM does),
//                M = double(float(in_scale * w_scale)) / double(out_scale)
//                (the scale product is rounded to float first)
//   per channel: acc = sum w * (x + input_offset) (zero points ignored),
//                M[c] = double(in_scale) * double(w_scale[c]) / double(out_scale)
//   acc += bias[c]; acc = MultiplyByQuantizedMultiplier(acc, M, shift)
//   + output zero point, clamped to the activation range.
// Per tensor, TFLM rejects a bias whose scale differs from in_scale * w_scale
// by more than 2% of the output scale; so do we.
// float: total = sum x * w (in order), + bias, clamped.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_FULLY_CONNECTED_H_
#define TFLM_ARENA_RUNTIME_KERNELS_FULLY_CONNECTED_H_

#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace runtime {

// FULLY_CONNECTED's builtin options (FullyConnectedOptions).
struct FullyConnectedOptions {
  model::Activation activation = model::Activation::kNone;
  uint8_t weights_format = 0;  // 0 = DEFAULT (the only one we run)
  bool keep_num_dims = false;
};

struct FullyConnectedParams {
  int32_t batches = 0;
  int32_t output_depth = 0;  // units
  int32_t accum_depth = 0;
  int32_t input_offset = 0;       // int8: -input zero point
  int32_t weights_offset = 0;     // int8 per tensor: -weights zero point
  int32_t output_offset = 0;      // int8: output zero point
  int32_t output_multiplier = 0;  // int8 per tensor
  int32_t output_shift = 0;
  int32_t quantized_activation_min = -128;
  int32_t quantized_activation_max = 127;
  float float_activation_min = 0.0f;
  float float_activation_max = 0.0f;
  bool per_channel = false;  // int8 with one weight scale per unit
};

// Checks a FULLY_CONNECTED node and fills `params` (dimensions, offsets,
// activation bounds and, per tensor, the output multiplier). `bias` may be
// null. kUnimplemented for int4 / int16 / hybrid / shuffled weights.
Status PrepareFullyConnected(const FullyConnectedOptions& options, const model::TensorInfo& input,
                             const model::TensorInfo& weights, const model::TensorInfo* bias,
                             const model::TensorInfo& output, FullyConnectedParams* params);

// int8 per channel only: TFLM's multipliers and shifts, params.output_depth
// entries each.
void FullyConnectedPerChannelMultipliers(const model::TensorInfo& input,
                                         const model::TensorInfo& weights,
                                         const model::TensorInfo& output, int32_t units,
                                         int32_t* multipliers, int32_t* shifts);

// TFLM's per-tensor multiplier: double(float(input_scale * weights_scale)) /
// double(output_scale), split by QuantizeMultiplier.
void FullyConnectedMultiplier(float input_scale, float weights_scale, float output_scale,
                              int32_t* multiplier, int32_t* shift);

// The math. `bias` may be null.
void FullyConnectedInt8(const FullyConnectedParams& params, const int8_t* input,
                        const int8_t* weights, const int32_t* bias, int8_t* output);
void FullyConnectedPerChannelInt8(const FullyConnectedParams& params,
                                  const int32_t* output_multiplier, const int32_t* output_shift,
                                  const int8_t* input, const int8_t* weights, const int32_t* bias,
                                  int8_t* output);
void FullyConnectedFloat(const FullyConnectedParams& params, const float* input,
                         const float* weights, const float* bias, float* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_FULLY_CONNECTED_H_
