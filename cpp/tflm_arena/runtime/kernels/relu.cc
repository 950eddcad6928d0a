// RELU glue: init / prepare / invoke over KernelContext (math in
// relu_math.cc). No builtin options.
#include "tflm_arena/runtime/kernels/relu.h"

#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "RELU";

Status ReluPrepare(KernelContext& context, Node& node) {
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(
      GetSameTypeUnaryInfo(context, node, kOp, /*int16_ok=*/true, &in, &out));
  if (in.type == TensorType::kFloat32) return Status::Ok();
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input", in));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", out));
  if (in.type == TensorType::kInt16) {
    TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "input", in));
    TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "output", out));
  }
  return PrepareReluQuantized(in.type, TensorScale(in), TensorZeroPoint(in), TensorScale(out),
                              TensorZeroPoint(out), static_cast<ReluOpData*>(node.user_data));
}

Status ReluInvoke(KernelContext& context, Node& node) {
  static constexpr UnaryTypedFns<ReluOpData> kFns = {ReluFloat, ReluInt8, ReluInt16};
  return InvokeUnaryTyped(context, node, kOp, kFns);
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinRelu, kOp, InitOpData<ReluOpData>, ReluPrepare, ReluInvoke);

}  // namespace

const KernelRegistration& Register_RELU() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
