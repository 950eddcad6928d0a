// PACK glue: options parsing, prepare / invoke over KernelContext (math in
// pack_math.cc). No init, no OpData, as TFLM.
#include "tflm_arena/runtime/kernels/pack.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"
#include "tflm_arena/runtime/kernels/stack_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "PACK";
constexpr TensorType kTypes[] = {TensorType::kFloat32, TensorType::kInt8, TensorType::kInt16,
                                 TensorType::kInt32, TensorType::kInt64};

// PackOptions: values_count 0, axis 1.
void ReadPack(model::OptionsTable& table, PackOptions& o) {
  o.values_count = table.Int32(0, 0);
  o.axis = table.Int32(1, 0);
}

PackOptions Options(const Node& node) {
  return node.builtin_data != nullptr ? node.options<PackOptions>() : PackOptions();
}

Status PackPrepare(KernelContext& context, Node& node) {
  const PackOptions options = Options(node);
  if (options.values_count < 1 || options.values_count > kMaxStackPieces ||
      static_cast<size_t>(options.values_count) != node.inputs.size()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: values_count %d must equal the %zu inputs (1 to %d)", kOp,
                         options.values_count, node.inputs.size(), kMaxStackPieces);
  }
  TFLM_ARENA_RETURN_IF_ERROR(
      CheckArity(node, kOp, node.inputs.size(), node.inputs.size(), 1, node.inputs.size()));
  model::TensorInfo out, first;
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireType(kOp, "output", out.type, kTypes, 5));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &first));
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    model::TensorInfo in;
    TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, i, &in));
    TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(kOp, "an input", in, "the output", out));
    if (!SameShape(in.shape, first.shape)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: input %zu's shape differs from input 0's", kOp, i);
    }
  }
  int axis = 0;
  return CheckStackedShape(kOp, options.axis, options.values_count, first.shape.data(),
                           static_cast<int>(first.shape.size()), out.shape.data(),
                           static_cast<int>(out.shape.size()), &axis);
}

Status PackInvoke(KernelContext& context, Node& node) {
  const PackOptions options = Options(node);
  EvalTensor* out = context.output(node, 0);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, out));
  const int n = options.values_count;
  if (n < 1 || n > kMaxStackPieces || static_cast<size_t>(n) != node.inputs.size() ||
      out->rank < 1) {
    return NodeNotPrepared(kOp);
  }
  const uint8_t* pieces[kMaxStackPieces];
  for (int i = 0; i < n; ++i) {
    const EvalTensor* in = context.input(node, static_cast<size_t>(i));
    TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, in));
    pieces[i] = in->data;
  }
  const int axis = options.axis < 0 ? options.axis + out->rank : options.axis;
  if (axis < 0 || axis >= out->rank) return NodeNotPrepared(kOp);
  size_t outer = 0, inner = 0;
  StackRuns(*out, axis, &outer, &inner);
  StackCopy(outer, inner, n, pieces, out->data);
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinPack, kOp, nullptr, PackPrepare, PackInvoke,
                     OptionsReader<PackOptions, ReadPack>(model::kPackOptions));

}  // namespace

const KernelRegistration& Register_PACK() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
