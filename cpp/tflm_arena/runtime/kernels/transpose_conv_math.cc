// TRANSPOSE_CONV prepare checks and math (see transpose_conv.h).
#include <cstring>

#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/padding.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/transpose_conv.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "TRANSPOSE_CONV";

// The bias of the int16 kernel: INT64 (read directly) or INT16 (widened).
Status CheckInt16Bias(const model::TensorInfo& bias, int32_t channels) {
  if (bias.type != model::TensorType::kInt64 && bias.type != model::TensorType::kInt16) {
    return Status::Error(StatusCode::kUnimplemented,
                         "%s: bias type %s not supported with INT16 input (need INT64 or INT16)",
                         kOp, model::TensorTypeName(bias.type));
  }
  if (static_cast<int64_t>(bias.num_elements) != channels) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: bias '%s' has %llu elements, expected %d (output channels)", kOp,
                         bias.name, static_cast<unsigned long long>(bias.num_elements), channels);
  }
  return Status::Ok();
}

// The scatter loop shared by every type: for each input element and filter
// tap inside the output, acc[out] = mac(acc[out], input, filter). Offsets in
// 64 bits so large strides cannot overflow.
template <typename In, typename Filter, typename Acc, typename Mac>
void Scatter(const ConvParams& p, const Shape4& is, const In* input, const Shape4& fs,
             const Filter* filter, const Shape4& os, Acc* acc, const Mac& mac) {
  for (int32_t b = 0; b < is.batch; ++b) {
    for (int32_t in_y = 0; in_y < is.height; ++in_y) {
      const int64_t out_y0 = static_cast<int64_t>(in_y) * p.stride_height - p.padding_height;
      for (int32_t in_x = 0; in_x < is.width; ++in_x) {
        const int64_t out_x0 = static_cast<int64_t>(in_x) * p.stride_width - p.padding_width;
        const In* in_pixel = input + Offset4(is, b, in_y, in_x, 0);
        for (int32_t in_c = 0; in_c < is.depth; ++in_c) {
          const In x = in_pixel[in_c];
          for (int32_t fy = 0; fy < fs.height; ++fy) {
            const int64_t out_y = out_y0 + fy;
            if (out_y < 0 || out_y >= os.height) continue;
            for (int32_t fx = 0; fx < fs.width; ++fx) {
              const int64_t out_x = out_x0 + fx;
              if (out_x < 0 || out_x >= os.width) continue;
              Acc* out =
                  acc + Offset4(os, b, static_cast<int32_t>(out_y), static_cast<int32_t>(out_x), 0);
              for (int32_t oc = 0; oc < os.depth; ++oc) {
                out[oc] = mac(out[oc], x, filter[Offset4(fs, oc, fy, fx, in_c)]);
              }
            }
          }
        }
      }
    }
  }
}

size_t ElementCount(const Shape4& s) {
  return static_cast<size_t>(s.batch) * static_cast<size_t>(s.height) *
         static_cast<size_t>(s.width) * static_cast<size_t>(s.depth);
}

}  // namespace

Status PrepareTransposeConv(const TransposeConvOptions& options, const model::TensorInfo& input,
                            const model::TensorInfo& filter, const model::TensorInfo* bias,
                            const model::TensorInfo& output, ConvParams* params) {
  WeightedKind kind = WeightedKind::kFloat32;
  TFLM_ARENA_RETURN_IF_ERROR(
      ClassifyWeightedTypes(kOp, input, filter, output, /*allow_int16=*/true, &kind));
  Shape4 in, f, out;
  TFLM_ARENA_RETURN_IF_ERROR(RequireConvShapes(kOp, input, filter, output, &in, &f, &out));
  if (out.batch != in.batch || in.depth != f.depth || out.depth != f.batch) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: shapes do not match: input [%d, %d, %d, %d], filter [%d, %d, %d, "
                         "%d], output [%d, %d, %d, %d] (need equal batches, input depth = "
                         "filter depth, output depth = filter output channels)",
                         kOp, in.batch, in.height, in.width, in.depth, f.batch, f.height, f.width,
                         f.depth, out.batch, out.height, out.width, out.depth);
  }
  if (options.stride_w < 1 || options.stride_h < 1) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: strides %d x %d must be >= 1", kOp,
                         options.stride_w, options.stride_h);
  }
  if (options.padding != model::Padding::kSame && options.padding != model::Padding::kValid) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: unknown padding %d", kOp,
                         static_cast<int>(options.padding));
  }
  if (kind == WeightedKind::kInt16 && bias != nullptr) {
    TFLM_ARENA_RETURN_IF_ERROR(CheckInt16Bias(*bias, out.depth));
  } else {
    TFLM_ARENA_RETURN_IF_ERROR(CheckBias(kOp, bias, kind, out.depth));
  }
  ConvParams p;
  int32_t unused_h = 0, unused_w = 0;
  // TFLM passes the output's extents where the formula expects the input's.
  const PaddingValues pad =
      ComputePaddingHeightWidth(options.stride_h, options.stride_w, 1, 1, out.height, out.width,
                                f.height, f.width, options.padding, &unused_h, &unused_w);
  p.padding_width = pad.width;
  p.padding_height = pad.height;
  p.stride_width = options.stride_w;
  p.stride_height = options.stride_h;
  if (kind == WeightedKind::kFloat32) {
    FloatActivationRange(options.activation, &p.float_activation_min, &p.float_activation_max);
    *params = p;
    return Status::Ok();
  }
  TFLM_ARENA_RETURN_IF_ERROR(
      RequireQuantizedWeighted(kOp, input, "filter", filter, output, out.depth, 0));
  TFLM_ARENA_RETURN_IF_ERROR(CheckPerChannelMultipliers(kOp, TensorScale(input), filter.scale,
                                                        TensorScale(output), out.depth));
  if (kind == WeightedKind::kInt16) {
    // TFLM's int16 kernel ignores both zero points.
    TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "input", input));
    TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "output", output));
  } else {
    p.input_offset = -TensorZeroPoint(input);
    p.output_offset = TensorZeroPoint(output);
  }
  TFLM_ARENA_RETURN_IF_ERROR(QuantizedActivationRange(
      options.activation, output.type, TensorScale(output), TensorZeroPoint(output),
      &p.quantized_activation_min, &p.quantized_activation_max));
  *params = p;
  return Status::Ok();
}

void TransposeConvFloat(const ConvParams& params, const Shape4& input_shape, const float* input,
                        const Shape4& filter_shape, const float* filter, const float* bias,
                        const Shape4& output_shape, float* output) {
  const size_t n = ElementCount(output_shape);
  for (size_t i = 0; i < n; ++i) output[i] = 0.0f;
  Scatter(params, input_shape, input, filter_shape, filter, output_shape, output,
          [](float acc, float x, float w) { return acc + x * w; });
  const size_t depth = static_cast<size_t>(output_shape.depth);
  for (size_t i = 0; i < n; ++i) {
    float acc = output[i];
    if (bias != nullptr) acc += bias[i % depth];
    output[i] = ApplyActivation(acc, params.float_activation_min, params.float_activation_max);
  }
}

void TransposeConvInt8(const ConvParams& params, const int32_t* multipliers, const int32_t* shifts,
                       const Shape4& input_shape, const int8_t* input, const Shape4& filter_shape,
                       const int8_t* filter, const int32_t* bias, const Shape4& output_shape,
                       int8_t* output, int32_t* scratch) {
  const size_t n = ElementCount(output_shape);
  std::memset(scratch, 0, n * sizeof(int32_t));
  const int32_t input_offset = params.input_offset;
  Scatter(params, input_shape, input, filter_shape, filter, output_shape, scratch,
          [input_offset](int32_t acc, int8_t x, int8_t w) {
            return WrappingAdd(acc, (static_cast<int32_t>(x) + input_offset) * w);
          });
  const size_t depth = static_cast<size_t>(output_shape.depth);
  for (size_t i = 0; i < n; ++i) {
    const size_t c = i % depth;
    int32_t acc = scratch[i];
    if (bias != nullptr) acc = WrappingAdd(acc, bias[c]);
    acc = MultiplyByQuantizedMultiplier(acc, multipliers[c], shifts[c]);
    acc = ApplyActivation(WrappingAdd(acc, params.output_offset), params.quantized_activation_min,
                          params.quantized_activation_max);
    output[i] = static_cast<int8_t>(acc);
  }
}

void TransposeConvInt16(const ConvParams& params, const int32_t* multipliers, const int32_t* shifts,
                        const Shape4& input_shape, const int16_t* input, const Shape4& filter_shape,
                        const int8_t* filter, const int64_t* bias, const Shape4& output_shape,
                        int16_t* output, int64_t* scratch) {
  const size_t n = ElementCount(output_shape);
  std::memset(scratch, 0, n * sizeof(int64_t));
  Scatter(params, input_shape, input, filter_shape, filter, output_shape, scratch,
          [](int64_t acc, int16_t x, int8_t w) {
            return Accumulate(acc, static_cast<int64_t>(x) * w);
          });
  const size_t depth = static_cast<size_t>(output_shape.depth);
  for (size_t i = 0; i < n; ++i) {
    const size_t c = i % depth;
    int64_t acc = scratch[i];
    if (bias != nullptr) acc = Accumulate(acc, bias[c]);
    const int32_t scaled = MultiplyByQuantizedMultiplier64(acc, multipliers[c], shifts[c]);
    output[i] = static_cast<int16_t>(
        ApplyActivation(scaled, params.quantized_activation_min, params.quantized_activation_max));
  }
}

}  // namespace runtime
}  // namespace tflm_arena
