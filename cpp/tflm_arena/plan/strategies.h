// The strategy registry: every planning strategy's name, kind, function and
// one-line description, in one table built from the list in strategy_list.h.
// The bindings dispatch through it and Python's STRATEGIES, BEST_STRATEGIES,
// OBJECT_STRATEGIES and RUNTIME_PLANNERS are read from it, so adding a
// strategy means writing its file, its test and one entry in
// strategy_list.h. Host code.
#ifndef TFLM_ARENA_PLAN_STRATEGIES_H_
#define TFLM_ARENA_PLAN_STRATEGIES_H_

#include <string>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/core/usage_record.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/shared_objects.h"

namespace tflm_arena {

enum class StrategyKind {
  kRuntimePlanner,  // a TFLM planner the device runtime (Interpreter) also runs
  kOffsets,         // a host planner that places every buffer at an offset
  kSharedObjects,   // shared objects (shared_objects.h) laid end to end
  kSearch,          // searches over other plans; its own API (PlanOptimal, best)
};

// Which runtime planner class an Interpreter uses for a kRuntimePlanner entry.
enum class RuntimePlanner { kNone, kGreedy, kLinear };

using PlanFn = Status (*)(Span<const UsageRecord> records, PlanResult* out, PlanCancel cancel);
using AssignFn = Status (*)(Span<const UsageRecord> records, SharedObjects* out);

struct StrategyInfo {
  const char* name;  // what plan() and the CLI accept
  StrategyKind kind;
  PlanFn plan;              // nullptr for kSearch (they take more options)
  AssignFn assign;          // kSharedObjects only, else nullptr
  const char* description;  // one line, for help texts and docs
  bool tried_by_best;       // strategy "best" tries it
  bool fixed_offsets;       // accepts records with fixed (offline) offsets
  RuntimePlanner runtime;   // kRuntimePlanner only, else kNone
};

// Every strategy, in the order lists show them (TFLM's greedy first).
Span<const StrategyInfo> Strategies();

// The entry named `name`, or nullptr.
const StrategyInfo* FindStrategy(const std::string& name);

// A kSharedObjects entry by its assign_objects name: the plan name without
// its "_objects" suffix ("naive" for "naive_objects"), or nullptr.
const StrategyInfo* FindObjectStrategy(const std::string& name);

// The name assign_objects uses for a kSharedObjects entry.
std::string ObjectStrategyName(const StrategyInfo& info);

// "a, b, c": the names of every entry of `kind`, for error messages.
std::string StrategyNames(StrategyKind kind);
// The same over all entries.
std::string StrategyNames();

const char* StrategyKindName(StrategyKind kind);

// best.cc. Strategy "best": plans with every entry marked tried_by_best and
// returns the smallest plan; ties go to the entry listed first. The result
// does not depend on the number of threads or on timing, except through
// optimal's time limit.
//  - Strategies run on up to `threads` threads at once (0: one per hardware
//    thread); "optimal" runs right after "tflm_greedy", on the same thread,
//    and starts from its plan (OptimalOptions::tflm_greedy_plan) instead of
//    planning it again.
//  - Once a plan reaches LowerBound(records), no entry listed after it can
//    win (it could only tie): those not started are skipped and the
//    cancellable ones running are stopped.
//  - An entry that refuses the records (fixed offsets, too many buffers) is
//    left out; its message is kept in BestStats::refused.
//  - options.alignment, time_limit_seconds, capacity (must be 0) and
//    progress are optimal's. options.cancel is polled by the calling thread
//    only (every ~10 ms); it stops every strategy that is cancellable and
//    starts no other. progress is called from a worker thread.
// Errors: the ValidateRecords message; kFailedPrecondition "planning
// cancelled ..." after a cancel; kInternal when no entry planned the records
// (tflm_greedy takes every valid input TFLM takes).
struct BestStats {
  const char* strategy = "";         // the entry that made the plan (a registry name)
  bool proven_optimal = false;       // at the lower bound, or proven by "optimal"
  std::vector<std::string> refused;  // "name: message" per entry left out
  // Entries skipped or stopped because an earlier one reached the bound.
  size_t skipped = 0;
};
Status PlanBest(Span<const UsageRecord> records, const OptimalOptions& options, int threads,
                PlanResult* out, BestStats* stats = nullptr);

}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_STRATEGIES_H_
