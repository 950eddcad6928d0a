// PlanLinear: TFLM's linear plan on the host (see linear_planner.h): buffer i
// starts at the sum of sizes 0..i-1. Same checks and words as LinearPlanner.
#include <climits>
#include <utility>

#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/record_checks.h"

namespace tflm_arena {

Status PlanLinear(Span<const UsageRecord> records, PlanResult* out) {
  *out = PlanResult();
  PlanResult result;
  result.offsets.resize(records.size());
  int64_t total = 0;  // stays <= INT_MAX
  for (size_t i = 0; i < records.size(); ++i) {
    const UsageRecord& r = records[i];
    TFLM_ARENA_RETURN_IF_ERROR(plan_internal::CheckRecord(i, r));
    if (r.fixed_offset != kOnlineOffset) {
      return Status::Error(StatusCode::kUnimplemented,
                           "buffer %zu: the linear planner does not support fixed offsets (got "
                           "%lld)",
                           i, static_cast<long long>(r.fixed_offset));
    }
    if (r.size > INT_MAX) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: size %lld does not fit in int32 (TFLM planners use int)", i,
                           static_cast<long long>(r.size));
    }
    if (r.size > INT_MAX - total) {
      const int64_t new_total = total + r.size;  // both are at most INT_MAX here
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: total size %lld does not fit in int32", i,
                           static_cast<long long>(new_total));
    }
    result.offsets[i] = total;
    total += r.size;
  }
  result.arena_bytes = total;
  *out = std::move(result);
  return Status::Ok();
}

}  // namespace tflm_arena
