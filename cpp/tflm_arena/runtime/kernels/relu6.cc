// RELU6 glue: init / prepare / invoke over KernelContext (math in
// relu_math.cc). No builtin options.
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/relu.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "RELU6";

Status Relu6Prepare(KernelContext& context, Node& node) {
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(
      GetSameTypeUnaryInfo(context, node, kOp, /*int16_ok=*/true, &in, &out));
  if (in.type == TensorType::kFloat32) return Status::Ok();
  // TFLM reads only the input's quantization (the output is not rescaled).
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input", in));
  PrepareRelu6Quantized(in.type, TensorScale(in), TensorZeroPoint(in),
                        static_cast<Relu6OpData*>(node.user_data));
  return Status::Ok();
}

Status Relu6Invoke(KernelContext& context, Node& node) {
  static constexpr UnaryTypedFns<Relu6OpData> kFns = {Relu6Float, Relu6Int8, Relu6Int16};
  return InvokeUnaryTyped(context, node, kOp, kFns);
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinRelu6, kOp, InitOpData<Relu6OpData>, Relu6Prepare, Relu6Invoke);

}  // namespace

const KernelRegistration& Register_RELU6() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
