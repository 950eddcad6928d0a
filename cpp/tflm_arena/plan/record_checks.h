// Internal: per-record and TFLM-range checks shared by the host planners and
// validators, so every entry point words the same error the same way.
#ifndef TFLM_ARENA_PLAN_RECORD_CHECKS_H_
#define TFLM_ARENA_PLAN_RECORD_CHECKS_H_

#include <cstddef>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/core/usage_record.h"

namespace tflm_arena {
namespace plan_internal {

// size >= 0, first_step <= last_step, fixed_offset >= -1.
// (records_validation.cc)
Status CheckRecord(size_t index, const UsageRecord& record);

// CheckRecord on every record, then what the int-based TFLM planners need
// up front: at most INT32_MAX buffers, sizes, fixed offsets and fixed ends in
// int32 -- in the same words GreedyPlanner::AddBuffer uses. (A planned end
// past INT32_MAX can only be found while planning.) (tflm_limits.cc)
Status CheckTflmRecords(Span<const UsageRecord> records);

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_RECORD_CHECKS_H_
