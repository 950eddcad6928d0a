// SPLIT_V: the input (input 0) cut along `axis` (a constant INT32 input 2)
// into parts whose extents are the outputs' own (TFLM's split_v.cc sizes
// every part from its output's dims; input 1, size_splits, is not read;
// num_splits is parsed but unused), for FLOAT32, INT8, INT16 and INT32.
//
// Prepare checks (TFLM's): three inputs, a constant axis; ours: INT32 with
// one element in [-rank, rank), every output of the input's type and rank,
// equal to the input off the axis, the axis extents adding up to the
// input's (TFLM only DCHECKs the sum).
//
// Memory per node, as TFLM: no init, no persistent memory; the 4-byte
// options struct (tail). Math: split_math.cc (SplitCopyParts).
#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"
#include "tflm_arena/runtime/kernels/split.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SPLIT_V";
constexpr TensorType kTypes[] = {TensorType::kFloat32, TensorType::kInt8, TensorType::kInt16,
                                 TensorType::kInt32};
constexpr int kMaxOutputs = 64;  // invoke's stack arrays

struct SplitVOptions {
  int32_t num_splits = 0;
};

void ReadSplitV(model::OptionsTable& table, SplitVOptions& o) { o.num_splits = table.Int32(0, 0); }

Status SplitVPrepare(KernelContext& context, Node& node) {
  if (node.outputs.empty() || node.outputs.size() > static_cast<size_t>(kMaxOutputs)) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: needs 1 to %d outputs, got %zu", kOp,
                         kMaxOutputs, node.outputs.size());
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 3, 3, node.outputs.size(), 3));
  const int32_t* axis = nullptr;
  size_t count = 0;
  TFLM_ARENA_RETURN_IF_ERROR(ConstInt32Input(context, node, 2, kOp, "axis", &axis, &count));
  model::TensorInfo in;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(RequireType(kOp, "input", in.type, kTypes, 4));
  const auto rank = static_cast<int32_t>(in.shape.size());
  if (count != 1 || axis[0] < -rank || axis[0] >= rank) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: axis must be one element in [%d, %d)",
                         kOp, -rank, rank);
  }
  const int32_t a = axis[0] < 0 ? axis[0] + rank : axis[0];
  int64_t sum = 0;
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    model::TensorInfo out;
    TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, i, &out));
    TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
    TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(kOp, "the input", in, "an output", out));
    if (out.shape.size() != in.shape.size()) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: output %zu has rank %zu, input %d",
                           kOp, i, out.shape.size(), static_cast<int>(rank));
    }
    for (int32_t d = 0; d < rank; ++d) {
      if (d != a && out.shape[d] != in.shape[d]) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "%s: output %zu dimension %d is %d, the input's %d", kOp, i,
                             static_cast<int>(d), out.shape[d], in.shape[d]);
      }
    }
    sum += out.shape[a];
  }
  if (sum != in.shape[a]) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: the outputs' axis extents add up to %lld, the input's is %d", kOp,
                         static_cast<long long>(sum), in.shape[a]);
  }
  return Status::Ok();
}

Status SplitVInvoke(KernelContext& context, Node& node) {
  const EvalTensor* in = context.input(node, 0);
  const EvalTensor* axis = context.input(node, 2);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, in));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, axis));
  const int n = static_cast<int>(node.outputs.size());
  if (n < 1 || n > kMaxOutputs || axis->num_elements() != 1) return NodeNotPrepared(kOp);
  int32_t a = axis->as<const int32_t>()[0];
  if (a < 0) a += in->rank;
  if (a < 0 || a >= in->rank) return NodeNotPrepared(kOp);
  size_t outer = 1, inner = model::ElementByteSize(in->type);
  for (int d = 0; d < a; ++d) outer *= static_cast<size_t>(in->dims[d]);
  for (int d = a + 1; d < in->rank; ++d) inner *= static_cast<size_t>(in->dims[d]);
  uint8_t* outputs[kMaxOutputs];
  size_t parts[kMaxOutputs];
  for (int i = 0; i < n; ++i) {
    EvalTensor* out = context.output(node, static_cast<size_t>(i));
    TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, out));
    if (out->rank != in->rank) return NodeNotPrepared(kOp);
    outputs[i] = out->data;
    parts[i] = inner * static_cast<size_t>(out->dims[a]);
  }
  SplitCopyParts(outer, parts, n, in->data, outputs);
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinSplitV, kOp, nullptr, SplitVPrepare, SplitVInvoke,
                     OptionsReader<SplitVOptions, ReadSplitV>(model::kSplitVOptions));

}  // namespace

const KernelRegistration& Register_SPLIT_V() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
