// KernelContext: what kernels may ask of the interpreter, with TFLM's phase
// rules (TFLM's MicroInterpreter states Init, Prepare, Invoke; its DCHECKs) enforced as errors
// instead of debug checks.
#include <new>

#include "tflm_arena/core/align.h"
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/runtime_util.h"

namespace tflm_arena {
namespace runtime {
namespace {

using internal::Annotate;
using internal::OpName;

const char* CurrentOpName(const Node* node) {
  return node == nullptr || node->registration == nullptr
             ? "?"
             : OpName(node->registration->builtin_code);
}

}  // namespace

// ---- any phase ----

EvalTensor* KernelContext::tensor(int32_t index) const {
  return interpreter_->LocalTensor(interpreter_->current_subgraph_, index);
}

EvalTensor* KernelContext::input(const Node& node, size_t i) const {
  if (i >= node.inputs.size()) return nullptr;
  return interpreter_->LocalTensor(node.subgraph, node.inputs[i]);
}

EvalTensor* KernelContext::output(const Node& node, size_t i) const {
  if (i >= node.outputs.size()) return nullptr;
  return interpreter_->LocalTensor(node.subgraph, node.outputs[i]);
}

Status KernelContext::tensor_info(const Node& node, int32_t index, model::TensorInfo* out) const {
  if (out == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "tensor_info: null output");
  }
  if (index < 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "tensor_info: index %d is an omitted optional tensor",
                         static_cast<int>(index));
  }
  return interpreter_->model_.tensor(node.subgraph, static_cast<size_t>(index), out);
}

Status KernelContext::input_info(const Node& node, size_t i, model::TensorInfo* out) const {
  if (i >= node.inputs.size()) {
    return Status::Error(StatusCode::kOutOfRange,
                         "input %zu out of range (operator %u has %zu inputs)", i, node.index,
                         node.inputs.size());
  }
  return tensor_info(node, node.inputs[i], out);
}

Status KernelContext::output_info(const Node& node, size_t i, model::TensorInfo* out) const {
  if (i >= node.outputs.size()) {
    return Status::Error(StatusCode::kOutOfRange,
                         "output %zu out of range (operator %u has %zu outputs)", i, node.index,
                         node.outputs.size());
  }
  return tensor_info(node, node.outputs[i], out);
}

Status KernelContext::custom_options(const Node& node, Span<const uint8_t>* out) const {
  model::OperatorInfo op;
  TFLM_ARENA_RETURN_IF_ERROR(interpreter_->model_.op(node.subgraph, node.index, &op));
  *out = op.custom_options;
  return Status::Ok();
}

// ---- init and prepare ----

Status KernelContext::AllocatePersistentBuffer(size_t bytes, void** out) {
  if (out == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "AllocatePersistentBuffer: null output");
  }
  *out = nullptr;
  Interpreter& it = *interpreter_;
  if (it.phase_ != Interpreter::Phase::kInit && it.phase_ != Interpreter::Phase::kPrepare) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "AllocatePersistentBuffer is only allowed in a "
                         "kernel's init or prepare");
  }
  uint8_t* p = nullptr;
  Status s = it.arena_.AllocatePersistent(bytes, kArenaAlignment,
                                          AllocationCategory::kPersistentBufferData, &p);
  if (!s.ok()) {
    // The interpreter adds the operator when the kernel passes this on.
    return Annotate(s, "arena too small for a kernel's persistent buffer (tail)");
  }
  *out = p;
  return Status::Ok();
}

// ---- prepare only ----

Status KernelContext::RequestScratchBufferInArena(size_t bytes, int* buffer_index) {
  if (buffer_index == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "RequestScratchBufferInArena: null output");
  }
  *buffer_index = -1;
  Interpreter& it = *interpreter_;
  const Node* node = it.current_node_;
  if (it.phase_ != Interpreter::Phase::kPrepare || node == nullptr) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "RequestScratchBufferInArena is only allowed in a "
                         "kernel's prepare");
  }
  if (it.request_count_ - it.node_request_start_ >= Interpreter::kMaxScratchBuffersPerNode) {
    return Status::Error(StatusCode::kOutOfRange,
                         "operator %u (%s, subgraph %u): scratch buffer request "
                         "exceeds the limit per operator (%zu)",
                         node->index, CurrentOpName(node), node->subgraph,
                         Interpreter::kMaxScratchBuffersPerNode);
  }
  if (bytes > static_cast<size_t>(INT32_MAX) - (kArenaAlignment - 1)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "operator %u (%s, subgraph %u): scratch buffer of %zu "
                         "bytes is more than the planner's int range",
                         node->index, CurrentOpName(node), node->subgraph, bytes);
  }
  // The head holds room for 12 pending records (resized after each node).
  if ((it.request_count_ + 1) * sizeof(model::ScratchRequest) > it.arena_.head_size()) {
    return Status::Error(StatusCode::kInternal, "scratch-request records exceed the head buffer");
  }
  model::ScratchRequest* r = new (it.requests() + it.request_count_) model::ScratchRequest();
  r->bytes = bytes;
  r->node_idx = -1;  // stamped after the node's prepare (TFLM's FinishPrepareNodeAllocations)
  r->subgraph_idx = static_cast<int32_t>(node->subgraph);
  *buffer_index = static_cast<int>(it.request_count_++);
  return Status::Ok();
}

// The temp chain is a bump allocator whose memory comes back only at the
// next ResetTemp (after this node's prepare). Marking the buffer released
// right away keeps that reset legal without the kernel having to free it.
Status KernelContext::AllocateTempBuffer(size_t bytes, size_t alignment, uint8_t** out) {
  if (out == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "AllocateTempBuffer: null output");
  }
  *out = nullptr;
  Interpreter& it = *interpreter_;
  if (it.phase_ != Interpreter::Phase::kPrepare) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "AllocateTempBuffer is only allowed in a kernel's "
                         "prepare");
  }
  uint8_t* p = nullptr;
  Status s = it.arena_.AllocateTemp(bytes, alignment, &p);
  if (!s.ok()) {
    return Annotate(s, "arena too small for a kernel's temp buffer (temp)");
  }
  it.arena_.DeallocateTemp(p);
  *out = p;
  return Status::Ok();
}

// ---- invoke only ----

void* KernelContext::GetScratchBuffer(int buffer_index) const {
  const Interpreter& it = *interpreter_;
  if (it.phase_ != Interpreter::Phase::kInvoke || buffer_index < 0 ||
      static_cast<size_t>(buffer_index) >= it.request_count_ || it.scratch_handles_ == nullptr) {
    return nullptr;
  }
  return it.scratch_handles_[buffer_index];
}

Status KernelContext::InvokeSubgraph(size_t index) { return interpreter_->InvokeSubgraph(index); }

void** KernelContext::resource_variables() { return &interpreter_->resource_variables_; }

}  // namespace runtime
}  // namespace tflm_arena
