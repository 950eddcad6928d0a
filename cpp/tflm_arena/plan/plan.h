// Host-side planning API: usage records in, offsets out. Each function lives
// in its own file (named beside it); the runtime planners it builds on are in
// greedy_planner.h and linear_planner.h.
//
// Conventions: buffer i is records[i]; lifetimes are inclusive
// [first_step, last_step]; fixed_offset == -1 lets the planner choose. Every
// error message names the offending buffer index ("buffer 3: ...").
#ifndef TFLM_ARENA_PLAN_PLAN_H_
#define TFLM_ARENA_PLAN_PLAN_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/core/usage_record.h"

namespace tflm_arena {

struct PlanResult {
  std::vector<ByteOffset> offsets;  // one per record, >= 0
  int64_t arena_bytes = 0;          // max over buffers of offset + size (0 if none)
};

// records_validation.cc. Checks each record (size >= 0, first_step <=
// last_step, fixed_offset == -1 or >= 0 and a multiple of `alignment` when
// alignment > 0). Fixed buffers may share bytes while live (deliberate
// aliases, as NPU compilers write them and TFLM accepts): see FixedAliases.
// Example message: "buffer 3: size -5 is negative".
Status ValidateRecords(Span<const UsageRecord> records, int64_t alignment = 0);

// fixed_aliases.cc. Every pair (a < b) of fixed buffers that are live at a
// common step and share bytes, in order. O(F log F + F x L) for F fixed
// buffers with at most L live at once. Records must pass ValidateRecords.
std::vector<std::pair<size_t, size_t>> FixedAliases(Span<const UsageRecord> records);

// lower_bound.cc. Max over steps of the bytes the buffers live at that step
// must occupy: the union of the live fixed buffers' ranges (aliases counted
// once) plus the sizes of the live planner-placed buffers. No plan can use
// less, even when fixed buffers alias; without aliases it is the total size
// live at the step. O(n log n). Records that fail the per-record checks
// (negative size, first > last) are ignored.
int64_t LowerBound(Span<const UsageRecord> records);

// Lets a caller stop a long host plan (e.g. on Ctrl-C): stop(context) is
// called after about every millisecond of planning work; once it returns
// true the planner gives up with kFailedPrecondition "planning cancelled
// after I of N buffers". No stop function: never cancelled.
struct PlanCancel {
  bool (*stop)(void* context) = nullptr;
  void* context = nullptr;
};

// tflm_greedy.cc. TFLM's greedy plan, identical to GreedyPlanner's offsets
// and size for every input it accepts, but fast on large inputs. Accepts what
// GreedyPlanner accepts: sizes, fixed offsets and the worst-case end (largest
// fixed end + sum of planner-placed sizes) must fit in int32. Fixed buffers
// may overlap each other, as in TFLM.
Status PlanTflmGreedy(Span<const UsageRecord> records, PlanResult* out,
                      PlanCancel cancel = PlanCancel());

// tflm_greedy_runtime.cc. Runs GreedyPlanner itself (O(n^2)) on a
// std::vector scratch of 40 * n bytes; same checks and results as
// PlanTflmGreedy. For cross-checks and benchmarks.
Status PlanTflmGreedyRuntime(Span<const UsageRecord> records, PlanResult* out);

// linear.cc. TFLM's linear plan: buffer i at the sum of sizes 0..i-1. Fixed
// offsets are rejected (kUnimplemented), as in TFLM. The sum must fit int32.
Status PlanLinear(Span<const UsageRecord> records, PlanResult* out);

// plan_validation.cc. Checks a plan: one offset per record; offsets >= 0;
// offset + size <= arena_bytes; fixed offsets kept; no two buffers live at a
// common step share bytes of [offset, offset + size) (zero-size buffers never
// overlap), except two FIXED buffers (the caller's deliberate aliases, see
// FixedAliases): a planner-placed buffer never shares bytes with anything
// live. Messages name the buffers. O(n log n) sweep over time; with fixed
// aliases, plus O(A x n) for the A aliased buffers.
Status ValidatePlan(Span<const UsageRecord> records, Span<const ByteOffset> offsets,
                    int64_t arena_bytes);

// ascii_render.cc. TFLM's PrintMemoryPlan text (format in plan_text.h),
// every line ending in "\n". Offsets of -1 are skipped when painting, like
// TFLM; any other input renders without crashing (columns are clamped).
std::string RenderAscii(Span<const UsageRecord> records, Span<const ByteOffset> offsets);

// optimal.cc (+ optimal_search.cc). An exact offset planner: the smallest
// arena it can prove within the time limit, else the best plan found.
//
// Starts from the best of TFLM's greedy (PlanTflmGreedy), the GPU delegate's
// best fit (PlanOffsetsGreedyBySize, inputs without fixed offsets) and a
// lowest-offset-first greedy, so it is never worse than TFLM greedy whenever
// that plan meets `alignment` (always with sizes that are multiples of it).
// Then it searches canonical placements (optimal_search.h) at capacities
// between the lower bound and the best plan, with growing node budgets,
// until the gap is closed: the result is proven optimal when it equals the
// lower bound or a complete search showed that one byte less cannot fit.
//
// Fixed buffers are obstacles and may alias each other; every planner-placed
// offset is a multiple of `alignment` (0 or 1: any); sizes are used as given.
// The time limit bounds everything but TFLM greedy itself (near-linear, it
// always runs, cancellable); inputs over 4,096 buffers to place (or with
// more than ~8M overlapping pairs) are not searched. Bad input: the
// ValidateRecords message naming the buffer; a cancel stops it with
// kFailedPrecondition "planning cancelled ...".
struct OptimalOptions {
  double time_limit_seconds = 1.0;  // >= 0; 0: heuristics only
  int64_t alignment = 0;
  // > 0: the decision form, "does it fit in `capacity` bytes?". The search
  // stops at the first plan that fits (no further minimising), and searches
  // at that capacity only, so it proves "does not fit" too (then
  // OptimalStats::lower_bound > capacity). 0: minimise.
  int64_t capacity = 0;
  PlanCancel cancel;
  // Optional, called at most about 10 times a second while searching and
  // once at the end: best arena so far, lower bound, seconds since the start.
  void (*progress)(void* context, int64_t best_bytes, int64_t lower_bound,
                   double elapsed_seconds) = nullptr;
  void* progress_context = nullptr;
  // TFLM greedy's plan of these same records (PlanTflmGreedy's output), when
  // the caller already has it: used instead of planning again (it is still
  // checked like every incumbent). nullptr: planned here.
  const PlanResult* tflm_greedy_plan = nullptr;
};

struct OptimalStats {
  bool proven_optimal = false;
  int64_t lower_bound = 0;  // proven: no plan needs less (fixed aliases counted once)
  int64_t nodes = 0;        // search nodes visited
  double seconds = 0;
  std::string incumbent_source;  // who found the returned plan: "tflm_greedy",
                                 // "greedy_by_size", "lowest_first", "search", "stacked"
};

Status PlanOptimal(Span<const UsageRecord> records, const OptimalOptions& options, PlanResult* out,
                   OptimalStats* stats = nullptr);

}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_PLAN_H_
