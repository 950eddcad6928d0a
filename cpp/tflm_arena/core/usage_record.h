// The planning problem's input, shared by every planner.
#ifndef TFLM_ARENA_CORE_USAGE_RECORD_H_
#define TFLM_ARENA_CORE_USAGE_RECORD_H_

#include <cstdint>

namespace tflm_arena {

// Time step in TFLM's allocation-scope counter. Lifetimes are INCLUSIVE:
// a buffer with first_step = 2, last_step = 3 is live at steps 2 and 3, and
// overlaps in time any buffer live at step 2 or 3. -1 means "before the first
// operator" (TFLM's kUninitializedLifetime; such buffers are still planned).
using Step = int32_t;

// Offset of a buffer from the start of the arena head, in bytes.
using ByteOffset = int64_t;
constexpr ByteOffset kOnlineOffset = -1;  // "let the planner choose"

struct UsageRecord {
  int64_t size = 0;                         // bytes, >= 0 (already aligned by the caller if wanted)
  Step first_step = 0;                      // first step the buffer is live (inclusive)
  Step last_step = 0;                       // last step the buffer is live (inclusive)
  ByteOffset fixed_offset = kOnlineOffset;  // >= 0: offline-planned, kept as is
};

// True when the two inclusive lifetimes share at least one step.
constexpr bool LifetimesOverlap(const UsageRecord& a, const UsageRecord& b) {
  return !(a.first_step > b.last_step || b.first_step > a.last_step);
}

}  // namespace tflm_arena

#endif  // TFLM_ARENA_CORE_USAGE_RECORD_H_
