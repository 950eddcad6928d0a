#include <climits>
#include <cstdint>

#include "tflm_arena/plan/record_checks.h"

namespace tflm_arena {
namespace plan_internal {

Status CheckTflmRecords(Span<const UsageRecord> records) {
  if (records.size() > static_cast<size_t>(INT_MAX)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%zu buffers do not fit the int buffer index TFLM planners use",
                         records.size());
  }
  for (size_t i = 0; i < records.size(); ++i) {
    const UsageRecord& r = records[i];
    TFLM_ARENA_RETURN_IF_ERROR(CheckRecord(i, r));
    if (r.size > INT_MAX) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: size %lld does not fit in int32 (TFLM planners use int)", i,
                           static_cast<long long>(r.size));
    }
    if (r.fixed_offset > INT_MAX) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: fixed offset %lld does not fit in int32 (TFLM planners "
                           "use int)",
                           i, static_cast<long long>(r.fixed_offset));
    }
    const int64_t fixed_end = r.fixed_offset + r.size;  // both are at most INT_MAX here
    if (r.fixed_offset != kOnlineOffset && fixed_end > INT_MAX) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: fixed end %lld does not fit in int32 (TFLM planners use "
                           "int)",
                           i, static_cast<long long>(fixed_end));
    }
  }
  return Status::Ok();
}

}  // namespace plan_internal
}  // namespace tflm_arena
