// ValidateRecords and the per-record check every host entry point shares.
#include <vector>

#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/record_checks.h"

namespace tflm_arena {
namespace plan_internal {

Status CheckRecord(size_t index, const UsageRecord& r) {
  if (r.size < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "buffer %zu: size %lld is negative", index,
                         static_cast<long long>(r.size));
  }
  if (r.first_step > r.last_step) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "buffer %zu: first_step %d is after last_step %d", index, r.first_step,
                         r.last_step);
  }
  if (r.fixed_offset < kOnlineOffset) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "buffer %zu: fixed offset %lld is negative (use -1 to let the planner "
                         "choose)",
                         index, static_cast<long long>(r.fixed_offset));
  }
  return Status::Ok();
}

}  // namespace plan_internal

Status ValidateRecords(Span<const UsageRecord> records, int64_t alignment) {
  if (alignment < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "alignment %lld is negative",
                         static_cast<long long>(alignment));
  }
  for (size_t i = 0; i < records.size(); ++i) {
    const UsageRecord& r = records[i];
    TFLM_ARENA_RETURN_IF_ERROR(plan_internal::CheckRecord(i, r));
    if (r.fixed_offset == kOnlineOffset) continue;
    if (alignment > 0 && r.fixed_offset % alignment != 0) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: fixed offset %lld is not a multiple of the alignment %lld",
                           i, static_cast<long long>(r.fixed_offset),
                           static_cast<long long>(alignment));
    }
  }
  return Status::Ok();
}

}  // namespace tflm_arena
