// See lifetimes.h for the algorithm and where it is stricter than TFLM.
#include "tflm_arena/model/lifetimes.h"

#include <cinttypes>

#include "tflm_arena/core/align.h"
#include "tflm_arena/model/step_operators.h"

namespace tflm_arena {
namespace model {
namespace {

#define TFLM_ARENA_INVALID(...) \
  ::tflm_arena::Status::Error(::tflm_arena::StatusCode::kInvalidArgument, __VA_ARGS__)

const char* OpName(BuiltinCode code) {
  const char* name = BuiltinCodeName(code);
  return name == nullptr ? "?" : name;
}

// The recursive "mark subgraph" walk of TFLM's micro_allocation_info.cc
// (MarkSubgraphLifetimesIfNecessary): a scope counter per operator, and
// scope += 1 before each subgraph an IF / WHILE / CALL_ONCE invokes. The one
// walk for both outputs: the lifetimes of the entries (kStepsOnly false), or
// the operator of each step (step_operators.h) into `steps`, as far as it
// holds (kStepsOnly true); steps() counts them all. A template parameter, not
// a flag, so that the device's instantiation carries no step bookkeeping.
template <bool kStepsOnly>
class Marker {
 public:
  Marker(const Model& model, Span<const ScratchRequest> scratch, Span<AllocationEntry> out,
         Span<StepOperator> steps)
      : model_(model), scratch_(scratch), out_(out), steps_(steps) {}

  Status Mark(uint32_t sg, size_t depth);
  size_t steps() const { return static_cast<size_t>(scope_); }

 private:
  // size_t, not uint64_t: no 64-bit arithmetic on 32-bit targets. Every
  // charge is a sum of a few list lengths of a <2 GiB flatbuffer, so it
  // fits; the limit test cannot wrap.
  bool Charge(size_t n) {
    if (n > kMaxWork - work_) return false;
    work_ += n;
    return true;
  }
  static constexpr size_t kMaxWork = static_cast<size_t>(kMaxLifetimeWork);
  Status TooMuchWork() const {
    return TFLM_ARENA_INVALID("lifetime computation exceeds %" PRIu64
                              " steps (control flow invokes subgraphs too many times)",
                              kMaxLifetimeWork);
  }
  void First(AllocationEntry* e, Step s) {
    if (e->first_created == kUninitializedLifetime) e->first_created = s;
  }
  // Takes the next step, run by operator `op` of subgraph `sg` (`calls`:
  // -1, or the subgraph it invokes after this step).
  void NextStep(uint32_t sg, size_t op, int32_t calls) {
    if (kStepsOnly) {
      const size_t index = static_cast<size_t>(scope_);
      if (index < steps_.size()) steps_[index] = StepOperator{sg, static_cast<uint32_t>(op), calls};
    }
    ++scope_;
  }
  Status CheckCall(uint32_t sg, size_t op, const OperatorInfo& info, int32_t callee,
                   size_t depth) const;

  const Model& model_;
  Span<const ScratchRequest> scratch_;
  Span<AllocationEntry> out_;
  Span<StepOperator> steps_;
  Step scope_ = 0;
  size_t work_ = 0;
  uint32_t path_[kMaxControlFlowDepth] = {};  // subgraphs being marked
};

template <bool kStepsOnly>
Status Marker<kStepsOnly>::CheckCall(uint32_t sg, size_t op, const OperatorInfo& info,
                                     int32_t callee, size_t depth) const {
  for (size_t d = 0; d <= depth; ++d) {
    if (path_[d] == static_cast<uint32_t>(callee)) {
      return TFLM_ARENA_INVALID("control-flow cycle: subgraph %" PRIu32
                                " operator %zu (%s) invokes "
                                "subgraph %" PRId32 ", which is already being executed",
                                sg, op, OpName(info.builtin_code), callee);
    }
  }
  if (depth + 1 >= kMaxControlFlowDepth) {
    return TFLM_ARENA_INVALID("subgraph %" PRIu32
                              " operator %zu (%s): control flow nests deeper "
                              "than %zu subgraphs",
                              sg, op, OpName(info.builtin_code), kMaxControlFlowDepth);
  }
  return Status::Ok();
}

template <bool kStepsOnly>
Status Marker<kStepsOnly>::Mark(uint32_t sg, size_t depth) {
  path_[depth] = sg;
  if (!Charge(sg + 1)) return TooMuchWork();  // subgraph() is O(sg)
  SubgraphInfo g;
  TFLM_ARENA_RETURN_IF_ERROR(model_.subgraph(sg, &g));
  AllocationEntry* t = kStepsOnly ? nullptr : out_.data() + g.first_tensor;

  // 1. Inputs are live from the start of the invocation.
  if (!Charge(g.inputs.size())) return TooMuchWork();
  if (!kStepsOnly) {
    for (int32_t in : g.inputs) {
      First(&t[in], scope_);
      t[in].last_used = scope_;
    }
  }
  for (size_t i = 0; i < g.num_operators; ++i) {
    OperatorInfo op;
    TFLM_ARENA_RETURN_IF_ERROR(model_.op(sg, i, &op));
    const size_t cost =
        1 + op.inputs.size() + 2 * op.outputs.size() + op.called.count + scratch_.size();
    if (!Charge(cost)) return TooMuchWork();
    // 2a-b. New scope; outputs are created here.
    NextStep(sg, i, -1);
    if (!kStepsOnly) {
      for (int32_t o : op.outputs) First(&t[o], scope_);
      // VAR_HANDLE's Prepare points its output's eval tensor at the
      // resource id in its OpData, and TFLM plans only tensors whose data
      // is still null (var_handle.cc; micro_allocation_info.cc). Set here,
      // on the walk, so the runtime's code stays small: a VAR_HANDLE in a
      // subgraph no operator invokes keeps its 4-byte handle planned.
      if (op.builtin_code == kBuiltinVarHandle && !op.outputs.empty()) {
        t[op.outputs[0]].needs_allocating = false;
      }
    }
    // 2c-d. Invoked subgraphs run inside this operator's scope range.
    const Step start = scope_;
    for (size_t k = 0; k < op.called.count; ++k) {
      const int32_t callee = op.called.index[k];
      TFLM_ARENA_RETURN_IF_ERROR(CheckCall(sg, i, op, callee, depth));
      NextStep(sg, i, callee);
      TFLM_ARENA_RETURN_IF_ERROR(Mark(static_cast<uint32_t>(callee), depth + 1));
    }
    if (kStepsOnly) continue;
    // 2e-f. Inputs and outputs live until the operator (and its subgraphs)
    // finished.
    for (int32_t in : op.inputs) {
      if (in >= 0) t[in].last_used = scope_;
    }
    for (int32_t o : op.outputs) t[o].last_used = scope_;
    // 2g. Scratch buffers of this node (O(nodes x requests), as TFLM).
    AllocationEntry* s = out_.data() + model_.total_tensors();
    for (size_t j = 0; j < scratch_.size(); ++j) {
      const ScratchRequest& r = scratch_[j];
      if (r.node_idx != static_cast<int32_t>(i) || r.subgraph_idx != static_cast<int32_t>(sg)) {
        continue;
      }
      s[j].bytes = r.bytes;
      First(&s[j], start);
      s[j].last_used = scope_;
    }
  }
  // 3. Outputs survive to the end of the invocation.
  if (!Charge(g.outputs.size())) return TooMuchWork();
  if (!kStepsOnly) {
    for (int32_t o : g.outputs) {
      First(&t[o], scope_);
      t[o].last_used = scope_;
    }
  }
  return Status::Ok();
}

Status CheckScratch(const Model& model, Span<const ScratchRequest> scratch) {
  for (size_t j = 0; j < scratch.size(); ++j) {
    const ScratchRequest& r = scratch[j];
    if (r.subgraph_idx < 0 || static_cast<size_t>(r.subgraph_idx) >= model.num_subgraphs()) {
      return TFLM_ARENA_INVALID("scratch request %zu: subgraph %" PRId32
                                " out of range (model has %zu subgraphs)",
                                j, r.subgraph_idx, model.num_subgraphs());
    }
    const size_t ops = model.num_operators(r.subgraph_idx);
    if (r.node_idx < 0 || static_cast<size_t>(r.node_idx) >= ops) {
      return TFLM_ARENA_INVALID("scratch request %zu: node %" PRId32
                                " out of range (subgraph %" PRId32 " has %zu operators)",
                                j, r.node_idx, r.subgraph_idx, ops);
    }
    if (r.bytes > kMaxTensorBytes) {
      return TFLM_ARENA_INVALID("scratch request %zu: %zu bytes is too large", j, r.bytes);
    }
  }
  return Status::Ok();
}

// TFLM's ValidateSubgraph rejects an operator intermediate with non-zero
// bytes ("Does not support intermediate tensor with non-zero size").
Status CheckIntermediates(const Model& model, size_t sg) {
  for (size_t i = 0; i < model.num_operators(sg); ++i) {
    OperatorInfo op;
    TFLM_ARENA_RETURN_IF_ERROR(model.op(sg, i, &op));
    for (int32_t t : op.intermediates) {
      size_t bytes = 0;
      TFLM_ARENA_RETURN_IF_ERROR(model.tensor_bytes(sg, t, &bytes));
      if (bytes != 0) {
        return TFLM_ARENA_INVALID("subgraph %zu operator %zu: intermediate tensor %" PRId32
                                  " has %zu bytes (Does not support intermediate tensor with "
                                  "non-zero size)",
                                  sg, i, t, bytes);
      }
    }
  }
  return Status::Ok();
}

// InitializeAllocationInfo: sizes, needs_allocating and offline offsets.
Status InitTensors(const Model& model, const OfflinePlanView* offline, Span<AllocationEntry> out) {
  size_t global = 0;
  for (size_t sg = 0; sg < model.num_subgraphs(); ++sg) {
    TFLM_ARENA_RETURN_IF_ERROR(CheckIntermediates(model, sg));
    for (size_t t = 0; t < model.num_tensors(sg); ++t, ++global) {
      TensorInfo info;
      TFLM_ARENA_RETURN_IF_ERROR(model.tensor(sg, t, &info));
      if (info.uses_external_buffer) {
        return Status::Error(StatusCode::kUnimplemented,
                             "subgraph %zu tensor %zu: data in an external "
                             "(offset/size) buffer, which TFLM cannot use",
                             sg, t);
      }
      AllocationEntry e;
      TFLM_ARENA_RETURN_IF_ERROR(model.tensor_bytes(sg, t, &e.bytes));
      e.subgraph = static_cast<uint32_t>(sg);
      e.index = static_cast<uint32_t>(t);
      e.needs_allocating = !info.has_constant_data && !info.is_variable && e.bytes != 0;
      if (offline != nullptr) {
        e.offline_offset = offline->offset(global);
        // An offline-placed variable goes into the head plan (TFLM forces
        // needs_allocating for a variable with an offline offset).
        if (info.is_variable && e.offline_offset != kOfflinePlanOnline) {
          e.needs_allocating = true;
        }
      }
      out[global] = e;
    }
  }
  return Status::Ok();
}

}  // namespace

size_t AllocationInfoCount(const Model& model, size_t num_scratch) {
  return model.total_tensors() + num_scratch;
}

Status ComputeAllocationInfo(const Model& model, Span<const ScratchRequest> scratch,
                             const OfflinePlanView* offline, Span<AllocationEntry> out) {
  if (!model.loaded()) {
    return Status::Error(StatusCode::kFailedPrecondition, "model is not loaded");
  }
  const size_t needed = AllocationInfoCount(model, scratch.size());
  if (out.size() != needed) {
    return TFLM_ARENA_INVALID(
        "allocation info array has %zu entries, expected %zu (%zu tensors + "
        "%zu scratch requests)",
        out.size(), needed, model.total_tensors(), scratch.size());
  }
  if (offline != nullptr && offline->size() != model.total_tensors()) {
    return TFLM_ARENA_INVALID("offline plan has %zu offsets, the model has %zu tensors",
                              offline->size(), model.total_tensors());
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckScratch(model, scratch));
  TFLM_ARENA_RETURN_IF_ERROR(InitTensors(model, offline, out));
  for (size_t j = 0; j < scratch.size(); ++j) {
    AllocationEntry e;  // scratch: always planned, online
    e.bytes = scratch[j].bytes;
    e.needs_allocating = true;
    e.is_scratch = true;
    e.subgraph = static_cast<uint32_t>(scratch[j].subgraph_idx);
    e.index = static_cast<uint32_t>(j);
    out[model.total_tensors() + j] = e;
  }
  Marker<false> marker(model, scratch, out, Span<StepOperator>());
  return marker.Mark(0, 0);
}

Status ComputeModelAllocationInfo(const Model& model, Span<const ScratchRequest> scratch,
                                  Span<AllocationEntry> out) {
  OfflinePlanView plan;
  bool present = false;
  TFLM_ARENA_RETURN_IF_ERROR(DecodeOfflinePlan(model, &plan, &present));
  return ComputeAllocationInfo(model, scratch, present ? &plan : nullptr, out);
}

namespace internal {

Status WalkSteps(const Model& model, Span<StepOperator> out, size_t* num_steps) {
  Marker<true> marker(model, Span<const ScratchRequest>(), Span<AllocationEntry>(), out);
  TFLM_ARENA_RETURN_IF_ERROR(marker.Mark(0, 0));
  *num_steps = marker.steps();
  return Status::Ok();
}

}  // namespace internal

size_t PlannedBufferCount(Span<const AllocationEntry> entries) {
  size_t n = 0;
  for (const AllocationEntry& e : entries) n += e.needs_allocating ? 1 : 0;
  return n;
}

Status BuildUsageRecords(Span<const AllocationEntry> entries, Span<UsageRecord> records,
                         Span<uint32_t> record_to_entry, size_t* count) {
  *count = 0;
  const size_t needed = PlannedBufferCount(entries);
  if (records.size() < needed || (!record_to_entry.empty() && record_to_entry.size() < needed)) {
    return TFLM_ARENA_INVALID("usage record arrays hold %zu and %zu entries, %zu are needed",
                              records.size(), record_to_entry.size(), needed);
  }
  size_t k = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    const AllocationEntry& e = entries[i];
    if (!e.needs_allocating) continue;
    if (e.bytes > kMaxTensorBytes) {
      return TFLM_ARENA_INVALID("allocation entry %zu: %zu bytes is too large", i, e.bytes);
    }
    UsageRecord r;
    r.size = static_cast<int64_t>(AlignSizeUp(e.bytes, kArenaAlignment));
    r.first_step = e.first_created;
    r.last_step = e.last_used;
    r.fixed_offset = e.offline_offset == kOfflinePlanOnline
                         ? kOnlineOffset
                         : static_cast<ByteOffset>(e.offline_offset);
    records[k] = r;
    if (!record_to_entry.empty()) record_to_entry[k] = static_cast<uint32_t>(i);
    ++k;
  }
  *count = k;
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena
