// Tensor lifetimes exactly as TFLM's AllocationInfoBuilder computes them
// (TFLM's micro_allocation_info.cc, AllocationInfoBuilder), plus the planner input derived from them.
//
// One entry per tensor of every subgraph (subgraph 0's first), then one
// per scratch-buffer request. Lifetimes use TFLM's "allocation scope"
// counter (micro_allocation_info.cc):
//  - scope starts at 0 and only grows; unset lifetimes are -1;
//  - marking subgraph S: its inputs get first = last = scope; each operator
//    i does scope += 1, sets first of its outputs, remembers start = scope,
//    recursively marks the subgraphs it invokes (IF then/else, WHILE
//    cond/body, CALL_ONCE init; scope += 1 before each), then sets last of
//    its inputs (-1 skipped) and outputs to scope, and gives scratch
//    requests (node i, subgraph S) first = start, last = scope; finally the
//    subgraph outputs get first (if unset) = last = scope;
//  - first is only set while unset, last is always overwritten.
// needs_allocating (micro_allocation_info.cc): no constant data, not variable, bytes != 0;
// a variable tensor with an offline offset is forced to true. Scratch
// entries always need allocating and are online.
//
// Where we are stricter than TFLM (all documented failures, never crashes):
//  - an operator intermediate with non-zero bytes fails (as TFLM's ValidateSubgraph);
//  - a tensor whose type has no element size fails (as TFLM);
//  - a control-flow cycle (a subgraph invoking itself, directly or not)
//    fails; TFLM would recurse until the stack overflows;
//  - nesting deeper than kMaxControlFlowDepth or more than
//    kMaxLifetimeWork steps (scope increments + list entries + scratch
//    matches) fails, bounding time on crafted models;
//  - a tensor backed by an external (offset/size) buffer fails with
//    kUnimplemented: TFLM does not read such buffers;
//  - scratch requests must name an existing (subgraph, operator).
// Control-flow operators are recognised by the resolved builtin code
// (max of the two opcode fields, as the op resolver does).
//
// Runtime code: no heap; the caller provides the output arrays.
#ifndef TFLM_ARENA_MODEL_LIFETIMES_H_
#define TFLM_ARENA_MODEL_LIFETIMES_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/core/usage_record.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/offline_plan.h"

namespace tflm_arena {
namespace model {

constexpr size_t kMaxControlFlowDepth = 64;
constexpr uint64_t kMaxLifetimeWork = uint64_t{1} << 24;
constexpr Step kUninitializedLifetime = -1;

// TFLM's ScratchBufferRequest (micro_allocator.h): made by a kernel during Prepare.
struct ScratchRequest {
  size_t bytes = 0;
  int32_t node_idx = 0;      // operator index within its subgraph
  int32_t subgraph_idx = 0;
};

// TFLM's AllocationInfo plus where the entry came from.
struct AllocationEntry {
  size_t bytes = 0;            // unaligned; tensors as Model::tensor_bytes
  Step first_created = kUninitializedLifetime;
  Step last_used = kUninitializedLifetime;
  int32_t offline_offset = kOfflinePlanOnline;  // -1 = online
  bool needs_allocating = false;
  bool is_scratch = false;
  uint32_t subgraph = 0;       // owning subgraph (scratch: request's)
  uint32_t index = 0;          // tensor index in its subgraph, or scratch index
};

// Entries needed: total tensors over all subgraphs + scratch requests.
size_t AllocationInfoCount(const Model& model, size_t num_scratch);

// Fills `out` (size must be AllocationInfoCount(model, scratch.size())).
// `offline` may be null (no offline plan); otherwise its size must equal the
// model's total tensor count.
Status ComputeAllocationInfo(const Model& model,
                             Span<const ScratchRequest> scratch,
                             const OfflinePlanView* offline,
                             Span<AllocationEntry> out);

// As above, decoding the model's own OfflineMemoryAllocation metadata first
// (what TFLM does).
Status ComputeModelAllocationInfo(const Model& model,
                                  Span<const ScratchRequest> scratch,
                                  Span<AllocationEntry> out);

// Number of entries with needs_allocating (planner buffers).
size_t PlannedBufferCount(Span<const AllocationEntry> entries);

// Planner input in CreatePlan order (micro_allocation_info.cc, AddBuffer per entry that needs allocating): for each entry that needs
// allocating, in array order, one record with size aligned up to 16,
// its lifetime and fixed_offset = offline offset (kOnlineOffset if -1).
// `records` must hold PlannedBufferCount(entries); `record_to_entry`
// (same size, or empty to skip) receives the entry index of each record.
// *count gets the number written.
Status BuildUsageRecords(Span<const AllocationEntry> entries,
                         Span<UsageRecord> records,
                         Span<uint32_t> record_to_entry, size_t* count);

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_LIFETIMES_H_
