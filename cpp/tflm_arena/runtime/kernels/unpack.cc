// UNPACK glue: options parsing, prepare / invoke over KernelContext (math in
// pack_math.cc). No init, no OpData, as TFLM.
#include "tflm_arena/runtime/kernels/unpack.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/pack.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"
#include "tflm_arena/runtime/kernels/stack_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "UNPACK";
constexpr TensorType kTypes[] = {TensorType::kFloat32, TensorType::kInt8, TensorType::kInt16,
                                 TensorType::kInt32};

// UnpackOptions: num 0, axis 1.
void ReadUnpack(model::OptionsTable& table, UnpackOptions& o) {
  o.num = table.Int32(0, 0);
  o.axis = table.Int32(1, 0);
}

UnpackOptions Options(const Node& node) {
  return node.builtin_data != nullptr ? node.options<UnpackOptions>() : UnpackOptions();
}

Status UnpackPrepare(KernelContext& context, Node& node) {
  const UnpackOptions options = Options(node);
  if (options.num < 1 || options.num > kMaxStackPieces ||
      static_cast<size_t>(options.num) != node.outputs.size()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: num %d must equal the %zu outputs (1 to %d)", kOp, options.num,
                         node.outputs.size(), kMaxStackPieces);
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 1, 1, node.outputs.size(), 1));
  model::TensorInfo in;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(RequireType(kOp, "input", in.type, kTypes, 4));
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    model::TensorInfo out;
    TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, i, &out));
    TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
    TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(kOp, "the input", in, "an output", out));
    int axis = 0;
    TFLM_ARENA_RETURN_IF_ERROR(CheckStackedShape(
        kOp, options.axis, options.num, out.shape.data(), static_cast<int>(out.shape.size()),
        in.shape.data(), static_cast<int>(in.shape.size()), &axis));
  }
  return Status::Ok();
}

Status UnpackInvoke(KernelContext& context, Node& node) {
  const UnpackOptions options = Options(node);
  const EvalTensor* in = context.input(node, 0);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, in));
  const int n = options.num;
  if (n < 1 || n > kMaxStackPieces || static_cast<size_t>(n) != node.outputs.size() ||
      in->rank < 1) {
    return NodeNotPrepared(kOp);
  }
  uint8_t* pieces[kMaxStackPieces];
  for (int i = 0; i < n; ++i) {
    EvalTensor* out = context.output(node, static_cast<size_t>(i));
    TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, out));
    pieces[i] = out->data;
  }
  const int axis = options.axis < 0 ? options.axis + in->rank : options.axis;
  if (axis < 0 || axis >= in->rank) return NodeNotPrepared(kOp);
  size_t outer = 0, inner = 0;
  StackRuns(*in, axis, &outer, &inner);
  UnstackCopy(outer, inner, n, in->data, pieces);
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinUnpack, kOp, nullptr, UnpackPrepare, UnpackInvoke,
                     OptionsReader<UnpackOptions, ReadUnpack>(model::kUnpackOptions));

}  // namespace

const KernelRegistration& Register_UNPACK() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
