// Helpers shared by the shared-object strategy files; not public API.
#ifndef TFLM_ARENA_PLAN_SHARED_OBJECTS_INTERNAL_H_
#define TFLM_ARENA_PLAN_SHARED_OBJECTS_INTERNAL_H_

#include <cstdint>
#include <queue>
#include <vector>

#include "tflm_arena/plan/shared_objects.h"

namespace tflm_arena {
namespace plan_internal {

// For every step from the smallest first_step to the largest last_step, the
// records live at it, largest first (ties in record order).
std::vector<std::vector<size_t>> StepProfiles(Span<const UsageRecord> records);

// Record indices by first_step (stable): the order the in-order strategies
// walk, as the GPU delegate expects its records to be sorted.
std::vector<size_t> ByFirstStep(Span<const UsageRecord> records);

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
