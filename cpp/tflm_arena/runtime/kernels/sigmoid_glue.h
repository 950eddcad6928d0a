// LOGISTIC / TANH init / prepare / invoke over KernelContext, shared by
// logistic.cc and tanh.cc (they differ in the function and its math in
// sigmoid_math.cc). No builtin options.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGMOID_GLUE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGMOID_GLUE_H_

#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/sigmoid.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {

// The kernel of LOGISTIC or TANH (kKind): OpData SigmoidOpData, float32 /
// int8 / int16 math per kind.
template <SigmoidKind kKind>
struct SigmoidKernel {
  static constexpr bool kLogistic = kKind == SigmoidKind::kLogistic;
  static constexpr const char* kOp = kLogistic ? "LOGISTIC" : "TANH";
  static constexpr UnaryTypedFns<SigmoidOpData> kFns = {kLogistic ? LogisticFloat : TanhFloat,
                                                        kLogistic ? LogisticInt8 : TanhInt8,
                                                        kLogistic ? LogisticInt16 : TanhInt16};

  static Status Prepare(KernelContext& context, Node& node) {
    model::TensorInfo in, out;
    TFLM_ARENA_RETURN_IF_ERROR(GetUnaryNodeInfo(context, node, kOp, &in, &out));
    TFLM_ARENA_RETURN_IF_ERROR(
        PrepareSigmoid(kOp, kKind, in, out, static_cast<SigmoidOpData*>(node.user_data)));
    return RequireSameElementCount(kOp, in, out);
  }
  static Status Invoke(KernelContext& context, Node& node) {
    return InvokeUnaryTyped(context, node, kOp, kFns);
  }
  static constexpr KernelRegistration kRegistration =
      MakeRegistration(kLogistic ? model::kBuiltinLogistic : model::kBuiltinTanh, kOp,
                       InitOpData<SigmoidOpData>, Prepare, Invoke);
};

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGMOID_GLUE_H_
