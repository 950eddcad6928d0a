// CAST glue: options parsing, prepare / invoke over KernelContext (math in
// cast_math.cc). No init: TFLM's CAST asks for no memory.
#include "tflm_arena/runtime/kernels/cast.h"

#include <new>

#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "CAST";

// CastOptions: in_data_type 0, out_data_type 1 (TensorType bytes).
void ReadCast(model::OptionsTable& table, CastOptions& o) {
  o.in_data_type = static_cast<model::TensorType>(table.UInt8(0, 0));
  o.out_data_type = static_cast<model::TensorType>(table.UInt8(1, 0));
}

Status CastPrepare(KernelContext& context, Node& node) {
  if (node.inputs.size() != 1 || node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: needs exactly 1 input and 1 output, got %zu and %zu", kOp,
                         node.inputs.size(), node.outputs.size());
  }
  if (node.inputs[0] < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: input 0 is omitted but required", kOp);
  }
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
  if (!CastInputSupported(in.type) || !CastOutputSupported(out.type)) {
    return Status::Error(StatusCode::kUnimplemented, "%s: input %s, output %s not supported", kOp,
                         model::TensorTypeName(in.type), model::TensorTypeName(out.type));
  }
  return RequireSameElementCount(kOp, in, out);
}

Status CastInvoke(KernelContext& context, Node& node) {
  const EvalTensor* in = context.input(node, 0);
  EvalTensor* out = context.output(node, 0);
  if (in == nullptr || out == nullptr) return NodeNotPrepared(kOp);
  const int64_t n = SafeElementCount(in->dims, static_cast<size_t>(in->rank));
  if (n != SafeElementCount(out->dims, static_cast<size_t>(out->rank))) {
    return NodeNotPrepared(kOp);
  }
  if (n == 0) return Status::Ok();
  if (in->data == nullptr || out->data == nullptr) return NodeNotPrepared(kOp);
  if (!CastElements(in->type, in->data, out->type, out->data, static_cast<size_t>(n))) {
    return Status::Error(StatusCode::kUnimplemented, "%s: input %s, output %s not supported", kOp,
                         model::TensorTypeName(in->type), model::TensorTypeName(out->type));
  }
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinCast, kOp, nullptr, CastPrepare, CastInvoke,
                     OptionsReader<CastOptions, ReadCast>(model::kCastOptions));

}  // namespace

const KernelRegistration& Register_CAST() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
