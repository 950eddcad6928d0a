// DEQUANTIZE kernel glue (math in dequantize_math.cc).
#include "tflm_arena/runtime/kernels/dequantize.h"

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "DEQUANTIZE";

Status DequantizePrepare(KernelContext& context, Node& node) {
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryNodeInfo(context, node, kOp, &in, &out));
  const bool in_ok = in.type == TensorType::kInt8 || in.type == TensorType::kInt16 ||
                     in.type == TensorType::kUint8;
  if (!in_ok || out.type != TensorType::kFloat32) {
    return Status::Error(StatusCode::kUnimplemented, "%s: input %s, output %s not supported", kOp,
                         model::TensorTypeName(in.type), model::TensorTypeName(out.type));
  }
  TFLM_ARENA_RETURN_IF_ERROR(RequireSameElementCount(kOp, in, out));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input", in));
  auto* data = static_cast<DequantizeOpData*>(node.user_data);
  data->input_params.zero_point = TensorZeroPoint(in);
  data->input_params.scale = static_cast<double>(TensorScale(in));
  data->output_zero_point = TensorZeroPoint(out);
  return Status::Ok();
}

Status DequantizeInvoke(KernelContext& context, Node& node) {
  EvalTensor* in = nullptr;
  EvalTensor* out = nullptr;
  size_t n = 0;
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryTensors(context, node, kOp, &in, &out, &n));
  const auto* data = static_cast<const DequantizeOpData*>(node.user_data);
  const double scale = data->input_params.scale;
  const int32_t zp = data->input_params.zero_point;
  switch (in->type) {
    case TensorType::kInt8:
      Dequantize(in->as<const int8_t>(), n, scale, zp, out->as<float>());
      return Status::Ok();
    case TensorType::kInt16:
      Dequantize(in->as<const int16_t>(), n, scale, zp, out->as<float>());
      return Status::Ok();
    case TensorType::kUint8:
      Dequantize(in->as<const uint8_t>(), n, scale, zp, out->as<float>());
      return Status::Ok();
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: input %s, output %s not supported", kOp,
                           model::TensorTypeName(in->type), model::TensorTypeName(out->type));
  }
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinDequantize, kOp, InitOpData<DequantizeOpData>,
                     DequantizePrepare, DequantizeInvoke);

}  // namespace

const KernelRegistration& Register_DEQUANTIZE() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
