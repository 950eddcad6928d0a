// TANH glue: init / prepare / invoke over KernelContext (math shared with
// the other of LOGISTIC / TANH in sigmoid_math.cc). No builtin options.
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/sigmoid.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "TANH";

Status TanhPrepare(KernelContext& context, Node& node) {
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryNodeInfo(context, node, kOp, &in, &out));
  TFLM_ARENA_RETURN_IF_ERROR(PrepareSigmoid(kOp, SigmoidKind::kTanh, in, out,
                                            static_cast<SigmoidOpData*>(node.user_data)));
  return RequireSameElementCount(kOp, in, out);
}

Status TanhInvoke(KernelContext& context, Node& node) {
  static constexpr UnaryTypedFns<SigmoidOpData> kFns = {TanhFloat, TanhInt8, TanhInt16};
  return InvokeUnaryTyped(context, node, kOp, kFns);
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinTanh, kOp, InitOpData<SigmoidOpData>, TanhPrepare, TanhInvoke);

}  // namespace

const KernelRegistration& Register_TANH() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
