#include "tflm_arena/tflm/scratch_requests.h"

#include <utility>

#include "tflm_arena/tflm/allocation_trace.h"
#include "tflm_arena/tflm/build_targets.h"
#include "tflm_arena/tflm/kernel_table.h"

namespace tflm_arena {
namespace tflm {

Status TflmScratchRequests(const model::Model& model, const std::string& target,
                           std::vector<model::ScratchRequest>* out, Refusal* refusal) {
  ResolvedTarget resolved;
  TFLM_ARENA_RETURN_IF_ERROR(
      ResolveBuildTarget(target, AllocatorChoice::kTargetDefault, "tflm_greedy", &resolved));
  const TraceOptions options = TraceOptionsFor(resolved);
  // The requests depend on the kernels only, not on the allocator or planner.
  Trace trace;
  const Status built = BuildTrace(model, options, &trace);
  if (refusal != nullptr) *refusal = trace.refusal;
  TFLM_ARENA_RETURN_IF_ERROR(built);
  *out = std::move(trace.scratch);
  return Status::Ok();
}

}  // namespace tflm
}  // namespace tflm_arena
