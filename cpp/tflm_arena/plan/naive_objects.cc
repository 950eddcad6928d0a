// NAIVE: one object per buffer (total = sum of sizes). A debugging aid:
// every intermediate buffer stays readable after the run.
#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/shared_objects_internal.h"

namespace tflm_arena {

Status AssignNaive(Span<const UsageRecord> records, SharedObjects* out) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckSharedObjectRecords(records));
  *out = SharedObjects();
  for (size_t i = 0; i < records.size(); ++i) {
    out->object_ids.push_back(static_cast<int32_t>(i));
    out->object_sizes.push_back(records[i].size);
  }
  plan_internal::Finish(out);
  return Status::Ok();
}

}  // namespace tflm_arena
