// Shared-object strategies of the TFLite GPU delegate's memory manager
// (TFLite's delegates/gpu/common/memory_management/), written for our
// UsageRecords.
//
// A shared object is one block of memory that several buffers use in turn:
// buffers in the same object never live at a common step, and the object is
// as large as its largest member. Laying the objects end to end gives a valid
// plan (ObjectsToOffsets). Fixed offsets mean nothing here, so records with
// fixed_offset >= 0 are rejected (kInvalidArgument naming the buffer).
// Lifetimes are inclusive, like everywhere else. Host code: uses the heap.
#ifndef TFLM_ARENA_PLAN_SHARED_OBJECTS_H_
#define TFLM_ARENA_PLAN_SHARED_OBJECTS_H_

#include <cstdint>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/core/usage_record.h"
#include "tflm_arena/plan/plan.h"

namespace tflm_arena {

struct SharedObjects {
  std::vector<int32_t> object_ids;    // one per record: index into object_sizes
  std::vector<int64_t> object_sizes;  // bytes, max over the object's members
  int64_t total = 0;                  // sum of object_sizes
};

// shared_objects_common.cc. ValidateRecords plus: no fixed offsets. (No
// bound on steps: the strategies work on segments of steps with the same
// buffers live, at most 2n of them, never on every step.)
Status CheckSharedObjectRecords(Span<const UsageRecord> records);

// shared_objects_common.cc. Positional maximums: at every step sort the live
// sizes in decreasing order; entry k is the largest k-th size over all steps.
// Any shared-object assignment needs at least that many objects, the k-th
// largest at least entry k, so their sum is a lower bound on `total`.
// Records must pass CheckSharedObjectRecords.
std::vector<int64_t> PositionalMaximums(Span<const UsageRecord> records);
int64_t PositionalMaxLowerBound(Span<const UsageRecord> records);

// One algorithm per file (naive_objects.cc, equality_objects.cc, ...). Each checks the
// records first and fills *out (cleared) on success.
Status AssignNaive(Span<const UsageRecord> records, SharedObjects* out);
Status AssignEquality(Span<const UsageRecord> records, SharedObjects* out);
Status AssignGreedyInOrder(Span<const UsageRecord> records, SharedObjects* out);
Status AssignGreedyByBreadth(Span<const UsageRecord> records, SharedObjects* out);
// GREEDY_BY_SIZE finds each buffer's nearest object through time-ordered
// indexes (greedy_by_size_objects.cc). When many buffers of about the same
// size are spread over a long time (a long chain, few distinct sizes) that
// search turns quadratic and gives up; the delegate's own O(n^2) loop then
// runs if there are at most this many buffers (about 1 s at 20,000), and
// more are refused (kInvalidArgument), so that `best` stays fast.
constexpr size_t kMaxGreedyBySizeObjectsBuffers = 20000;
Status AssignGreedyBySize(Span<const UsageRecord> records, SharedObjects* out);
Status AssignGreedyBest(Span<const UsageRecord> records, SharedObjects* out);
// MINCOSTFLOW's graph has O(n^2) edges and one shortest-path search per
// buffer (about 14 s for 1,000 buffers): more buffers are refused.
constexpr size_t kMaxMinCostFlowBuffers = 1000;
Status AssignMinCostFlow(Span<const UsageRecord> records, SharedObjects* out);
// The same, stopped by `cancel` (plan.h) between shortest-path searches:
// kFailedPrecondition "planning cancelled after I of N buffers".
Status AssignMinCostFlowCancellable(Span<const UsageRecord> records, SharedObjects* out,
                                    PlanCancel cancel);

// objects_to_offsets.cc. Lays objects end to end in id order: object k starts
// at the sum of the sizes of objects 0..k-1; each record gets its object's
// offset; arena_bytes = sum of sizes. Fails if ids and sizes disagree.
Status ObjectsToOffsets(const SharedObjects& objects, PlanResult* out);

// greedy_by_size.cc. The GPU delegate's offset planner: buffers by
// size, largest first (stable); each goes into the smallest gap between
// time-overlapping placed buffers that fits, else after the highest one.
// Every candidate offset is rounded up to `alignment` (0 or 1: none).
Status PlanOffsetsGreedyBySize(Span<const UsageRecord> records, int64_t alignment, PlanResult* out);

}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_SHARED_OBJECTS_H_
