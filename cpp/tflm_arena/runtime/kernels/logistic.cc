// LOGISTIC glue: init / prepare / invoke over KernelContext (math shared with
// the other of LOGISTIC / TANH in sigmoid_math.cc). No builtin options.
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/sigmoid.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "LOGISTIC";

Status LogisticPrepare(KernelContext& context, Node& node) {
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryNodeInfo(context, node, kOp, &in, &out));
  TFLM_ARENA_RETURN_IF_ERROR(PrepareSigmoid(kOp, SigmoidKind::kLogistic, in, out,
                                            static_cast<SigmoidOpData*>(node.user_data)));
  return RequireSameElementCount(kOp, in, out);
}

Status LogisticInvoke(KernelContext& context, Node& node) {
  static constexpr UnaryTypedFns<SigmoidOpData> kFns = {LogisticFloat, LogisticInt8, LogisticInt16};
  return InvokeUnaryTyped(context, node, kOp, kFns);
}

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinLogistic, kOp, InitOpData<SigmoidOpData>, LogisticPrepare, LogisticInvoke);

}  // namespace

const KernelRegistration& Register_LOGISTIC() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
