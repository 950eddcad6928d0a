// SPLIT glue: options parsing, prepare / invoke over KernelContext (math in
// split_math.cc). No init and no OpData, as TFLM.
#include "tflm_arena/runtime/kernels/split.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SPLIT";
constexpr TensorType kTypes[] = {TensorType::kFloat32, TensorType::kInt8, TensorType::kInt16,
                                 TensorType::kInt32};
constexpr int kMaxSplitOutputs = 64;  // invoke's stack array

// SplitOptions: num_splits 0.
void ReadSplit(model::OptionsTable& table, SplitOptions& o) { o.num_splits = table.Int32(0, 0); }

Status SplitPrepare(KernelContext& context, Node& node) {
  if (node.outputs.empty() || node.outputs.size() > static_cast<size_t>(kMaxSplitOutputs)) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: needs 1 to %d outputs, got %zu", kOp,
                         kMaxSplitOutputs, node.outputs.size());
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 2, 2, node.outputs.size(), 2));
  const int32_t* axis = nullptr;
  size_t count = 0;
  TFLM_ARENA_RETURN_IF_ERROR(ConstInt32Input(context, node, 0, kOp, "axis", &axis, &count));
  if (count != 1) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: axis has %zu elements, needs 1", kOp,
                         count);
  }
  model::TensorInfo in;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 1, &in));
  TFLM_ARENA_RETURN_IF_ERROR(RequireType(kOp, "input", in.type, kTypes, 4));
  const int n = static_cast<int>(node.outputs.size());
  for (int i = 0; i < n; ++i) {
    model::TensorInfo out;
    TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, static_cast<size_t>(i), &out));
    TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
    TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(kOp, "the input", in, "an output", out));
    int a = 0;
    TFLM_ARENA_RETURN_IF_ERROR(CheckSplitOutput(axis[0], n, in.shape.data(),
                                                static_cast<int>(in.shape.size()), out.shape.data(),
                                                static_cast<int>(out.shape.size()), &a));
  }
  return Status::Ok();
}

Status SplitInvoke(KernelContext& context, Node& node) {
  const EvalTensor* axis = context.input(node, 0);
  const EvalTensor* in = context.input(node, 1);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, axis));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, in));
  const int n = static_cast<int>(node.outputs.size());
  if (n < 1 || n > kMaxSplitOutputs || axis->num_elements() != 1) return NodeNotPrepared(kOp);
  int32_t a = axis->as<const int32_t>()[0];
  if (a < 0) a += in->rank;
  if (a < 0 || a >= in->rank) return NodeNotPrepared(kOp);
  uint8_t* outputs[kMaxSplitOutputs];
  for (int i = 0; i < n; ++i) {
    EvalTensor* out = context.output(node, static_cast<size_t>(i));
    TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, out));
    outputs[i] = out->data;
  }
  size_t outer = 1, part = model::ElementByteSize(in->type);
  for (int d = 0; d < a; ++d) outer *= static_cast<size_t>(in->dims[d]);
  for (int d = a + 1; d < in->rank; ++d) part *= static_cast<size_t>(in->dims[d]);
  part *= static_cast<size_t>(in->dims[a] / n);
  SplitCopy(outer, part, n, in->data, outputs);
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinSplit, kOp, nullptr, SplitPrepare, SplitInvoke,
                     OptionsReader<SplitOptions, ReadSplit>(model::kSplitOptions));

}  // namespace

const KernelRegistration& Register_SPLIT() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
