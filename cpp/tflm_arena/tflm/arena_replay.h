// Replays an allocation trace on an arena of a given size, exactly as
// SingleArenaBufferAllocator moves its pointers (docs/tflm_behaviour.md,
// section "Arena sections"): the buffer
// is 16-byte aligned and spans [0, arena_bytes); the tail grows down from
// arena_bytes with AlignDown, temp grows up from the head with AlignUp.
//
// Checks are TFLM's, with deliberate differences where TFLM does not check
// and the run then crashes or corrupts memory (section "Tail over temp"):
// temp above the tail
// (TFLM's unsigned arithmetic wraps) and a tail allocation covering temp
// bytes that are still read (TFLM compares with the head only; Event::protect
// says which bytes) both fail here.
#ifndef TFLM_ARENA_TFLM_ARENA_REPLAY_H_
#define TFLM_ARENA_TFLM_ARENA_REPLAY_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/tflm/allocation_trace.h"

namespace tflm_arena {
namespace tflm {

struct CategoryFigures {
  uint64_t requested = 0;
  uint64_t used = 0;  // with alignment padding (pointer movement)
  uint64_t count = 0;
};

struct ReplayResult {
  bool ok = false;
  size_t failed_event = 0;  // index into trace.events when !ok
  uint64_t head = 0;        // max(head, temp) - start at the end, as TFLM prints "head"
  uint64_t tail = 0;        // arena end - tail at the end
  // Most temp bytes in use above the head at once; the planner's scratch
  // counts as what it needs (40 B per buffer, greedy), not what it takes.
  uint64_t temp_peak = 0;
  CategoryFigures categories[kNumCategories];
};

// Which of TFLM's buffers a replay models.
enum class ReplayBuffer : uint8_t {
  // One buffer (SingleArenaBufferAllocator): head, temp and tail share it.
  kSingle = 0,
  // The two-buffer MicroAllocator::Create(persistent, ..., non_persistent,
  // ...): the non-persistent buffer only (NonPersistentArenaBufferAllocator;
  // head, scratch-request records, temp, the planner's scratch). Its end is
  // not aligned; tail events are ignored.
  kNonPersistent,
  // The same allocator's persistent buffer only
  // (PersistentArenaBufferAllocator): tail events, growing down from the
  // buffer's end aligned down to 16 (TFLM's micro_allocator.cc,
  // CreatePersistentArenaAllocator), failing below its start; nothing else
  // lands there.
  kPersistent,
};

ReplayResult Replay(const Trace& trace, uint64_t arena_bytes,
                    ReplayBuffer buffer = ReplayBuffer::kSingle);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_ARENA_REPLAY_H_
