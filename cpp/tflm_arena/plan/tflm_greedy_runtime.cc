// PlanTflmGreedyRuntime: the device planner (GreedyPlanner) driven from the
// host, with a std::vector as its scratch (40 bytes per buffer). Kept
// deliberately plain: it is the reference the fast planner is checked
// against, and the quadratic side of the benchmark.
#include <utility>
#include <vector>

#include "tflm_arena/plan/greedy_planner.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/record_checks.h"

namespace tflm_arena {

Status PlanTflmGreedyRuntime(Span<const UsageRecord> records, PlanResult* out) {
  *out = PlanResult();
  TFLM_ARENA_RETURN_IF_ERROR(plan_internal::CheckTflmRecords(records));
  const size_t n = records.size();
  std::vector<uint8_t> scratch(GreedyPlanner::kBytesPerBuffer * n);
  GreedyPlanner planner;
  TFLM_ARENA_RETURN_IF_ERROR(planner.Init(scratch.data(), scratch.size()));
  for (const UsageRecord& r : records) {
    TFLM_ARENA_RETURN_IF_ERROR(planner.AddBuffer(static_cast<int>(r.size), r.first_step,
                                                 r.last_step, static_cast<int>(r.fixed_offset)));
  }
  PlanResult result;
  result.offsets.resize(n);
  for (size_t i = 0; i < n; ++i) {
    int offset = 0;
    TFLM_ARENA_RETURN_IF_ERROR(planner.GetOffsetForBuffer(static_cast<int>(i), &offset));
    result.offsets[i] = offset;
  }
  result.arena_bytes = planner.GetMaximumMemorySize();
  *out = std::move(result);
  return Status::Ok();
}

}  // namespace tflm_arena
