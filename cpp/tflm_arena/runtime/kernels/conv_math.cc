// CONV_2D: prepare logic and math (no KernelContext; see conv.cc for glue).
#include <cstddef>

#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/conv.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "CONV_2D";

}  // namespace

Status PrepareConv(const ConvOptions& options, const model::TensorInfo& input,
                   const model::TensorInfo& filter, const model::TensorInfo* bias,
                   const model::TensorInfo& output, ConvParams* params) {
  WeightedKind kind = WeightedKind::kFloat32;
  TFLM_ARENA_RETURN_IF_ERROR(
      ClassifyWeightedTypes(kOp, input, filter, output, /*allow_int16=*/true, &kind));
  Shape4 in, f, out;
  TFLM_ARENA_RETURN_IF_ERROR(RequireConvShapes(kOp, input, filter, output, &in, &f, &out));
  if (out.batch != in.batch || out.depth != f.batch) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output '%s' [%d, %d, %d, %d] does not match input batch %d and "
                         "filter output channels %d",
                         kOp, output.name, out.batch, out.height, out.width, out.depth, in.batch,
                         f.batch);
  }
  // groups = in.depth / f.depth must be >= 1 (also keeps the modulo defined).
  if (f.depth <= 0 || in.depth < f.depth || in.depth % f.depth != 0 ||
      (out.depth % (in.depth / f.depth)) != 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: filter input depth %d does not divide input depth %d into groups "
                         "that divide the %d output channels",
                         kOp, f.depth, in.depth, out.depth);
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckBias(kOp, bias, kind, out.depth));
  ConvParams p;
  TFLM_ARENA_RETURN_IF_ERROR(PrepareConvWindow(kOp, options, in, f, out, &p));
  if (kind != WeightedKind::kFloat32) {
    TFLM_ARENA_RETURN_IF_ERROR(
        RequireQuantizedWeighted(kOp, input, "filter", filter, output, out.depth, 0));
    TFLM_ARENA_RETURN_IF_ERROR(CheckPerChannelMultipliers(kOp, TensorScale(input), filter.scale,
                                                          TensorScale(output), out.depth));
    // int16 activations are symmetric: TFLM's int16 kernel ignores both
    // zero points, so anything but 0 would silently be misread.
    if (kind == WeightedKind::kInt16) {
      TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "input", input));
      TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "output", output));
    }
    if (kind == WeightedKind::kInt8) {
      p.input_offset = -TensorZeroPoint(input);
      p.output_offset = TensorZeroPoint(output);
    } else {
      // TFLM: an INT32 bias means int32 accumulation; an INT64 bias int64.
      // Without a bias it follows Conv2DOptions.quantized_bias_type (INT32 ->
      // int32, anything else -> int64).
      p.int32_accumulator = bias != nullptr ? bias->type == model::TensorType::kInt32
                                            : options.quantized_bias_type ==
                                                  static_cast<int8_t>(model::TensorType::kInt32);
    }
    TFLM_ARENA_RETURN_IF_ERROR(QuantizedActivationRange(
        options.activation, output.type, TensorScale(output), TensorZeroPoint(output),
        &p.quantized_activation_min, &p.quantized_activation_max));
  } else {
    FloatActivationRange(options.activation, &p.float_activation_min, &p.float_activation_max);
  }
  *params = p;
  return Status::Ok();
}

void ConvMultipliers(const model::TensorInfo& input, const model::TensorInfo& filter,
                     const model::TensorInfo& output, int32_t* multipliers, int32_t* shifts) {
  PerChannelMultipliers(TensorScale(input), filter.scale, TensorScale(output),
                        ConvOutputChannels(filter), multipliers, shifts);
}

namespace {

// TFLM's Conv / ConvPerChannel loop nest, shared by the float, int8 and
// int16 kernels: (batch, out_y, out_x, out_channel, filter_y, filter_x,
// in_channel), so the float sums round identically. `arith` supplies the
// per-element arithmetic (see ConvInt8Arithmetic in conv_common.h).
template <typename In, typename Filter, typename Out, typename Arithmetic>
void ConvLoops(const ConvParams& params, const Shape4& input_shape, const In* input,
               const Shape4& filter_shape, const Filter* filter, const Shape4& output_shape,
               Out* output, const Arithmetic& arith) {
  const int32_t filter_depth = filter_shape.depth;
  const int32_t groups = input_shape.depth / filter_depth;
  const int32_t filters_per_group = output_shape.depth / groups;
  for (int32_t b = 0; b < output_shape.batch; ++b) {
    for (int32_t out_y = 0; out_y < output_shape.height; ++out_y) {
      const int64_t in_y_origin =
          static_cast<int64_t>(out_y) * params.stride_height - params.padding_height;
      for (int32_t out_x = 0; out_x < output_shape.width; ++out_x) {
        const int64_t in_x_origin =
            static_cast<int64_t>(out_x) * params.stride_width - params.padding_width;
        for (int32_t oc = 0; oc < output_shape.depth; ++oc) {
          const int32_t in_c_base = (oc / filters_per_group) * filter_depth;
          typename Arithmetic::Acc acc = 0;
          for (int32_t fy = 0; fy < filter_shape.height; ++fy) {
            const int64_t in_y = in_y_origin + static_cast<int64_t>(params.dilation_height) * fy;
            if (in_y < 0 || in_y >= input_shape.height) continue;
            for (int32_t fx = 0; fx < filter_shape.width; ++fx) {
              const int64_t in_x = in_x_origin + static_cast<int64_t>(params.dilation_width) * fx;
              if (in_x < 0 || in_x >= input_shape.width) continue;
              const In* in_px = input + Offset4(input_shape, b, static_cast<int32_t>(in_y),
                                                static_cast<int32_t>(in_x), in_c_base);
              const Filter* f_px = filter + Offset4(filter_shape, oc, fy, fx, 0);
              for (int32_t ic = 0; ic < filter_depth; ++ic) {
                acc = arith.Mac(acc, in_px[ic], f_px[ic]);
              }
            }
          }
          output[Offset4(output_shape, b, out_y, out_x, oc)] = arith.Finish(acc, oc);
        }
      }
    }
  }
}

// Requantization of an int16x8 accumulator: int32 by
// MultiplyByQuantizedMultiplier, int64 by MultiplyByQuantizedMultiplier64.
inline int32_t RequantizeAccumulator(int32_t acc, int32_t multiplier, int32_t shift) {
  return MultiplyByQuantizedMultiplier(acc, multiplier, shift);
}
inline int32_t RequantizeAccumulator(int64_t acc, int32_t multiplier, int32_t shift) {
  return MultiplyByQuantizedMultiplier64(acc, multiplier, shift);
}

// int16 activations, int8 filter: acc = sum filter * input (no offsets) in
// AccT (int32 or int64), + bias (of the same type), requantized, clamped.
template <typename AccT>
struct ConvInt16Arithmetic {
  using Acc = AccT;
  const ConvParams& params;
  const int32_t* output_multiplier;
  const int32_t* output_shift;
  const Acc* bias;  // may be null

  Acc Mac(Acc acc, int16_t input, int8_t filter) const {
    return Accumulate(acc, static_cast<Acc>(filter) * input);
  }
  int16_t Finish(Acc acc, int32_t c) const {
    if (bias != nullptr) acc = Accumulate(acc, static_cast<Acc>(bias[c]));
    const int32_t scaled = RequantizeAccumulator(acc, output_multiplier[c], output_shift[c]);
    return static_cast<int16_t>(
        ApplyActivation(scaled, params.quantized_activation_min, params.quantized_activation_max));
  }
};

}  // namespace

void ConvPerChannelInt8(const ConvParams& params, const int32_t* output_multiplier,
                        const int32_t* output_shift, const Shape4& input_shape, const int8_t* input,
                        const Shape4& filter_shape, const int8_t* filter, const int32_t* bias,
                        const Shape4& output_shape, int8_t* output) {
  ConvLoops(params, input_shape, input, filter_shape, filter, output_shape, output,
            ConvInt8Arithmetic{params, output_multiplier, output_shift, bias});
}

void ConvPerChannelInt16(const ConvParams& params, const int32_t* output_multiplier,
                         const int32_t* output_shift, const Shape4& input_shape,
                         const int16_t* input, const Shape4& filter_shape, const int8_t* filter,
                         const int32_t* bias32, const int64_t* bias64, const Shape4& output_shape,
                         int16_t* output) {
  if (!params.int32_accumulator) {
    ConvLoops(params, input_shape, input, filter_shape, filter, output_shape, output,
              ConvInt16Arithmetic<int64_t>{params, output_multiplier, output_shift, bias64});
  } else {
    ConvLoops(params, input_shape, input, filter_shape, filter, output_shape, output,
              ConvInt16Arithmetic<int32_t>{params, output_multiplier, output_shift, bias32});
  }
}

void ConvFloat(const ConvParams& params, const Shape4& input_shape, const float* input,
               const Shape4& filter_shape, const float* filter, const float* bias,
               const Shape4& output_shape, float* output) {
  ConvLoops(params, input_shape, input, filter_shape, filter, output_shape, output,
            ConvFloatArithmetic{params, bias});
}

}  // namespace runtime
}  // namespace tflm_arena
