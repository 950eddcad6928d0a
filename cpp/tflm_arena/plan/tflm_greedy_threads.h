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

// Measured on the scaling shape of benchmarks/planners.py (~250 live; both
// forms timed side by side, medians of 7): the same time at 100,000
// buffers, 2-10 % less at 200,000, 20-25 % less from 400,000 on. Below
// ~200,000 the index fits the caches well enough that the handovers cost
// what the overlap saves.
constexpr size_t kTflmGreedyTwoThreadsFrom = 250000;

Status PlanTflmGreedyThreads(Span<const UsageRecord> records, PlanResult* out, PlanCancel cancel,
                             size_t two_threads_from);

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_TFLM_GREEDY_THREADS_H_
