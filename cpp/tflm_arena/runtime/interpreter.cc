// Interpreter: construction, the AllocateTensors() sequence, the kernel
// phases (init, prepare, invoke, reset) and the accessors. The allocation
// steps themselves are in model_allocation.cc and memory_planning.cc.
#include "tflm_arena/runtime/interpreter.h"

#include <cstring>
#include <new>

#include "tflm_arena/core/align.h"
#include "tflm_arena/runtime/runtime_util.h"

namespace tflm_arena {
namespace runtime {
namespace {

using internal::Annotate;
using internal::OpName;

// Bytes handed to the allocator: the start is aligned up by the allocator;
// we round what remains down to a multiple of 16 so that the tail's padding
// (relative to absolute addresses) is the same for every arena size.
size_t UsableSize(const uint8_t* arena, size_t size) {
  if (arena == nullptr) return 0;
  const uintptr_t raw = reinterpret_cast<uintptr_t>(arena);
  const size_t slack = (kArenaAlignment - raw % kArenaAlignment) % kArenaAlignment;
  if (slack >= size) return size;  // nothing usable either way
  return slack + AlignSizeDown(size - slack, kArenaAlignment);
}

}  // namespace

Interpreter::Interpreter(const model::Model& model, const OpResolver& resolver, uint8_t* arena,
                         size_t arena_size, const InterpreterOptions& options)
    : model_(model),
      resolver_(resolver),
      options_(options),
      arena_(arena, UsableSize(arena, arena_size)),
      context_(this) {
  if (options_.recording) arena_.set_recorder(&recorder_);
  if (model_.loaded()) {
    num_subgraphs_ = model_.num_subgraphs();
    model::SubgraphInfo g;
    if (model_.subgraph(0, &g).ok()) {
      inputs_ = g.inputs;
      outputs_ = g.outputs;
    }
  }
}

// ---------------------------------------------------------------------------
// AllocateTensors

Status Interpreter::AllocateTensors() {
  switch (state_) {
    case State::kReady:
      return Status::Ok();
    case State::kFailed:
      return error_;
    case State::kAllocating:
      return Status::Error(StatusCode::kFailedPrecondition,
                           "AllocateTensors() called while tensors are being "
                           "allocated (from a kernel?)");
    case State::kCreated:
      break;
  }
  state_ = State::kAllocating;
  Status s = RunAllocation();
  if (!s.ok()) return Fail(s);
  state_ = State::kReady;
  s = Reset();
  if (!s.ok()) return Fail(s);
  return Status::Ok();
}

Status Interpreter::RunAllocation() {
  if (!model_.loaded()) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "AllocateTensors: the model is not loaded");
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckKernels());
  TFLM_ARENA_RETURN_IF_ERROR(StartModelAllocation());
  TFLM_ARENA_RETURN_IF_ERROR(CheckDataFlow());
  TFLM_ARENA_RETURN_IF_ERROR(InitNodes());
  TFLM_ARENA_RETURN_IF_ERROR(PrepareNodes());
  return FinishModelAllocation();
}

Status Interpreter::Fail(const Status& error) {
  phase_ = Phase::kNone;
  current_node_ = nullptr;
  error_ = error;
  // The allocator reports usable bytes; ours are a multiple of 16, so no
  // arena (with a 16-aligned start) smaller than this rounding can do.
  if (error_.code() == StatusCode::kArenaTooSmall && error_.needed_bytes() > 0) {
    error_.set_needed_bytes(AlignSizeUp(error_.needed_bytes(), kArenaAlignment));
  }
  state_ = State::kFailed;
  return error_;
}

// One loop for the init, prepare and reset phases (flash: one copy).
// `step` runs for every node, subgraph by subgraph, with current_node_ set;
// the first error ends the phase.
Status Interpreter::ForEachNode(Phase phase, Status (*step)(Interpreter*, Node&)) {
  phase_ = phase;
  for (size_t sg = 0; sg < num_subgraphs_; ++sg) {
    current_subgraph_ = static_cast<uint32_t>(sg);
    for (size_t i = 0; i < model_.num_operators(sg); ++i) {
      Node& node = subgraphs_[sg].nodes[i];
      current_node_ = &node;
      TFLM_ARENA_RETURN_IF_ERROR(step(this, node));
    }
  }
  phase_ = Phase::kNone;
  current_node_ = nullptr;
  return Status::Ok();
}

Status Interpreter::InitNodes() {
  return ForEachNode(Phase::kInit, [](Interpreter* self, Node& node) {
    if (node.registration->init == nullptr) return Status::Ok();
    Status s = node.registration->init(self->context_, node);
    if (!s.ok()) {
      return Annotate(s, "operator %u (%s, subgraph %u) failed to init", node.index,
                      OpName(node.registration->builtin_code), node.subgraph);
    }
    return s;
  });
}

Status Interpreter::PrepareNodes() {
  return ForEachNode(Phase::kPrepare, [](Interpreter* self, Node& node) {
    self->node_request_start_ = self->request_count_;
    if (node.registration->prepare != nullptr) {
      Status s = node.registration->prepare(self->context_, node);
      if (!s.ok()) {
        return Annotate(s, "operator %u (%s, subgraph %u) failed to prepare", node.index,
                        OpName(node.registration->builtin_code), node.subgraph);
      }
    }
    TFLM_ARENA_RETURN_IF_ERROR(self->CheckDynamicOutputs(node));
    return self->FinishPrepareNode(node);
  });
}

// TFLM's FinishPrepareNodeAllocations (micro_allocator.cc).
Status Interpreter::FinishPrepareNode(const Node& node) {
  Status s = arena_.ResetTemp();
  if (!s.ok()) {
    return Annotate(s, "operator %u (%s, subgraph %u)", node.index,
                    OpName(node.registration->builtin_code), node.subgraph);
  }
  model::ScratchRequest* records = requests();
  for (size_t r = node_request_start_; r < request_count_; ++r) {
    records[r].node_idx = static_cast<int32_t>(node.index);
  }
  // Room for the next node's requests.
  const size_t head = (request_count_ + kMaxScratchBuffersPerNode) * sizeof(model::ScratchRequest);
  s = arena_.ResizeHead(head, kArenaAlignment);
  if (!s.ok()) {
    return Annotate(s,
                    "arena too small for the scratch-request records after "
                    "operator %u (%s, subgraph %u) (head)",
                    node.index, OpName(node.registration->builtin_code), node.subgraph);
  }
  return Status::Ok();
}

// TFLM's CheckDynamicTensors: every output dimension must be > 0, except
// the legacy scalar shape [0]; rank 0 is a scalar.
Status Interpreter::CheckDynamicOutputs(const Node& node) const {
  for (int32_t index : node.outputs) {
    const EvalTensor* t = LocalTensor(node.subgraph, index);
    if (t == nullptr || t->rank == 0) continue;
    if (t->rank == 1 && t->dims[0] == 0) continue;
    for (int32_t d = 0; d < t->rank; ++d) {
      if (t->dims[d] > 0) continue;
      return Status::Error(StatusCode::kUnimplemented,
                           "operator %u (%s, subgraph %u): output tensor %d has a dynamic "
                           "shape (dimension %d is %d); dynamic tensors are not supported",
                           node.index, OpName(node.registration->builtin_code), node.subgraph,
                           static_cast<int>(index), static_cast<int>(d),
                           static_cast<int>(t->dims[d]));
    }
  }
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// Invoke and Reset

Status Interpreter::Invoke() {
  if (phase_ != Phase::kNone) {
    return Status::Error(StatusCode::kFailedPrecondition, "Invoke() called from a kernel");
  }
  TFLM_ARENA_RETURN_IF_ERROR(AllocateTensors());
  phase_ = Phase::kInvoke;
  const Status result = RunSubgraph(0);
  phase_ = Phase::kNone;
  current_node_ = nullptr;
  current_subgraph_ = 0;
  return result;
}

// One subgraph's operators in order (TFLM's MicroInterpreterGraph::InvokeSubgraph).
Status Interpreter::RunSubgraph(size_t sg) {
  current_subgraph_ = static_cast<uint32_t>(sg);
  for (size_t i = 0; i < model_.num_operators(sg); ++i) {
    Node& node = subgraphs_[sg].nodes[i];
    current_node_ = &node;
    Status s = node.registration->invoke(context_, node);
    // As TFLM: temp is reset after every operator.
    Status reset = arena_.ResetTemp();
    if (!s.ok()) {
      return Annotate(s, "operator %zu (%s, subgraph %zu) failed to invoke", i,
                      OpName(node.registration->builtin_code), sg);
    }
    if (!reset.ok()) {
      return Annotate(reset, "after operator %zu (%s, subgraph %zu)", i,
                      OpName(node.registration->builtin_code), sg);
    }
  }
  return Status::Ok();
}

// A kernel running another subgraph (CALL_ONCE): only during Invoke, nested
// at most kMaxSubgraphDepth deep (a subgraph that calls itself would
// otherwise recurse until the stack overflows).
Status Interpreter::InvokeSubgraph(size_t sg) {
  if (phase_ != Phase::kInvoke) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "a subgraph can be invoked only during Invoke()");
  }
  if (sg >= num_subgraphs_) {
    return Status::Error(StatusCode::kInvalidArgument, "subgraph %zu does not exist (%zu)", sg,
                         num_subgraphs_);
  }
  if (subgraph_depth_ >= kMaxSubgraphDepth) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "subgraphs nested deeper than %zu (a subgraph that invokes itself?)",
                         kMaxSubgraphDepth);
  }
  const Node* node = current_node_;
  const uint32_t subgraph = current_subgraph_;
  ++subgraph_depth_;
  const Status s = RunSubgraph(sg);
  --subgraph_depth_;
  current_node_ = node;
  current_subgraph_ = subgraph;
  return s;
}

Status Interpreter::Reset() {
  if (state_ != State::kReady) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "Reset() needs a successful AllocateTensors()");
  }
  if (phase_ != Phase::kNone) {
    return Status::Error(StatusCode::kFailedPrecondition, "Reset() called from a kernel");
  }
  // Reset callbacks cannot fail.
  (void)ForEachNode(Phase::kReset, [](Interpreter* self, Node& node) {
    if (node.registration->reset != nullptr) node.registration->reset(self->context_, node);
    return Status::Ok();
  });
  ResetVariables();
  return Status::Ok();
}

// TFLM's ResetVariableTensors: 0, or the zero point for int8.
void Interpreter::ResetVariables() {
  for (size_t sg = 0; sg < num_subgraphs_; ++sg) {
    for (size_t t = 0; t < model_.num_tensors(sg); ++t) {
      const EvalTensor& e = subgraphs_[sg].tensors[t];
      size_t bytes = 0;
      if (!e.variable || e.data == nullptr || !model_.tensor_bytes(sg, t, &bytes).ok()) {
        continue;
      }
      int value = 0;
      model::TensorInfo info;
      if (e.type == model::TensorType::kInt8 && model_.tensor(sg, t, &info).ok() &&
          !info.zero_point.empty()) {
        value = static_cast<int>(static_cast<int8_t>(info.zero_point[0]));
      }
      memset(e.data, value, bytes);
    }
  }
}

// ---------------------------------------------------------------------------
// Accessors

EvalTensor* Interpreter::LocalTensor(uint32_t subgraph, int32_t index) const {
  if (subgraphs_ == nullptr || subgraph >= num_subgraphs_ || index < 0 ||
      static_cast<size_t>(index) >= model_.num_tensors(subgraph)) {
    return nullptr;
  }
  return subgraphs_[subgraph].tensors + index;
}

model::ScratchRequest* Interpreter::requests() const {
  return reinterpret_cast<model::ScratchRequest*>(arena_.head_start());
}

EvalTensor* Interpreter::input(size_t i) const {
  if (!allocated() || i >= inputs_.size()) return nullptr;
  return LocalTensor(0, inputs_[i]);
}

EvalTensor* Interpreter::output(size_t i) const {
  if (!allocated() || i >= outputs_.size()) return nullptr;
  return LocalTensor(0, outputs_[i]);
}

int32_t Interpreter::input_tensor_index(size_t i) const {
  return i < inputs_.size() ? inputs_[i] : -1;
}

int32_t Interpreter::output_tensor_index(size_t i) const {
  return i < outputs_.size() ? outputs_[i] : -1;
}

EvalTensor* Interpreter::tensor(size_t subgraph, size_t index) const {
  if (!allocated() || subgraph >= num_subgraphs_ || index >= model_.num_tensors(subgraph)) {
    return nullptr;
  }
  return subgraphs_[subgraph].tensors + index;
}

size_t Interpreter::required_arena_bytes() const {
  return allocated() ? AlignSizeUp(arena_.HighWaterTotal(), kArenaAlignment) : 0;
}

Status Interpreter::planned_buffer(size_t i, PlannedBuffer* out) const {
  if (out == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "planned_buffer: null output");
  }
  if (!allocated() || !options_.keep_plan) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "planned_buffer: the plan is kept only after a "
                         "successful AllocateTensors() with "
                         "InterpreterOptions::keep_plan");
  }
  if (i >= planned_count_) {
    return Status::Error(StatusCode::kOutOfRange, "planned buffer %zu out of range (%zu planned)",
                         i, planned_count_);
  }
  const PlanRecord& r = plan_records_[i];
  out->subgraph = r.subgraph;
  out->tensor = r.tensor;
  out->scratch_index = r.scratch_index;
  out->offset = r.offset;
  out->size = r.size;
  out->first = r.first;
  out->last = r.last;
  return Status::Ok();
}

RecordedAllocation Interpreter::recorded(AllocationCategory category) const {
  return options_.recording ? recorder_.GetRecordedAllocation(category) : RecordedAllocation();
}

int Interpreter::PrintAllocations(char* out, size_t out_size) const {
  if (!options_.recording) {
    if (out != nullptr && out_size > 0) out[0] = '\0';
    return -1;
  }
  return recorder_.PrintAllocations(arena_, out, out_size);
}

}  // namespace runtime
}  // namespace tflm_arena
