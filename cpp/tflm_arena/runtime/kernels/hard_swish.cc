// HARD_SWISH glue: init / prepare / invoke over KernelContext (math in
// hard_swish_math.cc). No builtin options.
#include "tflm_arena/runtime/kernels/hard_swish.h"

#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "HARD_SWISH";

Status HardSwishPrepare(KernelContext& context, Node& node) {
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(
      GetSameTypeUnaryInfo(context, node, kOp, /*int16_ok=*/false, &in, &out));
  if (in.type == TensorType::kFloat32) return Status::Ok();
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input", in));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", out));
  return PrepareHardSwishInt8(TensorScale(in), TensorZeroPoint(in), TensorScale(out),
                              TensorZeroPoint(out), static_cast<HardSwishOpData*>(node.user_data));
}

Status HardSwishInvoke(KernelContext& context, Node& node) {
  // No int16 path (TFLM has none).
  static constexpr UnaryTypedFns<HardSwishOpData> kFns = {HardSwishFloat, HardSwishInt8, nullptr};
  return InvokeUnaryTyped(context, node, kOp, kFns);
}

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinHardSwish, kOp, InitOpData<HardSwishOpData>, HardSwishPrepare, HardSwishInvoke);

}  // namespace

const KernelRegistration& Register_HARD_SWISH() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
