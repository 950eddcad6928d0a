// Helpers shared by the shared-object strategy files; not public API.
#ifndef TFLM_ARENA_PLAN_SHARED_OBJECTS_INTERNAL_H_
#define TFLM_ARENA_PLAN_SHARED_OBJECTS_INTERNAL_H_

#include <cstdint>
#include <queue>
#include <vector>

#include "tflm_arena/plan/shared_objects.h"

namespace tflm_arena {
namespace plan_internal {

// The steps cut into segments wherever a lifetime starts or ends: every step
// of a segment has the same buffers live. Segments are numbered in step
// order; buffer i is live in segments first[i]..last[i] (those between
// buffers' lifetimes have none). At most 2n segments, whatever the step
// values, so nothing here is per step.
struct Segments {
  explicit Segments(Span<const UsageRecord> records);
  size_t count = 0;
  std::vector<uint32_t> first, last;
};

// Record indices, largest size first (stable: equal sizes in record order).
std::vector<size_t> BySizeDescending(Span<const UsageRecord> records);

// Record indices by first_step (stable): the order the in-order strategies
// walk, as the GPU delegate expects its records to be sorted.
std::vector<size_t> ByFirstStep(Span<const UsageRecord> records);

// greedy_by_size_objects_rescan.cc: the delegate's GREEDY_BY_SIZE loop
// (O(n^2)); fills out->object_ids (sized, -1) and out->object_sizes.
void AssignGreedyBySizeByRescan(Span<const UsageRecord> records, SharedObjects* out);

// Sets out->total to the sum of object sizes.
void Finish(SharedObjects* out);

// Objects in use, earliest last_step first, then lowest object id.
struct InUse {
  Step last_step;
  int32_t object;
  bool operator<(const InUse& o) const {  // priority_queue top = "largest"
    return last_step > o.last_step || (last_step == o.last_step && object > o.object);
  }
};
using InUseQueue = std::priority_queue<InUse>;

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_SHARED_OBJECTS_INTERNAL_H_
