// The strategy registry (strategies.h): one entry per strategy.
#include "tflm_arena/plan/strategies.h"

#include <cstring>

namespace tflm_arena {
namespace {

// Adapters to PlanFn for planners without a cancel hook: the runtime greedy
// planner is the device code, kept as TFLM has it; the linear one is O(n);
// the GPU-delegate ones are not cancellable.
Status PlanRuntimeGreedy(Span<const UsageRecord> records, PlanResult* out, PlanCancel) {
  return PlanTflmGreedyRuntime(records, out);
}
Status PlanLinearNoCancel(Span<const UsageRecord> records, PlanResult* out, PlanCancel) {
  return PlanLinear(records, out);
}
// Sizes arrive aligned (models' records are), so no extra alignment.
Status PlanGpuGreedyBySize(Span<const UsageRecord> records, PlanResult* out, PlanCancel) {
  return PlanOffsetsGreedyBySize(records, 0, out);
}
template <AssignFn Assign>
Status PlanObjects(Span<const UsageRecord> records, PlanResult* out, PlanCancel) {
  SharedObjects objects;
  TFLM_ARENA_RETURN_IF_ERROR(Assign(records, &objects));
  return ObjectsToOffsets(objects, out);
}

constexpr StrategyKind kRuntime = StrategyKind::kRuntimePlanner;
constexpr StrategyKind kOffsets = StrategyKind::kOffsets;
constexpr StrategyKind kObjects = StrategyKind::kSharedObjects;
constexpr StrategyKind kSearch = StrategyKind::kSearch;
constexpr RuntimePlanner kNoRuntime = RuntimePlanner::kNone;

// name, kind, plan, assign, description, tried by best, fixed offsets, runtime
const StrategyInfo kStrategies[] = {
    {"tflm_greedy", kRuntime, &PlanTflmGreedy, nullptr,
     "TFLM's GreedyMemoryPlanner, byte for byte (fast host implementation)", true, true,
     RuntimePlanner::kGreedy},
    {"tflm_greedy_runtime", kOffsets, &PlanRuntimeGreedy, nullptr,
     "the microcontroller implementation of tflm_greedy (same plan, quadratic, no heap)", false,
     true, kNoRuntime},
    {"linear", kRuntime, &PlanLinearNoCancel, nullptr,
     "TFLM's LinearMemoryPlanner: buffers end to end, no reuse", false, false,
     RuntimePlanner::kLinear},
    {"greedy_by_size", kOffsets, &PlanGpuGreedyBySize, nullptr,
     "the TFLite GPU delegate's offset planner: largest first, best-fit gap", true, false,
     kNoRuntime},
    {"greedy_by_breadth", kOffsets, &PlanObjects<AssignGreedyByBreadth>, nullptr,
     "the GPU delegate's greedy_by_breadth shared objects end to end, as the delegate lays them",
     true, false, kNoRuntime},
    {"naive_objects", kObjects, &PlanObjects<AssignNaive>, &AssignNaive,
     "shared objects, one per buffer", true, false, kNoRuntime},
    {"equality_objects", kObjects, &PlanObjects<AssignEquality>, &AssignEquality,
     "shared objects reused only by buffers of exactly the same size", true, false, kNoRuntime},
    {"greedy_in_order_objects", kObjects, &PlanObjects<AssignGreedyInOrder>, &AssignGreedyInOrder,
     "shared objects assigned in order of first step", true, false, kNoRuntime},
    {"greedy_by_breadth_objects", kObjects, &PlanObjects<AssignGreedyByBreadth>,
     &AssignGreedyByBreadth, "shared objects assigned step by step, widest step first", true, false,
     kNoRuntime},
    {"greedy_by_size_objects", kObjects, &PlanObjects<AssignGreedyBySize>, &AssignGreedyBySize,
     "shared objects by positional-maximum priority", true, false, kNoRuntime},
    {"greedy_best_objects", kObjects, &PlanObjects<AssignGreedyBest>, &AssignGreedyBest,
     "the smaller of greedy_by_breadth_objects and greedy_by_size_objects", true, false,
     kNoRuntime},
    {"mincostflow_objects", kObjects, &PlanObjects<AssignMinCostFlow>, &AssignMinCostFlow,
     "shared objects by min-cost flow (at most 1,000 buffers)", true, false, kNoRuntime},
    {"optimal", kSearch, nullptr, nullptr,
     "exact search within a time limit; never worse than tflm_greedy", true, true, kNoRuntime},
    {"best", kSearch, nullptr, nullptr,
     "the smallest plan of every strategy best tries (ties go to the earlier one)", false, true,
     kNoRuntime},
};

constexpr char kObjectsSuffix[] = "_objects";
constexpr size_t kObjectsSuffixLength = sizeof(kObjectsSuffix) - 1;

std::string Join(bool all, StrategyKind kind) {
  std::string out;
  for (const StrategyInfo& s : kStrategies) {
    if (!all && s.kind != kind) continue;
    if (!out.empty()) out += ", ";
    out += s.name;
  }
  return out;
}

}  // namespace

Span<const StrategyInfo> Strategies() {
  return Span<const StrategyInfo>(kStrategies, sizeof(kStrategies) / sizeof(kStrategies[0]));
}

const StrategyInfo* FindStrategy(const std::string& name) {
  for (const StrategyInfo& s : kStrategies) {
    if (name == s.name) return &s;
  }
  return nullptr;
}

std::string ObjectStrategyName(const StrategyInfo& info) {
  const size_t n = std::strlen(info.name);
  if (n < kObjectsSuffixLength) return info.name;
  return std::string(info.name, n - kObjectsSuffixLength);
}

const StrategyInfo* FindObjectStrategy(const std::string& name) {
  for (const StrategyInfo& s : kStrategies) {
    if (s.kind == StrategyKind::kSharedObjects && ObjectStrategyName(s) == name) return &s;
  }
  return nullptr;
}

std::string StrategyNames(StrategyKind kind) { return Join(false, kind); }
std::string StrategyNames() { return Join(true, StrategyKind::kSearch); }

const char* StrategyKindName(StrategyKind kind) {
  switch (kind) {
    case StrategyKind::kRuntimePlanner:
      return "runtime_planner";
    case StrategyKind::kOffsets:
      return "offsets";
    case StrategyKind::kSharedObjects:
      return "shared_objects";
    case StrategyKind::kSearch:
      return "search";
  }
  return "?";
}

}  // namespace tflm_arena
