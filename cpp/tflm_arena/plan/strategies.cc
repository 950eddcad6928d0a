// The strategy registry (strategies.h), built from the list in
// strategy_list.h: one entry per strategy.
#include "tflm_arena/plan/strategies.h"

#include <cstring>

#include "tflm_arena/core/enum_names.h"
#include "tflm_arena/plan/strategy_list.h"

namespace tflm_arena {

// The functions the list names (strategy_list.h), each defined in its
// strategy's own file or below.
#define TFLM_ARENA_DECLARE_PLAN(name, function, ...) \
  Status function(Span<const UsageRecord> records, PlanResult* out, PlanCancel cancel);
#define TFLM_ARENA_DECLARE_ASSIGN(name, assign, ...) \
  Status assign(Span<const UsageRecord> records, SharedObjects* out);
#define TFLM_ARENA_DECLARE_NOTHING(...)
TFLM_ARENA_STRATEGIES(TFLM_ARENA_DECLARE_PLAN, TFLM_ARENA_DECLARE_PLAN, TFLM_ARENA_DECLARE_ASSIGN,
                      TFLM_ARENA_DECLARE_NOTHING)
#undef TFLM_ARENA_DECLARE_PLAN
#undef TFLM_ARENA_DECLARE_ASSIGN
#undef TFLM_ARENA_DECLARE_NOTHING

namespace {

template <AssignFn Assign>
Status PlanObjects(Span<const UsageRecord> records, PlanResult* out, PlanCancel) {
  SharedObjects objects;
  TFLM_ARENA_RETURN_IF_ERROR(Assign(records, &objects));
  return ObjectsToOffsets(objects, out);
}

// Min-cost flow is the slow one of the shared-object strategies (seconds on
// a thousand buffers): it takes the cancel hook, so `best` stops it too.
template <>
Status PlanObjects<AssignMinCostFlow>(Span<const UsageRecord> records, PlanResult* out,
                                      PlanCancel cancel) {
  SharedObjects objects;
  TFLM_ARENA_RETURN_IF_ERROR(AssignMinCostFlowCancellable(records, &objects, cancel));
  return ObjectsToOffsets(objects, out);
}

}  // namespace

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
Status PlanGpuGreedyByBreadth(Span<const UsageRecord> records, PlanResult* out, PlanCancel cancel) {
  return PlanObjects<AssignGreedyByBreadth>(records, out, cancel);
}

namespace {

constexpr StrategyKind kRuntime = StrategyKind::kRuntimePlanner;
constexpr StrategyKind kOffsets = StrategyKind::kOffsets;
constexpr StrategyKind kObjects = StrategyKind::kSharedObjects;
constexpr StrategyKind kSearch = StrategyKind::kSearch;
constexpr RuntimePlanner kNoRuntime = RuntimePlanner::kNone;

// StrategyInfo's fields: name, kind, plan, assign, description, tried by
// best, fixed offsets, runtime planner.
#define TFLM_ARENA_RUNTIME_ROW(name, fn, planner, best, fixed, text) \
  {name, kRuntime, &(fn), nullptr, text, best, fixed, RuntimePlanner::planner},
#define TFLM_ARENA_OFFSETS_ROW(name, fn, best, fixed, text) \
  {name, kOffsets, &(fn), nullptr, text, best, fixed, kNoRuntime},
#define TFLM_ARENA_OBJECTS_ROW(name, assign, best, text) \
  {name, kObjects, &PlanObjects<assign>, &(assign), text, best, false, kNoRuntime},
#define TFLM_ARENA_SEARCH_ROW(name, best, fixed, text) \
  {name, kSearch, nullptr, nullptr, text, best, fixed, kNoRuntime},
const StrategyInfo kStrategies[] = {TFLM_ARENA_STRATEGIES(
    TFLM_ARENA_RUNTIME_ROW, TFLM_ARENA_OFFSETS_ROW, TFLM_ARENA_OBJECTS_ROW, TFLM_ARENA_SEARCH_ROW)};
#undef TFLM_ARENA_RUNTIME_ROW
#undef TFLM_ARENA_OFFSETS_ROW
#undef TFLM_ARENA_OBJECTS_ROW
#undef TFLM_ARENA_SEARCH_ROW

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
  static constexpr EnumName<StrategyKind> kNames[] = {
      {StrategyKind::kRuntimePlanner, "runtime_planner"},
      {StrategyKind::kOffsets, "offsets"},
      {StrategyKind::kSharedObjects, "shared_objects"},
      {StrategyKind::kSearch, "search"},
  };
  return NameOf(kNames, kind, "?");
}

}  // namespace tflm_arena
