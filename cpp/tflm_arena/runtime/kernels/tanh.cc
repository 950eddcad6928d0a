// TANH glue: init / prepare / invoke over KernelContext (math shared with
// the other of LOGISTIC / TANH in sigmoid_math.cc). No builtin options.
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/sigmoid.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "TANH";

Status TanhPrepare(KernelContext& context, Node& node) {
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryNodeInfo(context, node, kOp, &in, &out));
  TFLM_ARENA_RETURN_IF_ERROR(PrepareSigmoid(kOp, SigmoidKind::kTanh, in, out,
                                            static_cast<SigmoidOpData*>(node.user_data)));
  return RequireSameElementCount(kOp, in, out);
}

Status TanhInvoke(KernelContext& context, Node& node) {
  EvalTensor* in = nullptr;
  EvalTensor* out = nullptr;
  size_t n = 0;
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryTensors(context, node, kOp, &in, &out, &n));
  const auto& data = *static_cast<const SigmoidOpData*>(node.user_data);
  switch (in->type) {
    case TensorType::kFloat32:
      TanhFloat(n, in->as<const float>(), out->as<float>());
      return Status::Ok();
    case TensorType::kInt8:
      TanhInt8(data, n, in->as<const int8_t>(), out->as<int8_t>());
      return Status::Ok();
    case TensorType::kInt16:
      TanhInt16(data, n, in->as<const int16_t>(), out->as<int16_t>());
      return Status::Ok();
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", kOp,
                           model::TensorTypeName(in->type));
  }
}

}  // namespace

const KernelRegistration& Register_TANH() {
  static const KernelRegistration r = {model::kBuiltinTanh, kOp, InitOpData<SigmoidOpData>,
                                       TanhPrepare, TanhInvoke, nullptr, OptionsParser()};
  return r;
}

}  // namespace runtime
}  // namespace tflm_arena
