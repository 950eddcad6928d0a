#include "tflm_arena/model/operator_graph.h"

#include <cstring>
#include <vector>

#include "tflm_arena/core/align.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/lifetimes.h"

namespace tflm_arena {
namespace model {
namespace {

// Operators whose effect is not (only) their output tensors.
bool HasSideEffects(const OperatorInfo& op) {
  if (op.builtin_code == kBuiltinCustom) return true;
  const char* name = BuiltinCodeName(op.builtin_code);
  if (name == nullptr) return true;  // newer than our table: assume the worst
  for (const char* s : {"VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE"}) {
    if (std::strcmp(name, s) == 0) return true;
  }
  return false;
}

}  // namespace

Status BuildOperatorGraph(const Model& model, ReorderGraph* graph) {
  return BuildOperatorGraph(model, Span<const ScratchRequest>(), graph);
}

Status BuildOperatorGraph(const Model& model, Span<const ScratchRequest> scratch,
                          ReorderGraph* graph) {
  *graph = ReorderGraph();
  if (!model.loaded() || model.num_subgraphs() == 0) {
    return Status::Error(StatusCode::kFailedPrecondition, "model is not loaded");
  }
  SubgraphInfo sg;
  TFLM_ARENA_RETURN_IF_ERROR(model.subgraph(0, &sg));
  for (size_t i = 0; i < sg.num_operators; ++i) {
    OperatorInfo op;
    TFLM_ARENA_RETURN_IF_ERROR(model.op(0, i, &op));
    if (op.called.count > 0) {
      const char* name = BuiltinCodeName(op.builtin_code);
      return Status::Error(StatusCode::kUnimplemented,
                           "subgraph 0 operator %zu (%s) invokes subgraph %d: reordering operators "
                           "with control flow is not supported",
                           i, name == nullptr ? "?" : name, static_cast<int>(op.called.index[0]));
    }
  }
  std::vector<AllocationEntry> entries(AllocationInfoCount(model, scratch.size()));
  TFLM_ARENA_RETURN_IF_ERROR(ComputeModelAllocationInfo(  // also checks the requests
      model, scratch, Span<AllocationEntry>(entries.data(), entries.size())));
  const size_t num_tensors = model.total_tensors();
  graph->tensor_bytes.resize(num_tensors, 0);
  for (size_t t = 0; t < num_tensors; ++t) {
    if (entries[t].needs_allocating) {
      if (entries[t].bytes > kMaxTensorBytes) {
        return Status::Error(StatusCode::kInvalidArgument, "tensor %zu: %zu bytes is too large", t,
                             entries[t].bytes);
      }
      graph->tensor_bytes[t] = static_cast<int64_t>(AlignSizeUp(entries[t].bytes, kArenaAlignment));
    }
  }
  graph->inputs.assign(sg.inputs.begin(), sg.inputs.end());
  graph->outputs.assign(sg.outputs.begin(), sg.outputs.end());
  for (size_t t = 0; t < sg.num_tensors; ++t) {
    TensorInfo info;
    TFLM_ARENA_RETURN_IF_ERROR(model.tensor(0, t, &info));
    if (info.is_variable) graph->stateful_tensors.push_back(static_cast<int32_t>(t));
  }
  graph->ops.resize(sg.num_operators);
  for (size_t i = 0; i < sg.num_operators; ++i) {
    OperatorInfo op;
    TFLM_ARENA_RETURN_IF_ERROR(model.op(0, i, &op));
    ReorderOp& r = graph->ops[i];
    r.inputs.assign(op.inputs.begin(), op.inputs.end());
    r.outputs.assign(op.outputs.begin(), op.outputs.end());
    r.ordered = HasSideEffects(op);
  }
  for (const ScratchRequest& req : scratch) {
    const int64_t bytes = static_cast<int64_t>(AlignSizeUp(req.bytes, kArenaAlignment));
    if (req.subgraph_idx == 0) {
      graph->ops[req.node_idx].extra_bytes += bytes;
    } else {
      graph->tensor_bytes.push_back(bytes);
    }
  }
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena
