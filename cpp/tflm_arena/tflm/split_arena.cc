#include "tflm_arena/tflm/split_arena.h"

#include <utility>

namespace tflm_arena {
namespace tflm {

Status SplitTrace(const Trace& single, const TargetAbi& abi, bool recording, Trace* out) {
  if (recording) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "two buffers: RecordingMicroAllocator has no two-buffer Create (TFLM's "
                         "recording_micro_allocator.h); size a plain MicroAllocator");
  }
  if (single.allocator_events == 0 || single.events.empty() ||
      single.events[0].kind != EventKind::kTail) {
    return Status::Error(StatusCode::kInternal, "trace does not start with the buffer allocator");
  }
  *out = single;
  // CreatePersistentArenaAllocator, then CreateNonPersistentArenaAllocator,
  // both in the persistent buffer; the planner and the MicroAllocator follow
  // as in the single-arena trace.
  Event p = single.events[0];
  p.size = abi.persistent_arena_allocator.size;
  p.align = abi.persistent_arena_allocator.align;
  p.what = "PersistentArenaBufferAllocator";
  Event np = p;
  np.size = abi.non_persistent_arena_allocator.size;
  np.align = abi.non_persistent_arena_allocator.align;
  np.what = "NonPersistentArenaBufferAllocator";
  out->events[0] = p;
  out->events.insert(out->events.begin() + 1, np);
  out->allocator_events = single.allocator_events + 1;
  out->head_plan_event = single.head_plan_event + 1;
  return Status::Ok();
}

Status ComputeTflmSplitArena(const model::Model& model, const TflmArenaOptions& options,
                             TflmSplitArena* out, Refusal* refusal) {
  ResolvedTarget resolved;
  Trace single;
  TFLM_ARENA_RETURN_IF_ERROR(BuildTargetTrace(model, options, &resolved, &single, refusal));
  if (resolved.target->allocator == AllocatorRule::kWheelInterpreter) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "target %s: the wheel's Python interpreter creates one arena per model; "
                         "two buffers are for an application that calls MicroAllocator::Create "
                         "with a persistent and a non-persistent buffer",
                         resolved.target->name);
  }
  Trace split;
  TFLM_ARENA_RETURN_IF_ERROR(SplitTrace(single, *resolved.abi, resolved.recording, &split));

  TflmSplitArena r;
  r.target = resolved.target->name;
  r.version = resolved.version->name;
  r.description = resolved.description;
  r.planner = options.planner;
  r.checked = resolved.checked && resolved.abi->id == AbiId::kCortexM;
  TFLM_ARENA_RETURN_IF_ERROR(
      SmallestWorkingSize(split, ReplayBuffer::kPersistent, &r.min_persistent_bytes));
  TFLM_ARENA_RETURN_IF_ERROR(
      SmallestWorkingSize(split, ReplayBuffer::kNonPersistent, &r.min_non_persistent_bytes));
  TFLM_ARENA_RETURN_IF_ERROR(
      SmallestWorkingSize(single, ReplayBuffer::kSingle, &r.single_arena_bytes));
  r.persistent_limited_by =
      FailingEvent(split, r.min_persistent_bytes - 1, ReplayBuffer::kPersistent);
  r.non_persistent_limited_by =
      FailingEvent(split, r.min_non_persistent_bytes - 1, ReplayBuffer::kNonPersistent);
  *out = std::move(r);
  return Status::Ok();
}

}  // namespace tflm
}  // namespace tflm_arena
