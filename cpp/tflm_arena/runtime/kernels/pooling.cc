// AVERAGE_POOL_2D / MAX_POOL_2D kernel glue (math in pooling_math.cc).
#include "tflm_arena/runtime/kernels/pooling.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/padding.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;

Status PoolPrepareNamed(KernelContext& context, Node& node, const char* op) {
  if (node.builtin_data == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: missing Pool2DOptions", op);
  }
  if (node.user_data == nullptr) {
    return NodeNotPrepared(op);
  }
  if (node.inputs.size() != 1 || node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: needs exactly 1 input and 1 output, got %zu and %zu", op,
                         node.inputs.size(), node.outputs.size());
  }
  if (node.inputs[0] < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: input 0 is omitted but required", op);
  }
  const PoolOptions& options = node.options<PoolOptions>();
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(op, out));
  if (in.shape.size() != 4 || out.shape.size() != 4) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: input and output must be 4-D (NHWC), got ranks %zu and %zu", op,
                         in.shape.size(), out.shape.size());
  }
  const bool supported = in.type == TensorType::kFloat32 || in.type == TensorType::kInt8 ||
                         in.type == TensorType::kInt16;
  if (!supported || out.type != in.type) {
    return Status::Error(StatusCode::kUnimplemented, "%s: input %s, output %s not supported", op,
                         model::TensorTypeName(in.type), model::TensorTypeName(out.type));
  }
  if (options.filter_w < 1 || options.filter_h < 1 || options.stride_w < 1 ||
      options.stride_h < 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: filter (w %d, h %d) and stride (w %d, h %d) must be >= 1", op,
                         options.filter_w, options.filter_h, options.stride_w, options.stride_h);
  }

  auto* data = static_cast<PoolingOpData*>(node.user_data);
  int32_t out_h = 0, out_w = 0;
  const PaddingValues pad = ComputePaddingHeightWidth(
      options.stride_h, options.stride_w, 1, 1, in.shape[1], in.shape[2], options.filter_h,
      options.filter_w, options.padding, &out_h, &out_w);
  // Invoke writes every (batch, y, x, channel) of the output: its shape must
  // be the one the op computes (a lying shape is rejected, not written).
  const int32_t expected[4] = {in.shape[0], out_h, out_w, in.shape[3]};
  if (!SameShape(out.shape, Span<const int32_t>(expected, 4))) {
    char got[64], want[64];
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output shape %s differs from the computed %s", op,
                         FormatShape(out.shape, got, sizeof(got)),
                         FormatShape(Span<const int32_t>(expected, 4), want, sizeof(want)));
  }
  data->padding_width = pad.width;
  data->padding_height = pad.height;
  data->padding_width_offset = pad.width_offset;
  data->padding_height_offset = pad.height_offset;

  if (in.type == TensorType::kFloat32) {
    FloatActivationRange(options.activation, &data->activation_min_f32, &data->activation_max_f32);
    return Status::Ok();
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(op, "input", in));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(op, "output", out));
  const double scale_diff =
      std::fabs(static_cast<double>(TensorScale(in)) - static_cast<double>(TensorScale(out)));
  if (!(scale_diff <= 1.0e-6) || TensorZeroPoint(in) != TensorZeroPoint(out)) {
    return Status::Error(
        StatusCode::kInvalidArgument,
        "%s: input and output quantization differ (scale %g vs %g, zero point "
        "%d vs %d)",
        op, static_cast<double>(TensorScale(in)), static_cast<double>(TensorScale(out)),
        static_cast<int>(TensorZeroPoint(in)), static_cast<int>(TensorZeroPoint(out)));
  }
  return QuantizedActivationRange(options.activation, out.type, TensorScale(out),
                                  TensorZeroPoint(out), &data->activation_min,
                                  &data->activation_max);
}

Status AveragePoolPrepare(KernelContext& context, Node& node) {
  return PoolPrepareNamed(context, node, "AVERAGE_POOL_2D");
}
Status MaxPoolPrepare(KernelContext& context, Node& node) {
  return PoolPrepareNamed(context, node, "MAX_POOL_2D");
}

// Geometry from the runtime tensors (as TFLM's eval reads them).
Status GatherGeometry(KernelContext& context, Node& node, const char* op, EvalTensor** in,
                      EvalTensor** out, PoolGeometry* g) {
  *in = context.input(node, 0);
  *out = context.output(node, 0);
  if (*in == nullptr || *out == nullptr || (*in)->data == nullptr || (*out)->data == nullptr ||
      node.user_data == nullptr || node.builtin_data == nullptr) {
    return NodeNotPrepared(op);
  }
  if ((*in)->rank != 4 || (*out)->rank != 4) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: tensors must be 4-D", op);
  }
  const PoolOptions& options = node.options<PoolOptions>();
  const auto* data = static_cast<const PoolingOpData*>(node.user_data);
  auto min32 = [](int32_t a, int32_t b) { return a < b ? a : b; };
  g->batches = min32((*in)->dim(0), (*out)->dim(0));
  g->depth = min32((*in)->dim(3), (*out)->dim(3));
  g->input_height = (*in)->dim(1);
  g->input_width = (*in)->dim(2);
  g->output_height = (*out)->dim(1);
  g->output_width = (*out)->dim(2);
  g->stride_height = options.stride_h;
  g->stride_width = options.stride_w;
  g->filter_height = options.filter_h;
  g->filter_width = options.filter_w;
  g->pad_height = data->padding_height;
  g->pad_width = data->padding_width;
  return Status::Ok();
}

Status AveragePoolInvoke(KernelContext& context, Node& node) {
  static const char* kOp = "AVERAGE_POOL_2D";
  EvalTensor* in = nullptr;
  EvalTensor* out = nullptr;
  PoolGeometry g;
  TFLM_ARENA_RETURN_IF_ERROR(GatherGeometry(context, node, kOp, &in, &out, &g));
  const auto* data = static_cast<const PoolingOpData*>(node.user_data);
  bool ok = false;
  switch (in->type) {
    case TensorType::kFloat32:
      ok = AveragePoolFloat(g, data->activation_min_f32, data->activation_max_f32,
                            in->as<const float>(), out->as<float>());
      break;
    case TensorType::kInt8:
      ok = AveragePoolInt8(g, data->activation_min, data->activation_max, in->as<const int8_t>(),
                           out->as<int8_t>());
      break;
    case TensorType::kInt16:
      ok = AveragePoolInt16(g, data->activation_min, data->activation_max, in->as<const int16_t>(),
                            out->as<int16_t>());
      break;
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", kOp,
                           model::TensorTypeName(in->type));
  }
  if (!ok) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: empty pooling window", kOp);
  }
  return Status::Ok();
}

Status MaxPoolInvoke(KernelContext& context, Node& node) {
  static const char* kOp = "MAX_POOL_2D";
  EvalTensor* in = nullptr;
  EvalTensor* out = nullptr;
  PoolGeometry g;
  TFLM_ARENA_RETURN_IF_ERROR(GatherGeometry(context, node, kOp, &in, &out, &g));
  const auto* data = static_cast<const PoolingOpData*>(node.user_data);
  switch (in->type) {
    case TensorType::kFloat32:
      MaxPoolFloat(g, data->activation_min_f32, data->activation_max_f32, in->as<const float>(),
                   out->as<float>());
      return Status::Ok();
    case TensorType::kInt8:
      MaxPoolInt8(g, data->activation_min, data->activation_max, in->as<const int8_t>(),
                  out->as<int8_t>());
      return Status::Ok();
    case TensorType::kInt16:
      MaxPoolInt16(g, data->activation_min, data->activation_max, in->as<const int16_t>(),
                   out->as<int16_t>());
      return Status::Ok();
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", kOp,
                           model::TensorTypeName(in->type));
  }
}

// Pool2DOptions: padding 0, stride_w 1, stride_h 2, filter_width 3,
// filter_height 4, fused_activation_function 5.
void ReadPool(model::OptionsTable& table, PoolOptions& o) {
  o.padding = static_cast<model::Padding>(table.UInt8(0, 0));
  o.stride_w = table.Int32(1, 0);
  o.stride_h = table.Int32(2, 0);
  o.filter_w = table.Int32(3, 0);
  o.filter_h = table.Int32(4, 0);
  o.activation = static_cast<model::Activation>(table.UInt8(5, 0));
}
constexpr OptionsParser kPoolOptions = OptionsReader<PoolOptions, ReadPool>(model::kPool2DOptions);

constexpr KernelRegistration kAveragePoolRegistration =
    MakeRegistration(model::kBuiltinAveragePool2D, "AVERAGE_POOL_2D", InitOpData<PoolingOpData>,
                     AveragePoolPrepare, AveragePoolInvoke, kPoolOptions);

constexpr KernelRegistration kMaxPoolRegistration =
    MakeRegistration(model::kBuiltinMaxPool2D, "MAX_POOL_2D", InitOpData<PoolingOpData>,
                     MaxPoolPrepare, MaxPoolInvoke, kPoolOptions);

}  // namespace

const KernelRegistration& Register_AVERAGE_POOL_2D() { return kAveragePoolRegistration; }

const KernelRegistration& Register_MAX_POOL_2D() { return kMaxPoolRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
