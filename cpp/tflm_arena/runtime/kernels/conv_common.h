// Pieces shared by the CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED
// kernels: NHWC shapes, convolution parameters, the per-element int8 / float
// convolution arithmetic, per-tensor quantization lookups, TFLM's per-channel
// multiplier derivation and the checks their prepares share.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_CONV_COMMON_H_
#define TFLM_ARENA_RUNTIME_KERNELS_CONV_COMMON_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/padding.h"
#include "tflm_arena/runtime/kernels/quant_util.h"

namespace tflm_arena {
namespace runtime {

// A rank-4 NHWC shape. For CONV_2D filters the four extents are
// [output channels, height, width, input channels per group]; for
// DEPTHWISE_CONV_2D filters [1, height, width, output channels].
struct Shape4 {
  int32_t batch = 0;
  int32_t height = 0;
  int32_t width = 0;
  int32_t depth = 0;
};

// From a dims array of exactly four entries.
inline Shape4 MakeShape4(const int32_t* dims) {
  Shape4 s;
  s.batch = dims[0];
  s.height = dims[1];
  s.width = dims[2];
  s.depth = dims[3];
  return s;
}

// Flat index of (b, y, x, c) in a row-major NHWC tensor.
inline size_t Offset4(const Shape4& s, int32_t b, int32_t y, int32_t x, int32_t c) {
  return ((static_cast<size_t>(b) * static_cast<size_t>(s.height) + static_cast<size_t>(y)) *
              static_cast<size_t>(s.width) +
          static_cast<size_t>(x)) *
             static_cast<size_t>(s.depth) +
         static_cast<size_t>(c);
}

// int32 addition with two's-complement wrap-around: what TFLM's int32
// accumulators do in practice on overflow, without undefined behaviour.
inline int32_t WrappingAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

// acc + term with the accumulator's overflow behaviour: both widths wrap
// (an extreme INT64 bias can overflow the int64 one), as TFLM's do in
// practice, without undefined behaviour.
inline int32_t Accumulate(int32_t acc, int32_t term) { return WrappingAdd(acc, term); }
inline int64_t Accumulate(int64_t acc, int64_t term) {
  return static_cast<int64_t>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(term));
}

// Everything a convolution needs besides the tensors (TFLM's ConvParams /
// DepthwiseParams, reduced to the fields the reference kernels read).
struct ConvParams {
  int32_t padding_width = 0;  // leading padding (ComputePaddingHeightWidth)
  int32_t padding_height = 0;
  int32_t stride_width = 1;
  int32_t stride_height = 1;
  int32_t dilation_width = 1;
  int32_t dilation_height = 1;
  int32_t depth_multiplier = 1;  // DEPTHWISE_CONV_2D only
  int32_t input_offset = 0;      // int8: -input zero point (0 for int16)
  int32_t output_offset = 0;     // int8: output zero point (0 for int16)
  int32_t quantized_activation_min = -128;
  int32_t quantized_activation_max = 127;
  float float_activation_min = 0.0f;
  float float_activation_max = 0.0f;
  // CONV_2D int16x8 only: accumulate in int32 (INT32 bias) instead of int64.
  bool int32_accumulator = false;
};

// Per-element arithmetic of TFLM's per-channel int8 convolutions
// (ConvPerChannel, DepthwiseConvPerChannel), for the loop nests of
// conv_math.cc and depthwise_conv_math.cc: the accumulator starts at Acc(0),
// takes acc = Mac(acc, input, filter) for every tap inside the image, and
// Finish(acc, output_channel) is the stored value.
struct ConvInt8Arithmetic {
  using Acc = int32_t;
  const ConvParams& params;
  const int32_t* output_multiplier;
  const int32_t* output_shift;
  const int32_t* bias;  // may be null

  // acc + filter * (input + input_offset), int32 wrapping.
  int32_t Mac(int32_t acc, int8_t input, int8_t filter) const {
    const int32_t term =
        static_cast<int32_t>(filter) * (static_cast<int32_t>(input) + params.input_offset);
    return WrappingAdd(acc, term);
  }
  // + bias[c], requantized with channel c's multiplier and shift, + output
  // offset, clamped to the activation range.
  int8_t Finish(int32_t acc, int32_t c) const {
    if (bias != nullptr) acc = WrappingAdd(acc, bias[c]);
    acc = MultiplyByQuantizedMultiplier(acc, output_multiplier[c], output_shift[c]);
    acc = ApplyActivation(WrappingAdd(acc, params.output_offset), params.quantized_activation_min,
                          params.quantized_activation_max);
    return static_cast<int8_t>(acc);
  }
};

// The float counterpart (TFLM's Conv, DepthwiseConv): total + input * filter
// per tap; + bias[c] (0 when absent), clamped.
struct ConvFloatArithmetic {
  using Acc = float;
  const ConvParams& params;
  const float* bias;  // may be null

  float Mac(float total, float input, float filter) const { return total + input * filter; }
  float Finish(float total, int32_t c) const {
    const float bias_value = bias != nullptr ? bias[c] : 0.0f;
    return ApplyActivation(total + bias_value, params.float_activation_min,
                           params.float_activation_max);
  }
};

// TFLM's per-channel (or broadcast per-tensor) requantization: for channel i,
// M_i = double(input_scale) * double(filter_scale_i) / double(output_scale)
// (left to right), split by QuantizeMultiplier. A single filter scale is used
// for every channel. `multipliers` and `shifts` hold `num_channels` entries;
// `filter_scales` must have 1 or `num_channels` entries.
void PerChannelMultipliers(float input_scale, Span<const float> filter_scales, float output_scale,
                           int32_t num_channels, int32_t* multipliers, int32_t* shifts);

// Checks shared by the convolution prepares: stride and dilation at least 1.
Status CheckWindow(const char* op, int32_t stride_w, int32_t stride_h, int32_t dilation_w,
                   int32_t dilation_h);

// The output's spatial extents equal what the op computes from the input,
// filter, strides, dilations and padding (ComputeOutSize), and the dilated
// filter extents fit int32. `out` is the model's output shape.
Status CheckConvOutputSize(const char* op, model::Padding padding, const Shape4& in,
                           const Shape4& filter, int32_t stride_w, int32_t stride_h,
                           int32_t dilation_w, int32_t dilation_h, const Shape4& out);

// Every per-channel multiplier PerChannelMultipliers would compute is finite,
// >= 0 and within the shifts the fixed-point helpers take
// (CheckedQuantizeMultiplier); `filter_scales` has 1 or `num_channels` entries.
Status CheckPerChannelMultipliers(const char* op, float input_scale,
                                  Span<const float> filter_scales, float output_scale,
                                  int32_t num_channels);

// The window part of the CONV_2D / DEPTHWISE_CONV_2D prepares (`Options` is
// ConvOptions or DepthwiseConvOptions): CheckWindow on the
// options' strides and dilations, CheckConvOutputSize on `out`, then TFLM's
// leading padding for `in` and
// `filter` (ComputePaddingHeightWidth; the computed output size is ignored,
// the model's is used) and the strides and dilations, written to `p`.
template <typename Options>
Status PrepareConvWindow(const char* op, const Options& options, const Shape4& in,
                         const Shape4& filter, const Shape4& out, ConvParams* p) {
  TFLM_ARENA_RETURN_IF_ERROR(
      CheckWindow(op, options.stride_w, options.stride_h, options.dilation_w, options.dilation_h));
  TFLM_ARENA_RETURN_IF_ERROR(CheckConvOutputSize(op, options.padding, in, filter, options.stride_w,
                                                 options.stride_h, options.dilation_w,
                                                 options.dilation_h, out));
  int32_t unused_h = 0, unused_w = 0;
  const PaddingValues pad = ComputePaddingHeightWidth(
      options.stride_h, options.stride_w, options.dilation_h, options.dilation_w, in.height,
      in.width, filter.height, filter.width, options.padding, &unused_h, &unused_w);
  p->padding_width = pad.width;
  p->padding_height = pad.height;
  p->stride_width = options.stride_w;
  p->stride_height = options.stride_h;
  p->dilation_width = options.dilation_w;
  p->dilation_height = options.dilation_h;
  return Status::Ok();
}

// The tensor is affine-quantized (has at least one scale) — kInvalidArgument
// naming `op` and `role` otherwise.
Status RequireQuantized(const char* op, const char* role, const model::TensorInfo& t);

// TFLite's 64-bit-accumulator requantization (used with INT64 biases):
// the multiplier is first rounded to 16 bits,
//   m16 = m < 0x7FFF0000 ? (m + 2^15) >> 16 : 0x7FFF,
// then result = (x * m16 + 2^(14 - shift)) >> (15 - shift) (arithmetic
// shift), truncated to int32. TFLite assumes shift in [-31, 7]; the shift
// amount is clamped to [1, 62] so other values stay defined. The product and
// the rounding term wrap in 64 bits (TFLM's int64 arithmetic overflows there
// for extreme accumulators and wraps in practice).
inline int32_t MultiplyByQuantizedMultiplier64(int64_t x, int32_t quantized_multiplier,
                                               int32_t shift) {
  const int64_t reduced = quantized_multiplier < 0x7FFF0000
                              ? (static_cast<int64_t>(quantized_multiplier) + (1 << 15)) >> 16
                              : 0x7FFF;
  int32_t total_shift = 15 - shift;
  if (total_shift < 1) total_shift = 1;
  if (total_shift > 62) total_shift = 62;
  const uint64_t product = static_cast<uint64_t>(x) * static_cast<uint64_t>(reduced);
  const int64_t rounded =
      static_cast<int64_t>(product + (static_cast<uint64_t>(1) << (total_shift - 1)));
  return static_cast<int32_t>(rounded >> total_shift);
}

// The tensor has exactly `rank` dimensions — kInvalidArgument otherwise.
Status RequireRank(const char* op, const char* role, const model::TensorInfo& t, size_t rank);

// The input, filter and output of a convolution are rank 4 (RequireRank, in
// that order); their shapes in `in`, `filter_shape` and `out`.
Status RequireConvShapes(const char* op, const model::TensorInfo& input,
                         const model::TensorInfo& filter, const model::TensorInfo& output,
                         Shape4* in, Shape4* filter_shape, Shape4* out);

// The (input, weights, output) type combinations the CONV_2D,
// DEPTHWISE_CONV_2D and FULLY_CONNECTED kernels run.
enum class WeightedKind : uint8_t {
  kFloat32,  // all FLOAT32
  kInt8,     // all INT8
  kInt16,    // INT16 activations, INT8 weights (only where `allow_int16`)
};

// Classifies the types; everything else is kUnimplemented naming the op and
// the types (INT4 weights and hybrid float/int8, which TFLM partly runs,
// included).
Status ClassifyWeightedTypes(const char* op, const model::TensorInfo& input,
                             const model::TensorInfo& weights, const model::TensorInfo& output,
                             bool allow_int16, WeightedKind* kind);

// An optional bias: FLOAT32 for float, INT32 for int8, INT32 or INT64 for
// int16 activations; exactly `channels` elements. Null passes.
Status CheckBias(const char* op, const model::TensorInfo* bias, WeightedKind kind,
                 int64_t channels);

// Filter scales of a quantized weighted op: 1 (per tensor) or `channels` (per
// channel, along `expected_dimension`, whose extent must be `channels`).
Status CheckFilterScales(const char* op, const model::TensorInfo& filter, int32_t channels,
                         int32_t expected_dimension);

// The quantization checks of a quantized weighted op, in order:
// CheckQuantization (scales finite and > 0, zero points in range, as many
// zero points as scales) on the input, the weights (named `weights_role`)
// and the output, then CheckFilterScales on the weights.
Status RequireQuantizedWeighted(const char* op, const model::TensorInfo& input,
                                const char* weights_role, const model::TensorInfo& weights,
                                const model::TensorInfo& output, int32_t channels,
                                int32_t expected_dimension);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_CONV_COMMON_H_
