// LEAKY_RELU glue: options parsing, init / prepare / invoke over
// KernelContext (math in leaky_relu_math.cc).
#include "tflm_arena/runtime/kernels/leaky_relu.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "LEAKY_RELU";

// LeakyReluOptions: alpha 0.
void ReadLeakyRelu(model::OptionsTable& table, LeakyReluOptions& o) {
  o.alpha = table.Float(0, 0.0f);
}

float Alpha(const Node& node) {
  return node.builtin_data != nullptr ? node.options<LeakyReluOptions>().alpha : 0.0f;
}

Status LeakyReluPrepare(KernelContext& context, Node& node) {
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(
      GetSameTypeUnaryInfo(context, node, kOp, /*int16_ok=*/true, &in, &out));
  if (in.type == TensorType::kFloat32) return Status::Ok();
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input", in));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", out));
  return PrepareLeakyReluQuantized(Alpha(node), TensorScale(in), TensorZeroPoint(in),
                                   TensorScale(out), TensorZeroPoint(out),
                                   static_cast<LeakyReluOpData*>(node.user_data));
}

Status LeakyReluInvoke(KernelContext& context, Node& node) {
  EvalTensor* in = nullptr;
  EvalTensor* out = nullptr;
  size_t n = 0;
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryTensors(context, node, kOp, &in, &out, &n));
  const auto& data = *static_cast<const LeakyReluOpData*>(node.user_data);
  switch (in->type) {
    case TensorType::kFloat32:
      LeakyReluFloat(Alpha(node), n, in->as<const float>(), out->as<float>());
      return Status::Ok();
    case TensorType::kInt8:
      LeakyReluInt8(data, n, in->as<const int8_t>(), out->as<int8_t>());
      return Status::Ok();
    case TensorType::kInt16:
      LeakyReluInt16(data, n, in->as<const int16_t>(), out->as<int16_t>());
      return Status::Ok();
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", kOp,
                           model::TensorTypeName(in->type));
  }
}

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinLeakyRelu, kOp, InitOpData<LeakyReluOpData>, LeakyReluPrepare, LeakyReluInvoke,
    OptionsReader<LeakyReluOptions, ReadLeakyRelu>(model::kLeakyReluOptions));

}  // namespace

const KernelRegistration& Register_LEAKY_RELU() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
