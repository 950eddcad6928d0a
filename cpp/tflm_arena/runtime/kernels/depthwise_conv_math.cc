// DEPTHWISE_CONV_2D: prepare logic and math (glue in depthwise_conv.cc).
#include <cstddef>

#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/depthwise_conv.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "DEPTHWISE_CONV_2D";

}  // namespace

Status PrepareDepthwiseConv(const DepthwiseConvOptions& options, const model::TensorInfo& input,
                            const model::TensorInfo& filter, const model::TensorInfo* bias,
                            const model::TensorInfo& output, ConvParams* params) {
  WeightedKind kind = WeightedKind::kFloat32;
  TFLM_ARENA_RETURN_IF_ERROR(
      ClassifyWeightedTypes(kOp, input, filter, output, /*allow_int16=*/false, &kind));
  const bool quantized = kind == WeightedKind::kInt8;
  Shape4 in, f, out;
  TFLM_ARENA_RETURN_IF_ERROR(RequireConvShapes(kOp, input, filter, output, &in, &f, &out));
  // The filter is [1, KH, KW, Cout]: invoke reads its batch 0 only, which
  // must exist.
  if (f.batch != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: filter '%s' batch dimension is %d, expected 1", kOp, filter.name,
                         f.batch);
  }
  if (out.batch != in.batch || out.depth != f.depth) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output '%s' [%d, %d, %d, %d] does not match input batch %d and "
                         "filter channels %d",
                         kOp, output.name, out.batch, out.height, out.width, out.depth, in.batch,
                         f.depth);
  }
  if (in.depth <= 0 || out.depth % in.depth != 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output channels %d are not a multiple of input channels %d", kOp,
                         out.depth, in.depth);
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckBias(kOp, bias, kind, out.depth));
  ConvParams p;
  TFLM_ARENA_RETURN_IF_ERROR(PrepareConvWindow(kOp, options, in, f, out, &p));
  p.depth_multiplier = out.depth / in.depth;
  if (quantized) {
    TFLM_ARENA_RETURN_IF_ERROR(
        RequireQuantizedWeighted(kOp, input, "filter", filter, output, out.depth, 3));
    TFLM_ARENA_RETURN_IF_ERROR(CheckPerChannelMultipliers(kOp, TensorScale(input), filter.scale,
                                                          TensorScale(output), out.depth));
    p.input_offset = -TensorZeroPoint(input);
    p.output_offset = TensorZeroPoint(output);
    TFLM_ARENA_RETURN_IF_ERROR(QuantizedActivationRange(
        options.activation, output.type, TensorScale(output), TensorZeroPoint(output),
        &p.quantized_activation_min, &p.quantized_activation_max));
  } else {
    FloatActivationRange(options.activation, &p.float_activation_min, &p.float_activation_max);
  }
  *params = p;
  return Status::Ok();
}

void DepthwiseConvMultipliers(const model::TensorInfo& input, const model::TensorInfo& filter,
                              const model::TensorInfo& output, int32_t* multipliers,
                              int32_t* shifts) {
  PerChannelMultipliers(TensorScale(input), filter.scale, TensorScale(output),
                        DepthwiseOutputChannels(filter), multipliers, shifts);
}

namespace {

// TFLM's DepthwiseConv loop nest, shared by the float and int8 kernels:
// (batch, out_y, out_x, in_channel, m, filter_y, filter_x), output channel
// oc = m + in_channel * depth_multiplier. `arith` supplies the per-element
// arithmetic (ConvInt8Arithmetic / ConvFloatArithmetic in conv_common.h).
// Forced inline: left to its heuristics, GCC 12 inlines this nest late and
// the float kernel runs ~15% slower than the nest written out in place.
template <typename T, typename Out, typename Arithmetic>
__attribute__((always_inline)) inline void DepthwiseConvLoops(
    const ConvParams& params, const Shape4& input_shape, const T* input, const Shape4& filter_shape,
    const T* filter, const Shape4& output_shape, Out* output, const Arithmetic& arith) {
  const int32_t dm = params.depth_multiplier;
  for (int32_t b = 0; b < output_shape.batch; ++b) {
    for (int32_t out_y = 0; out_y < output_shape.height; ++out_y) {
      const int64_t in_y_origin =
          static_cast<int64_t>(out_y) * params.stride_height - params.padding_height;
      for (int32_t out_x = 0; out_x < output_shape.width; ++out_x) {
        const int64_t in_x_origin =
            static_cast<int64_t>(out_x) * params.stride_width - params.padding_width;
        for (int32_t ic = 0; ic < input_shape.depth; ++ic) {
          for (int32_t m = 0; m < dm; ++m) {
            const int32_t oc = m + ic * dm;
            typename Arithmetic::Acc acc = 0;
            for (int32_t fy = 0; fy < filter_shape.height; ++fy) {
              const int64_t in_y = in_y_origin + static_cast<int64_t>(params.dilation_height) * fy;
              if (in_y < 0 || in_y >= input_shape.height) continue;
              for (int32_t fx = 0; fx < filter_shape.width; ++fx) {
                const int64_t in_x = in_x_origin + static_cast<int64_t>(params.dilation_width) * fx;
                if (in_x < 0 || in_x >= input_shape.width) continue;
                const T in_val = input[Offset4(input_shape, b, static_cast<int32_t>(in_y),
                                               static_cast<int32_t>(in_x), ic)];
                const T f_val = filter[Offset4(filter_shape, 0, fy, fx, oc)];
                acc = arith.Mac(acc, in_val, f_val);
              }
            }
            output[Offset4(output_shape, b, out_y, out_x, oc)] = arith.Finish(acc, oc);
          }
        }
      }
    }
  }
}

}  // namespace

void DepthwiseConvPerChannelInt8(const ConvParams& params, const int32_t* output_multiplier,
                                 const int32_t* output_shift, const Shape4& input_shape,
                                 const int8_t* input, const Shape4& filter_shape,
                                 const int8_t* filter, const int32_t* bias,
                                 const Shape4& output_shape, int8_t* output) {
  DepthwiseConvLoops(params, input_shape, input, filter_shape, filter, output_shape, output,
                     ConvInt8Arithmetic{params, output_multiplier, output_shift, bias});
}

void DepthwiseConvFloat(const ConvParams& params, const Shape4& input_shape, const float* input,
                        const Shape4& filter_shape, const float* filter, const float* bias,
                        const Shape4& output_shape, float* output) {
  DepthwiseConvLoops(params, input_shape, input, filter_shape, filter, output_shape, output,
                     ConvFloatArithmetic{params, bias});
}

}  // namespace runtime
}  // namespace tflm_arena
