// GREEDY_BEST: runs GREEDY_BY_SIZE and GREEDY_BY_BREADTH and keeps the
// smaller total (GREEDY_BY_SIZE on ties), so never worse than either.
// Above kTwoThreadsFrom buffers the two run at once, on two threads (at
// 1,000,000 buffers they take ~6 s and ~1.5 s one after the other); the
// result does not depend on it.
#include <cstddef>

#include "tflm_arena/plan/maybe_thread.h"
#include "tflm_arena/plan/shared_objects.h"

namespace tflm_arena {
namespace {

constexpr size_t kTwoThreadsFrom = 50000;

}  // namespace

Status AssignGreedyBest(Span<const UsageRecord> records, SharedObjects* out) {
  SharedObjects by_breadth;
  Status breadth = Status::Ok();
  if (records.size() >= kTwoThreadsFrom) {
    plan_internal::MaybeThread other(
        [&] { breadth = AssignGreedyByBreadth(records, &by_breadth); });
    const Status by_size = AssignGreedyBySize(records, out);
    other.Join();
    TFLM_ARENA_RETURN_IF_ERROR(by_size);
  } else {
    TFLM_ARENA_RETURN_IF_ERROR(AssignGreedyBySize(records, out));
    breadth = AssignGreedyByBreadth(records, &by_breadth);
  }
  TFLM_ARENA_RETURN_IF_ERROR(breadth);
  if (by_breadth.total < out->total) *out = by_breadth;
  return Status::Ok();
}

}  // namespace tflm_arena
