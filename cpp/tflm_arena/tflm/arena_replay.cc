#include "tflm_arena/tflm/arena_replay.h"

namespace tflm_arena {
namespace tflm {
namespace {

constexpr uint64_t kArenaAlignment = 16;
// TFLM's greedy_memory_planner.cc, per_buffer_size(): five int arrays,
// 16 + 4 + 4 + 12 + 4 bytes per buffer on every platform.
constexpr uint64_t kGreedyBytesPerBuffer = 40;

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
uint64_t AlignDown(uint64_t v, uint64_t a) { return v / a * a; }

}  // namespace

ReplayResult Replay(const Trace& trace, uint64_t arena_bytes, ReplayBuffer buffer) {
  ReplayResult r;
  // Signed positions: a request larger than the remaining tail goes below 0.
  int64_t head = 0, temp = 0;
  int64_t protected_end = 0;  // end of the temp bytes still read (>= head)
  int64_t tail = static_cast<int64_t>(
      buffer == ReplayBuffer::kPersistent ? AlignDown(arena_bytes, kArenaAlignment) : arena_bytes);
  auto fail = [&](size_t i) {
    r.ok = false;
    r.failed_event = i;
    return r;
  };
  for (size_t i = 0; i < trace.events.size(); ++i) {
    const Event& e = trace.events[i];
    const int64_t size = static_cast<int64_t>(e.size);
    if ((buffer == ReplayBuffer::kNonPersistent && e.kind == EventKind::kTail) ||
        (buffer == ReplayBuffer::kPersistent && e.kind != EventKind::kTail)) {
      continue;  // lands in the other buffer
    }
    switch (e.kind) {
      case EventKind::kTail: {
        const int64_t want = tail - size;
        // AlignPointerDown on an address; the buffer start is 16-aligned.
        const int64_t at = want >= 0 ? static_cast<int64_t>(AlignDown(want, e.align))
                                     : -static_cast<int64_t>(AlignUp(-want, e.align));
        // TFLM checks only against the head, but a tail allocation that
        // covers temp bytes still read corrupts them (a kernel's LUT written
        // over its temp TfLiteTensors; variables over the AllocationInfo
        // array; docs/tflm_behaviour.md, section "Tail over temp"): the run
        // then fails or crashes, so it counts as
        // failing here.
        if (at < head || at < protected_end) return fail(i);
        if (e.category != Category::kOther) {
          CategoryFigures& c = r.categories[static_cast<size_t>(e.category)];
          c.requested += e.size;
          c.used += static_cast<uint64_t>(tail - at);
          c.count += e.count;
        }
        tail = at;
        break;
      }
      case EventKind::kTemp: {
        const int64_t at = static_cast<int64_t>(AlignUp(temp, e.align));
        if (at > tail || tail - at < size) return fail(i);
        temp = at + size;
        const uint64_t keep = e.protect < e.size ? e.protect : e.size;
        if (keep > 0 && at + static_cast<int64_t>(keep) > protected_end) {
          protected_end = at + static_cast<int64_t>(keep);
        }
        if (static_cast<uint64_t>(temp - head) > r.temp_peak) r.temp_peak = temp - head;
        break;
      }
      case EventKind::kResetTemp:
        temp = protected_end = head;
        break;
      case EventKind::kResizeHead:
        if (tail < size) return fail(i);  // TFLM's ResizeBuffer: available = tail - aligned start
        head = temp = protected_end = size;
        break;
      case EventKind::kPlannerScratch: {
        const int64_t at = static_cast<int64_t>(AlignUp(temp, kArenaAlignment));
        const int64_t end = tail >= 0 ? static_cast<int64_t>(AlignDown(tail, kArenaAlignment)) : -1;
        if (end < at) return fail(i);  // TFLM's unsigned GetAvailableMemory wraps; it crashes
        const uint64_t available = static_cast<uint64_t>(end - at);
        const uint64_t need = trace.planner == PlannerKind::kGreedy
                                  ? kGreedyBytesPerBuffer * e.size
                                  : 0;         // linear keeps its offsets in its object
        if (available < need) return fail(i);  // "Too many buffers"
        if (static_cast<uint64_t>(at - head) + need > r.temp_peak) {
          r.temp_peak = static_cast<uint64_t>(at - head) + need;
        }
        temp = protected_end = end;
        break;
      }
    }
  }
  r.ok = true;
  r.head = static_cast<uint64_t>(temp > head ? temp : head);
  r.tail = arena_bytes - static_cast<uint64_t>(tail);
  return r;
}

}  // namespace tflm
}  // namespace tflm_arena
