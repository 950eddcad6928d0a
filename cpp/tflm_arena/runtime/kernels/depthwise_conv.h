// DEPTHWISE_CONV_2D: float32, and int8 with int8 filters quantized per
// channel (quantized dimension 3) or per tensor, as TFLM's reference kernel.
// (TFLM also runs int16 activations and int4 filters: kUnimplemented here.)
//
// Tensors: input [N, H, W, Cin], filter [1, KH, KW, Cout], optional bias
// [Cout], output [N, OH, OW, Cout], Cout = Cin * depth_multiplier. Output
// channel c = m + in_channel * depth_multiplier reads input channel
// c / depth_multiplier and filter channel c.
//
// depth_multiplier: TFLM passes the option's value straight to its loops, so
// when it disagrees with Cout / Cin TFLM leaves output channels unwritten
// (value too small, including 0) or writes past them (too large) — its result
// is then undefined. We always use Cout / Cin (which is the value whenever
// the option is consistent, so consistent models match bit for bit), as
// TFLite's own comment on the option says later kernels do. Cout must be a
// multiple of Cin.
//
// int8 arithmetic per output element is ConvPerChannel's (see conv.h) with a
// single input channel per output channel; float likewise.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_DEPTHWISE_CONV_H_
#define TFLM_ARENA_RUNTIME_KERNELS_DEPTHWISE_CONV_H_

#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernels/conv_common.h"

namespace tflm_arena {
namespace runtime {

// DEPTHWISE_CONV_2D's builtin options (DepthwiseConv2DOptions).
struct DepthwiseConvOptions {
  model::Padding padding = model::Padding::kSame;
  int32_t stride_w = 0, stride_h = 0;
  int32_t depth_multiplier = 0;
  int32_t dilation_w = 1, dilation_h = 1;
  model::Activation activation = model::Activation::kNone;
};

// Checks a DEPTHWISE_CONV_2D node and fills `params` (including the
// effective depth multiplier Cout / Cin). `bias` may be null.
Status PrepareDepthwiseConv(const DepthwiseConvOptions& options, const model::TensorInfo& input,
                            const model::TensorInfo& filter, const model::TensorInfo* bias,
                            const model::TensorInfo& output, ConvParams* params);

// Per-channel entries an int8 DEPTHWISE_CONV_2D needs (the filter's last
// dimension). Valid after PrepareDepthwiseConv succeeded.
inline int32_t DepthwiseOutputChannels(const model::TensorInfo& filter) { return filter.shape[3]; }

// int8 only: TFLM's per-channel multipliers and shifts (one per output channel).
void DepthwiseConvMultipliers(const model::TensorInfo& input, const model::TensorInfo& filter,
                              const model::TensorInfo& output, int32_t* multipliers,
                              int32_t* shifts);

// The int8 math (params.depth_multiplier must be output depth / input depth).
void DepthwiseConvPerChannelInt8(const ConvParams& params, const int32_t* output_multiplier,
                                 const int32_t* output_shift, const Shape4& input_shape,
                                 const int8_t* input, const Shape4& filter_shape,
                                 const int8_t* filter, const int32_t* bias,
                                 const Shape4& output_shape, int8_t* output);

// The float math.
void DepthwiseConvFloat(const ConvParams& params, const Shape4& input_shape, const float* input,
                        const Shape4& filter_shape, const float* filter, const float* bias,
                        const Shape4& output_shape, float* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_DEPTHWISE_CONV_H_
