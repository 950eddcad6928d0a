// GREEDY_BEST: runs GREEDY_BY_SIZE and GREEDY_BY_BREADTH and keeps the
// smaller total (GREEDY_BY_SIZE on ties), so never worse than either.
#include "tflm_arena/plan/shared_objects.h"

namespace tflm_arena {

Status AssignGreedyBest(Span<const UsageRecord> records, SharedObjects* out) {
  SharedObjects by_breadth;
  TFLM_ARENA_RETURN_IF_ERROR(AssignGreedyBySize(records, out));
  TFLM_ARENA_RETURN_IF_ERROR(AssignGreedyByBreadth(records, &by_breadth));
  if (by_breadth.total < out->total) *out = by_breadth;
  return Status::Ok();
}

}  // namespace tflm_arena
