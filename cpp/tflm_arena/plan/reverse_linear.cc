// reverse_linear: buffers end to end in reverse order (the last buffer at
// offset 0), no reuse. Same checks as PlanLinear.
#include "tflm_arena/plan/plan.h"

namespace tflm_arena {

Status PlanReverseLinear(Span<const UsageRecord> records, PlanResult* out, PlanCancel /*cancel*/) {
  TFLM_ARENA_RETURN_IF_ERROR(PlanLinear(records, out));
  for (size_t i = 0; i < records.size(); ++i) {
    out->offsets[i] = out->arena_bytes - out->offsets[i] - records[i].size;
  }
  return Status::Ok();
}

}  // namespace tflm_arena
