// EXPAND_DIMS glue: prepare / invoke over KernelContext. No init, no
// OpData, no options, as TFLM.
#include "tflm_arena/runtime/kernels/expand_dims.h"

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/reshape.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "EXPAND_DIMS";
constexpr TensorType kTypes[] = {TensorType::kFloat32, TensorType::kInt8, TensorType::kInt16};

Status ExpandDimsPrepare(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 2, 2, 1, 2));
  model::TensorInfo in, axis_info, out;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 1, &axis_info));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireType(kOp, "input", in.type, kTypes, 3));
  TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(kOp, "input", in, "output", out));
  const int32_t* axis = nullptr;
  size_t count = 0;
  TFLM_ARENA_RETURN_IF_ERROR(ConstInt32Input(context, node, 1, kOp, "axis", &axis, &count));
  if (axis_info.shape.size() > 1 || count != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: axis must hold exactly one element (rank <= 1), has %zu", kOp, count);
  }
  return CheckExpandDims(axis[0], in.shape.data(), static_cast<int>(in.shape.size()),
                         out.shape.data(), static_cast<int>(out.shape.size()));
}

Status ExpandDimsInvoke(KernelContext& context, Node& node) {
  return InvokeCopyReshaped(context, node, kOp);
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinExpandDims, kOp, nullptr, ExpandDimsPrepare, ExpandDimsInvoke);

}  // namespace

const KernelRegistration& Register_EXPAND_DIMS() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
