#include "tflm_arena/tflm/shared_arena.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace tflm_arena {
namespace tflm {

Status SharedTrace(const std::vector<const Trace*>& in_order, Trace* out,
                   std::vector<size_t>* model_of_event) {
  if (in_order.empty()) {
    return Status::Error(StatusCode::kInvalidArgument, "no model to allocate");
  }
  *out = Trace();
  model_of_event->clear();
  out->planner = in_order[0]->planner;
  int64_t max_head = 0;  // MicroAllocator::max_head_buffer_usage_
  for (size_t m = 0; m < in_order.size(); ++m) {
    const Trace& t = *in_order[m];
    if (t.planner != out->planner || t.allocator_events > t.events.size() ||
        t.head_plan_event < t.allocator_events || t.head_plan_event >= t.events.size() ||
        t.events[t.head_plan_event].kind != EventKind::kResizeHead) {
      return Status::Error(StatusCode::kInternal, "model %zu: trace without its markers", m);
    }
    max_head = std::max(max_head, t.head_usage);
    for (size_t i = m == 0 ? 0 : t.allocator_events; i < t.events.size(); ++i) {
      Event e = t.events[i];
      if (i == t.head_plan_event) e.size = static_cast<uint64_t>(max_head);
      out->events.push_back(e);
      model_of_event->push_back(m);
    }
    out->planned_buffers += t.planned_buffers;
    out->scratch_requests += t.scratch_requests;
    out->head_usage = max_head;
  }
  out->allocator_events = in_order[0]->allocator_events;
  out->op_names = in_order.back()->op_names;  // not used for messages here
  return Status::Ok();
}

Status SharedArenaPhasesOf(const std::vector<const Trace*>& in_order, SharedArenaPhases* out) {
  *out = SharedArenaPhases();
  std::vector<size_t> model_of_event;
  for (size_t k = 1; k <= in_order.size(); ++k) {
    const std::vector<const Trace*> prefix(in_order.begin(),
                                           in_order.begin() + static_cast<std::ptrdiff_t>(k));
    Trace shared;
    TFLM_ARENA_RETURN_IF_ERROR(SharedTrace(prefix, &shared, &model_of_event));
    uint64_t bytes = 0;
    TFLM_ARENA_RETURN_IF_ERROR(SmallestWorkingSize(shared, ReplayBuffer::kSingle, &bytes));
    out->phase_bytes.push_back(bytes);
    if (k == in_order.size()) {
      out->min_arena_bytes = bytes;
      const ReplayResult below = Replay(shared, bytes - 1);
      if (!below.ok) {
        const size_t m = model_of_event[below.failed_event];
        out->limited_by_model = m;
        const Event& e = shared.events[below.failed_event];
        const Trace& own = *in_order[m];
        out->limited_by = e.what;
        if (e.op >= 0 && static_cast<size_t>(e.op) < own.op_names.size()) {
          out->limited_by += " (operator " + std::to_string(e.op) + ", " + own.op_names[e.op] + ")";
        }
      }
    }
  }
  return Status::Ok();
}

Status ComputeTflmSharedArena(const std::vector<const model::Model*>& models,
                              const TflmArenaOptions& options, TflmSharedArena* out,
                              Refusal* refusal, size_t* failed_model) {
  if (models.size() < 2) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "a shared arena needs at least two models (%zu given)", models.size());
  }
  TflmSharedArena r;
  std::vector<Trace> traces(models.size());
  r.single_arena_bytes.reserve(models.size());
  r.heads.reserve(models.size());
  r.tails.reserve(models.size());
  ResolvedTarget resolved;
  for (size_t m = 0; m < models.size(); ++m) {
    if (failed_model != nullptr) *failed_model = m;
    TFLM_ARENA_RETURN_IF_ERROR(
        BuildTargetTrace(*models[m], options, &resolved, &traces[m], refusal));
    uint64_t single = 0;
    TFLM_ARENA_RETURN_IF_ERROR(SmallestWorkingSize(traces[m], ReplayBuffer::kSingle, &single));
    const ReplayResult at = Replay(traces[m], single);
    r.single_arena_bytes.push_back(single);
    r.heads.push_back(at.head);
    r.tails.push_back(at.tail);
  }
  if (failed_model != nullptr) *failed_model = models.size();
  if (resolved.target == nullptr || resolved.abi == nullptr) {
    return Status::Error(StatusCode::kInternal, "target not resolved");
  }
  if (resolved.target->allocator == AllocatorRule::kWheelInterpreter) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "target %s: the wheel's Python interpreter creates one allocator per "
                         "model; a shared arena is for an application that passes one "
                         "MicroAllocator to several MicroInterpreters",
                         resolved.target->name);
  }
  r.target = resolved.target->name;
  r.version = resolved.version->name;
  r.description = resolved.description;
  r.recording = resolved.recording;
  r.planner = options.planner;
  r.checked = resolved.checked && resolved.abi->id == AbiId::kCortexM;
  r.order.resize(models.size());
  std::iota(r.order.begin(), r.order.end(), size_t{0});

  auto in_order = [&](const std::vector<size_t>& order) {
    std::vector<const Trace*> v;
    v.reserve(order.size());
    for (size_t i : order) v.push_back(&traces[i]);
    return v;
  };
  TFLM_ARENA_RETURN_IF_ERROR(SharedArenaPhasesOf(in_order(r.order), &r.given));
  r.best_order = r.order;
  r.best_min_arena_bytes = r.given.min_arena_bytes;
  if (models.size() <= kSharedArenaAllOrdersMax) {
    r.all_orders_checked = true;
    std::vector<size_t> order = r.order;
    Trace shared;
    std::vector<size_t> model_of_event;
    while (std::next_permutation(order.begin(), order.end())) {
      TFLM_ARENA_RETURN_IF_ERROR(SharedTrace(in_order(order), &shared, &model_of_event));
      uint64_t bytes = 0;
      TFLM_ARENA_RETURN_IF_ERROR(SmallestWorkingSize(shared, ReplayBuffer::kSingle, &bytes));
      if (bytes < r.best_min_arena_bytes) {
        r.best_min_arena_bytes = bytes;
        r.best_order = order;
      }
    }
  }
  *out = std::move(r);
  return Status::Ok();
}

}  // namespace tflm
}  // namespace tflm_arena
