// FinishModelAllocation: scratch handles, variable tensors, lifetimes, the
// memory plan and its commit (TFLM's FinishModelAllocation +
// CommitStaticMemoryPlan in TFLM's micro_allocator.cc).
//
// Arena use while planning, in order (peak = all of them at once):
//   tail  scratch handles          request_count x sizeof(uint8_t*)
//   temp  AllocationEntry array    (tensors + requests) x 32 B (64-bit)
//   tail  online variable tensors  their bytes, 16-aligned each
//   tail  plan records             planned x 28 B (keep_plan only)
//   temp  planner scratch          planned x 40 B (greedy) / x 4 B (linear)
//   head  scratch-request records  (requests + 12) x 16 B (64-bit)
// then temp is released and the head becomes the plan.
#include <climits>
#include <type_traits>

#include "tflm_arena/core/align.h"
#include "tflm_arena/core/format.h"
#include "tflm_arena/model/offline_aliases.h"
#include "tflm_arena/plan/greedy_planner.h"
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/runtime_util.h"

namespace tflm_arena {
namespace runtime {
namespace {

using internal::Annotate;
using model::AllocationEntry;

// "tensor 3 of subgraph 0" / "scratch buffer 2", for messages.
struct EntryName {
  char text[48];
  explicit EntryName(const AllocationEntry& e) {
#if !TFLM_ARENA_ERROR_STRINGS
    text[0] = '\0';  // no message to put it in
    (void)e;
#else
    if (e.is_scratch) {
      Format(text, sizeof(text), "scratch buffer %u", e.index);
    } else {
      Format(text, sizeof(text), "tensor %u of subgraph %u", e.index,
               e.subgraph);
    }
#endif
  }
};

}  // namespace

Status Interpreter::FinishModelAllocation() {
  // Tail: one data pointer per scratch request (TFLM's ScratchBufferHandle).
  if (request_count_ > 0) {
    uint8_t* p = nullptr;
    Status s = arena_.AllocatePersistent(request_count_ * sizeof(uint8_t*),
                                         alignof(uint8_t*),
                                         AllocationCategory::kOther, &p);
    if (!s.ok()) {
      return Annotate(s, "arena too small for %zu scratch buffer handles (tail)",
                      request_count_);
    }
    scratch_handles_ = reinterpret_cast<uint8_t**>(p);
    for (size_t i = 0; i < request_count_; ++i) scratch_handles_[i] = nullptr;
  }

  model::OfflinePlanView offline;
  bool has_offline = false;
  TFLM_ARENA_RETURN_IF_ERROR(model::DecodeOfflinePlan(model_, &offline, &has_offline));
  const model::OfflinePlanView* plan = has_offline ? &offline : nullptr;

  // Temp: the allocation-info array (TFLM allocates it as temp and frees it after planning).
  const size_t n = model::AllocationInfoCount(model_, request_count_);
  uint8_t* entries_memory = nullptr;
  Status s = arena_.AllocateTemp(n * sizeof(AllocationEntry),
                                 alignof(AllocationEntry), &entries_memory);
  if (!s.ok()) {
    return Annotate(s,
                    "arena too small for the allocation info of %zu tensors "
                    "and %zu scratch buffers (temp)",
                    model_.total_tensors(), request_count_);
  }
  // ComputeAllocationInfo assigns every entry (AllocationEntry is trivially
  // copyable), so no constructor loop runs here.
  static_assert(std::is_trivially_copyable<AllocationEntry>::value,
                "entries are assigned into raw temp memory");
  AllocationEntry* entries = reinterpret_cast<AllocationEntry*>(entries_memory);
  Span<AllocationEntry> span(entries, n);

  TFLM_ARENA_RETURN_IF_ERROR(AllocateVariables(plan));
  TFLM_ARENA_RETURN_IF_ERROR(model::ComputeAllocationInfo(
      model_, Span<const model::ScratchRequest>(requests(), request_count_),
      plan, span));
  // As TFLM's needs_allocating: a tensor whose data is already set (preallocated, or set by a
  // kernel in prepare) is not planned.
  for (AllocationEntry& e : span) {
    if (!e.needs_allocating || e.is_scratch) continue;
    const EvalTensor* t = LocalTensor(e.subgraph, static_cast<int32_t>(e.index));
    if (t != nullptr && t->data != nullptr) e.needs_allocating = false;
  }

  if (plan != nullptr) TFLM_ARENA_RETURN_IF_ERROR(CheckOfflineAliases(span));

  size_t head_size = 0;
  TFLM_ARENA_RETURN_IF_ERROR(PlanAndCommit(span, &head_size));

  // Release temp and the request records; the head becomes the plan.
  arena_.DeallocateTemp(entries_memory);
  s = arena_.ResetTemp();
  if (!s.ok()) return Annotate(s, "after memory planning");
  s = arena_.ResizeHead(head_size, kArenaAlignment);
  if (!s.ok()) {
    return Annotate(s,
                    "arena too small for the memory plan (%zu bytes of "
                    "activations and scratch buffers in the head)",
                    head_size);
  }
  return Status::Ok();
}

// Offline tensors that share bytes while both are live (model/offline_aliases.h)
// are fine for TFLM and for an NPU's custom operator, but our kernels would
// overwrite one while another still needs it: refuse, naming both. (Models
// with operators we cannot run never get here: CheckKernels refused them.)
Status Interpreter::CheckOfflineAliases(Span<const AllocationEntry> entries) const {
  bool found = false;
  size_t a = 0;
  size_t b = 0;
  TFLM_ARENA_RETURN_IF_ERROR(model::FindOfflineAlias(entries, &found, &a, &b));
  if (!found) return Status::Ok();
#if TFLM_ARENA_ERROR_STRINGS
  const model::OfflineAlias alias = model::DescribeOfflineAlias(entries, a, b);
#else
  const model::OfflineAlias alias;  // no message to describe it in
#endif
  const AllocationEntry& x = entries[a];
  const AllocationEntry& y = entries[b];
  return Status::Error(
      StatusCode::kInvalidArgument,
      "offline plan aliases live tensors: tensor %u ('%.64s') of subgraph %u "
      "and tensor %u ('%.64s') of subgraph %u share head bytes [%lld, %lld) "
      "while both are live (steps %d..%d); the kernels that write one would "
      "corrupt the other (rule: tensors of operators tflm_arena runs may not "
      "alias while live)",
      x.index, internal::TensorName(model_, x.subgraph, x.index), x.subgraph, y.index,
      internal::TensorName(model_, y.subgraph, y.index), y.subgraph,
      static_cast<long long>(alias.overlap_begin),
      static_cast<long long>(alias.overlap_end),
      static_cast<int>(alias.first_common),
      static_cast<int>(alias.last_common));
}

// Variable tensors without an offline offset live in the tail (TFLM's AllocateVariables), one
// 16-aligned allocation each. A variable with constant data gets a tail
// buffer too (its model bytes are never written); a preallocated one keeps
// the application's buffer.
Status Interpreter::AllocateVariables(const model::OfflinePlanView* offline) {
  size_t global = 0;
  for (size_t sg = 0; sg < num_subgraphs_; ++sg) {
    for (size_t t = 0; t < model_.num_tensors(sg); ++t, ++global) {
      const EvalTensor& e = subgraphs_[sg].tensors[t];
      if (!e.variable || e.preallocated) continue;
      if (offline != nullptr &&
          offline->offset(global) != model::kOfflinePlanOnline) {
        continue;  // planned in the head at its offline offset (as TFLM)
      }
      size_t bytes = 0;
      TFLM_ARENA_RETURN_IF_ERROR(model_.tensor_bytes(sg, t, &bytes));
      uint8_t* p = nullptr;
      Status s = arena_.AllocatePersistent(
          bytes, kArenaAlignment, AllocationCategory::kVariableBufferData, &p);
      if (!s.ok()) {
        return Annotate(s,
                        "arena too small for variable tensor %zu of subgraph "
                        "%zu (%zu bytes, tail)",
                        t, sg, bytes);
      }
      subgraphs_[sg].tensors[t].data = p;
    }
  }
  return Status::Ok();
}

Status Interpreter::PlanAndCommit(Span<AllocationEntry> entries,
                                  size_t* head_size) {
  planned_count_ = model::PlannedBufferCount(entries);
  if (options_.keep_plan && planned_count_ > 0) {
    uint8_t* p = nullptr;
    Status s = arena_.AllocatePersistent(planned_count_ * sizeof(PlanRecord),
                                         alignof(PlanRecord),
                                         AllocationCategory::kOther, &p);
    if (!s.ok()) {
      return Annotate(s, "arena too small for %zu plan records (tail)",
                      planned_count_);
    }
    plan_records_ = reinterpret_cast<PlanRecord*>(p);
  }

  // Planners live here only while planning; their working memory is temp,
  // exactly what they need for planned_count_ buffers.
  GreedyPlanner greedy;
  MemoryPlanner* planner = options_.planner != nullptr ? options_.planner : &greedy;
  const size_t per_buffer = planner->scratch_bytes_per_buffer();
  uint8_t* scratch = nullptr;
  const size_t scratch_bytes = planned_count_ * per_buffer;
  Status s = arena_.AllocateTemp(scratch_bytes, kArenaAlignment, &scratch);
  if (!s.ok()) {
    return Annotate(s,
                    "arena too small for the planner's working memory (%zu "
                    "buffers x %zu bytes, temp)",
                    planned_count_, per_buffer);
  }
  TFLM_ARENA_RETURN_IF_ERROR(planner->Init(scratch, scratch_bytes));
  TFLM_ARENA_RETURN_IF_ERROR(AddToPlanner(planner, entries));
  TFLM_ARENA_RETURN_IF_ERROR(Commit(planner, entries));
  const int max_size = planner->GetMaximumMemorySize();
  *head_size = max_size > 0 ? static_cast<size_t>(max_size) : 0;
  arena_.DeallocateTemp(scratch);
  return Status::Ok();
}

// TFLM's CreatePlan: entries in order, sizes aligned to 16, offline entries
// through the 4-argument AddBuffer (as TFLM's CreatePlan).
Status Interpreter::AddToPlanner(MemoryPlanner* planner,
                                 Span<const AllocationEntry> entries) {
  for (const AllocationEntry& e : entries) {
    if (!e.needs_allocating) continue;
    if (e.bytes > static_cast<size_t>(INT_MAX) - (kArenaAlignment - 1)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "memory planning: %s has %zu bytes, more than the "
                           "planner's int range",
                           EntryName(e).text, e.bytes);
    }
    const int size = static_cast<int>(AlignSizeUp(e.bytes, kArenaAlignment));
    if (e.offline_offset != model::kOfflinePlanOnline && !e.is_scratch) {
      // The head starts 16-aligned, so an offset that is not a multiple of
      // the element size makes every kernel access misaligned (undefined
      // behaviour; a hard fault on Cortex-M0). TFLM does not check this.
      const EvalTensor* t = LocalTensor(e.subgraph, static_cast<int32_t>(e.index));
      size_t align = t != nullptr ? model::ElementByteSize(t->type) : 1;
      if (align > 8) align = 8;
      if (align > 1 && static_cast<size_t>(e.offline_offset) % align != 0) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "offline plan puts %s (%s) at offset %d, not a "
                             "multiple of its %zu-byte elements: kernels "
                             "would access it misaligned",
                             EntryName(e).text, model::TensorTypeName(t->type),
                             static_cast<int>(e.offline_offset), align);
      }
    }
    Status s = e.offline_offset == model::kOfflinePlanOnline
                   ? planner->AddBuffer(size, e.first_created, e.last_used)
                   : planner->AddBuffer(size, e.first_created, e.last_used,
                                        e.offline_offset);
    if (!s.ok()) {
      return Annotate(s, "memory planning, %s (offline offset %d)",
                      EntryName(e).text, static_cast<int>(e.offline_offset));
    }
  }
  return Status::Ok();
}

// TFLM's CommitPlan: head start + offset into every tensor / scratch handle.
Status Interpreter::Commit(MemoryPlanner* planner,
                           Span<const AllocationEntry> entries) {
  int k = 0;
  for (const AllocationEntry& e : entries) {
    if (!e.needs_allocating) continue;
    int offset = 0;
    Status s = planner->GetOffsetForBuffer(k, &offset);
    if (!s.ok()) return Annotate(s, "memory planning, %s", EntryName(e).text);
    uint8_t* data = arena_.head_start() + offset;
    if (e.is_scratch) {
      scratch_handles_[e.index] = data;
    } else {
      subgraphs_[e.subgraph].tensors[e.index].data = data;
    }
    if (plan_records_ != nullptr) {
      PlanRecord& r = plan_records_[k];
      r.subgraph = static_cast<int32_t>(e.subgraph);
      r.tensor = e.is_scratch ? -1 : static_cast<int32_t>(e.index);
      r.scratch_index = e.is_scratch ? static_cast<int32_t>(e.index) : -1;
      r.offset = offset;
      r.size = static_cast<int32_t>(AlignSizeUp(e.bytes, kArenaAlignment));
      r.first = e.first_created;
      r.last = e.last_used;
    }
    ++k;
  }
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena
