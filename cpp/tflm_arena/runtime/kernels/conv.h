// CONV_2D: float32; int8 with int8 filters quantized per channel (quantized
// dimension 0) or per tensor; int16 activations with int8 filters (the
// "16x8" scheme) — as TFLM's reference kernels.
//
// Tensors: input [N, H, W, Cin], filter [Cout, KH, KW, Cin / groups],
// optional bias [Cout] (float32 / int32), output [N, OH, OW, Cout]. The
// output shape is taken from the model (as TFLM does); SAME / VALID padding,
// strides, dilations and grouped convolution (Cin a multiple of the filter's
// input depth) are supported.
//
// int8 arithmetic, per output element (facts from TFLM's ConvPerChannel):
//   acc = sum over in-image taps of filter * (input + input_offset)
//         (filter zero point ignored: int8 filters are symmetric), int32
//   acc += bias[c]
//   acc = MultiplyByQuantizedMultiplier(acc, M[c], shift[c]) + output_zp
//   out = clamp(acc, act_min, act_max)
// with M[c] from double(in_scale) * double(filter_scale[c]) / double(out_scale)
// (a single filter scale is broadcast to all channels).
// int16x8: no zero points (symmetric activations); acc = sum filter * input in
// int32 when the bias is INT32 (requantized as above), otherwise — INT64 bias
// or no bias — in int64, requantized by MultiplyByQuantizedMultiplier64; then
// clamped, no output offset. Without a bias TFLM picks int32 only when
// Conv2DOptions.quantized_bias_type is INT32 (ConvOptions decodes it).
// float: total = sum(input * filter) in the same loop order, + bias, clamped.
//
// The functions below need no interpreter: PrepareConv + ConvMultipliers do
// what TFLM's Prepare does given the tensors' model facts; ConvPerChannelInt8 /
// ConvFloat are the Eval math. conv.cc wires them to KernelContext.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_CONV_H_
#define TFLM_ARENA_RUNTIME_KERNELS_CONV_H_

#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernels/conv_common.h"

namespace tflm_arena {
namespace runtime {

// CONV_2D's builtin options (Conv2DOptions; defaults as in the format).
struct ConvOptions {
  model::Padding padding = model::Padding::kSame;
  int32_t stride_w = 0, stride_h = 0;
  int32_t dilation_w = 1, dilation_h = 1;
  model::Activation activation = model::Activation::kNone;
  // TensorType value; 0 (FLOAT32, the schema default) means "not set".
  int8_t quantized_bias_type = 0;
};

// Checks a CONV_2D node (types, ranks, shapes, bias, quantization) and fills
// `params`: padding, strides, dilations, offsets, activation bounds.
// kUnimplemented for type combinations we do not run (int4 filters, int16
// activations, hybrid), kInvalidArgument for malformed nodes. `bias` may be
// null (omitted).
Status PrepareConv(const ConvOptions& options, const model::TensorInfo& input,
                   const model::TensorInfo& filter, const model::TensorInfo* bias,
                   const model::TensorInfo& output, ConvParams* params);

// Number of per-channel multiplier / shift entries a quantized CONV_2D needs
// (the filter's output channels). Valid after PrepareConv succeeded.
inline int32_t ConvOutputChannels(const model::TensorInfo& filter) { return filter.shape[0]; }

// Quantized (int8 / int16) only: TFLM's per-channel output multipliers and
// shifts, one per output channel (ConvOutputChannels entries each).
void ConvMultipliers(const model::TensorInfo& input, const model::TensorInfo& filter,
                     const model::TensorInfo& output, int32_t* multipliers, int32_t* shifts);

// The int8 math. `bias` may be null.
void ConvPerChannelInt8(const ConvParams& params, const int32_t* output_multiplier,
                        const int32_t* output_shift, const Shape4& input_shape, const int8_t* input,
                        const Shape4& filter_shape, const int8_t* filter, const int32_t* bias,
                        const Shape4& output_shape, int8_t* output);

// The int16x8 math: params.int32_accumulator selects int32 accumulation
// (with `bias32`, may be null) or int64 (with `bias64`, may be null).
void ConvPerChannelInt16(const ConvParams& params, const int32_t* output_multiplier,
                         const int32_t* output_shift, const Shape4& input_shape,
                         const int16_t* input, const Shape4& filter_shape, const int8_t* filter,
                         const int32_t* bias32, const int64_t* bias64, const Shape4& output_shape,
                         int16_t* output);

// The float math. `bias` may be null.
void ConvFloat(const ConvParams& params, const Shape4& input_shape, const float* input,
               const Shape4& filter_shape, const float* filter, const float* bias,
               const Shape4& output_shape, float* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_CONV_H_
