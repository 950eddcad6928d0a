#include "tflm_arena/runtime/kernels/conv_common.h"

#include <cstdint>

#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

// input scale x filter scale (channel i, or the one per-tensor scale) /
// output scale: the real multiplier both functions below quantize.
double EffectiveScale(float input_scale, Span<const float> filter_scales, float output_scale,
                      int32_t i) {
  const float filter_scale =
      filter_scales.size() > 1 ? filter_scales[static_cast<size_t>(i)] : filter_scales[0];
  return static_cast<double>(input_scale) * static_cast<double>(filter_scale) /
         static_cast<double>(output_scale);
}

}  // namespace

void PerChannelMultipliers(float input_scale, Span<const float> filter_scales, float output_scale,
                           int32_t num_channels, int32_t* multipliers, int32_t* shifts) {
  for (int32_t i = 0; i < num_channels; ++i) {
    const double effective = EffectiveScale(input_scale, filter_scales, output_scale, i);
    int shift = 0;
    QuantizeMultiplier(effective, &multipliers[i], &shift);
    shifts[i] = shift;
  }
}

Status CheckWindow(const char* op, int32_t stride_w, int32_t stride_h, int32_t dilation_w,
                   int32_t dilation_h) {
  if (stride_w < 1 || stride_h < 1) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: stride (w %d, h %d) must be >= 1", op,
                         stride_w, stride_h);
  }
  if (dilation_w < 1 || dilation_h < 1) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: dilation (w %d, h %d) must be >= 1", op,
                         dilation_w, dilation_h);
  }
  return Status::Ok();
}

Status CheckConvOutputSize(const char* op, model::Padding padding, const Shape4& in,
                           const Shape4& filter, int32_t stride_w, int32_t stride_h,
                           int32_t dilation_w, int32_t dilation_h, const Shape4& out) {
  const int64_t eff_h = (static_cast<int64_t>(filter.height) - 1) * dilation_h + 1;
  const int64_t eff_w = (static_cast<int64_t>(filter.width) - 1) * dilation_w + 1;
  if (eff_h > INT32_MAX || eff_w > INT32_MAX) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: dilated filter (%lld x %lld) does not fit int32", op,
                         static_cast<long long>(eff_h), static_cast<long long>(eff_w));
  }
  const int32_t want_h = ComputeOutSize(padding, in.height, filter.height, stride_h, dilation_h);
  const int32_t want_w = ComputeOutSize(padding, in.width, filter.width, stride_w, dilation_w);
  if (out.height != want_h || out.width != want_w) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output height x width %d x %d differs from the computed %d x %d "
                         "(input %d x %d, filter %d x %d, stride %d x %d, dilation %d x %d, %s "
                         "padding)",
                         op, out.height, out.width, want_h, want_w, in.height, in.width,
                         filter.height, filter.width, stride_h, stride_w, dilation_h, dilation_w,
                         padding == model::Padding::kSame ? "SAME" : "VALID");
  }
  return Status::Ok();
}

Status CheckPerChannelMultipliers(const char* op, float input_scale,
                                  Span<const float> filter_scales, float output_scale,
                                  int32_t num_channels) {
  for (int32_t i = 0; i < num_channels; ++i) {
    const double effective = EffectiveScale(input_scale, filter_scales, output_scale, i);
    int32_t multiplier = 0;
    int shift = 0;
    TFLM_ARENA_RETURN_IF_ERROR(
        CheckedQuantizeMultiplier(op, "output (per-channel)", effective, &multiplier, &shift));
  }
  return Status::Ok();
}

Status RequireQuantized(const char* op, const char* role, const model::TensorInfo& t) {
  if (t.scale.empty()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: %s tensor '%s' of type %s has no quantization parameters", op, role,
                         t.name, model::TensorTypeName(t.type));
  }
  return Status::Ok();
}

Status RequireRank(const char* op, const char* role, const model::TensorInfo& t, size_t rank) {
  if (t.shape.size() != rank) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: %s tensor '%s' has rank %zu, expected %zu", op, role, t.name,
                         t.shape.size(), rank);
  }
  return Status::Ok();
}

Status RequireConvShapes(const char* op, const model::TensorInfo& input,
                         const model::TensorInfo& filter, const model::TensorInfo& output,
                         Shape4* in, Shape4* filter_shape, Shape4* out) {
  TFLM_ARENA_RETURN_IF_ERROR(RequireRank(op, "input", input, 4));
  TFLM_ARENA_RETURN_IF_ERROR(RequireRank(op, "filter", filter, 4));
  TFLM_ARENA_RETURN_IF_ERROR(RequireRank(op, "output", output, 4));
  *in = MakeShape4(input.shape.data());
  *filter_shape = MakeShape4(filter.shape.data());
  *out = MakeShape4(output.shape.data());
  // The window loops run over the filter's extents one by one: an empty
  // filter with a huge extent elsewhere (8x67108867x0x16, found by fuzzing)
  // would spin for hours computing nothing.
  if (filter.num_elements == 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: filter has no elements (shape %dx%dx%dx%d)", op,
                         static_cast<int>(filter.shape[0]), static_cast<int>(filter.shape[1]),
                         static_cast<int>(filter.shape[2]), static_cast<int>(filter.shape[3]));
  }
  return Status::Ok();
}

Status ClassifyWeightedTypes(const char* op, const model::TensorInfo& input,
                             const model::TensorInfo& weights, const model::TensorInfo& output,
                             bool allow_int16, WeightedKind* kind) {
  using model::TensorType;
  if (input.type == TensorType::kFloat32 && weights.type == TensorType::kFloat32 &&
      output.type == TensorType::kFloat32) {
    *kind = WeightedKind::kFloat32;
    return Status::Ok();
  }
  if (input.type == TensorType::kInt8 && weights.type == TensorType::kInt8 &&
      output.type == TensorType::kInt8) {
    *kind = WeightedKind::kInt8;
    return Status::Ok();
  }
  if (allow_int16 && input.type == TensorType::kInt16 && weights.type == TensorType::kInt8 &&
      output.type == TensorType::kInt16) {
    *kind = WeightedKind::kInt16;
    return Status::Ok();
  }
  return Status::Error(StatusCode::kUnimplemented,
                       "%s: input %s, weights %s, output %s not supported (supported: all "
                       "FLOAT32, all INT8%s)",
                       op, model::TensorTypeName(input.type), model::TensorTypeName(weights.type),
                       model::TensorTypeName(output.type),
                       allow_int16 ? ", INT16 with INT8 weights" : "");
}

Status CheckBias(const char* op, const model::TensorInfo* bias, WeightedKind kind,
                 int64_t channels) {
  if (bias == nullptr) return Status::Ok();
  using model::TensorType;
  bool ok = false;
  const char* want = "";
  switch (kind) {
    case WeightedKind::kFloat32:
      ok = bias->type == TensorType::kFloat32;
      want = "FLOAT32";
      break;
    case WeightedKind::kInt8:
      ok = bias->type == TensorType::kInt32;
      want = "INT32";
      break;
    case WeightedKind::kInt16:
      ok = bias->type == TensorType::kInt32 || bias->type == TensorType::kInt64;
      want = "INT32 or INT64";
      break;
  }
  if (!ok) {
    return Status::Error(StatusCode::kUnimplemented, "%s: bias type %s not supported (need %s)", op,
                         model::TensorTypeName(bias->type), want);
  }
  if (static_cast<int64_t>(bias->num_elements) != channels) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: bias '%s' has %llu elements, expected %lld (output channels)", op,
                         bias->name, static_cast<unsigned long long>(bias->num_elements),
                         static_cast<long long>(channels));
  }
  return Status::Ok();
}

Status CheckFilterScales(const char* op, const model::TensorInfo& filter, int32_t channels,
                         int32_t expected_dimension) {
  const size_t n = filter.scale.size();
  if (n == 1) return Status::Ok();
  const int32_t qd = filter.quantized_dimension;
  const bool along_qd = qd >= 0 && static_cast<size_t>(qd) < filter.shape.size() &&
                        filter.shape[static_cast<size_t>(qd)] == channels;
  if (n != static_cast<size_t>(channels) || !along_qd) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: filter '%s' has %zu scales along dimension %d; expected 1 or %d "
                         "along dimension %d",
                         op, filter.name, n, qd, channels, expected_dimension);
  }
  return Status::Ok();
}

Status RequireQuantizedWeighted(const char* op, const model::TensorInfo& input,
                                const char* weights_role, const model::TensorInfo& weights,
                                const model::TensorInfo& output, int32_t channels,
                                int32_t expected_dimension) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(op, "input", input));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(op, weights_role, weights));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(op, "output", output));
  return CheckFilterScales(op, weights, channels, expected_dimension);
}

}  // namespace runtime
}  // namespace tflm_arena
