// TRANSPOSE glue: prepare / invoke over KernelContext (math in
// transpose_math.cc). No init and no OpData, as TFLM: invoke reads the
// (constant, prepare-checked) perm tensor again.
#include "tflm_arena/runtime/kernels/transpose.h"

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "TRANSPOSE";
constexpr TensorType kTypes[] = {TensorType::kFloat32, TensorType::kInt8, TensorType::kInt16};

Status TransposePrepare(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 2, 2, 1, 2));
  model::TensorInfo in, perm_info, out;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 1, &perm_info));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireType(kOp, "input", in.type, kTypes, 3));
  TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(kOp, "input", in, "output", out));
  const int32_t* perm = nullptr;
  size_t count = 0;
  TFLM_ARENA_RETURN_IF_ERROR(ConstInt32Input(context, node, 1, kOp, "perm", &perm, &count));
  if (perm_info.shape.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: perm has rank %zu, needs 1", kOp,
                         perm_info.shape.size());
  }
  return PrepareTranspose(in.shape.data(), static_cast<int>(in.shape.size()), perm, count,
                          out.shape.data(), static_cast<int>(out.shape.size()));
}

Status TransposeInvoke(KernelContext& context, Node& node) {
  const EvalTensor* in = context.input(node, 0);
  const EvalTensor* perm = context.input(node, 1);
  EvalTensor* out = context.output(node, 0);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, in));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, perm));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, out));
  if (in->rank > kTransposeMaxRank || perm->num_elements() != in->rank) {
    return NodeNotPrepared(kOp);
  }
  TransposeCopy(in->dims, in->rank, perm->as<const int32_t>(), model::ElementByteSize(in->type),
                in->data, out->data);
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinTranspose, kOp, nullptr, TransposePrepare, TransposeInvoke);

}  // namespace

const KernelRegistration& Register_TRANSPOSE() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
