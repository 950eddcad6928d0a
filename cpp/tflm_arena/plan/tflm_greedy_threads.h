// Internal (host): PlanTflmGreedy (plan.h) with the two-thread form under
// the caller's control, for tests.
//
// From two_threads_from online buffers, a helper thread fetches the placed
// buffers meeting the next buffer from the interval index while the
// calling thread places the current one (tflm_greedy.cc); below it, or if
// no thread can be started, one thread does both. The offsets are the same
// either way. PlanTflmGreedy uses kTflmGreedyTwoThreadsFrom, or SIZE_MAX on
// one core or on a worker thread of strategy "best" (OnSharedWorker), whose
// other workers keep the cores busy.
#ifndef TFLM_ARENA_PLAN_TFLM_GREEDY_THREADS_H_
#define TFLM_ARENA_PLAN_TFLM_GREEDY_THREADS_H_

#include <cstddef>

#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace plan_internal {

// Below this the handover per buffer (two cache-line trips between cores)
// costs about what the overlap saves.
constexpr size_t kTflmGreedyTwoThreadsFrom = 100000;

Status PlanTflmGreedyThreads(Span<const UsageRecord> records, PlanResult* out, PlanCancel cancel,
                             size_t two_threads_from);

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_TFLM_GREEDY_THREADS_H_
