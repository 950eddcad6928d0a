// GreedyPlanner: TFLM's GreedyMemoryPlanner (TFLM's
// memory_planner/greedy_memory_planner.cc), reproduced offset for offset,
// PrintMemoryPlan text included, for use on the device.
//
// Why the steps are what they are:
//  1. Nothing is computed until the first query after an AddBuffer (lazy),
//     so adding n buffers costs O(n) and the plan is built once.
//  2. Fixed-offset (offline) buffers go first, in index order: their places
//     are decided already, and everything else must flow around them. They are
//     never checked against each other (TFLM lets them overlap).
//  3. The other buffers are taken largest first, ties by HIGHER index first.
//     Large buffers placed first leave gaps small ones can fill. TFLM gets the
//     tie rule from a stable bubble sort over a descending-index list; we sort
//     on the same total key with an in-place heapsort (O(n log n), same order).
//  4. Each buffer takes the lowest-address gap that fits, looking only at
//     placed buffers whose lifetimes intersect its own (inclusive ranges):
//        candidate = 0
//        for each such buffer E in offset order:
//          if E.offset - candidate >= size: stop          (gap found)
//          candidate = max(candidate, E.offset + E.size)   (skip past E)
//     Placed buffers are kept in a singly linked list sorted by offset (equal
//     offsets: newest last), exactly as TFLM does. This walk is O(n) per
//     buffer; the host's PlanTflmGreedy gives the same answer faster.
//
//     TFLM's TestGreedyMedium (greedy_memory_planner_test.cc): 10(0,1),
//     20(1,2), 30(2,3), 40(3,4), 50(0,1) -> offsets 50, 70, 40, 0, 0.
//     One column per 5 bytes, placement order 4, 3, 2, 1, 0:
//       offset   0    25   50   75 90
//       step 0   444444444400......     0 (10 B) goes last: 4 ends at 50,
//       step 1   444444444400..1111     1 starts at 70, so the 50..70 gap
//       step 2   ........2222221111     fits it. 1 (20 B) could not use
//       step 3   33333333222222....     0..50 (4) nor 40..70 (2), so it
//       step 4   33333333..........     went on top at 70.
//
// Memory: no heap. Init() carves five arrays from the caller's scratch,
// kBytesPerBuffer (40) bytes per buffer, as TFLM does: requirements (16),
// sorted sizes (4), sorted ids (4), offset-ordered list entries (12), offsets
// (4). Capacity = scratch_bytes / 40 (after aligning the start to 4 bytes).
//
// Limits: sizes, offsets and steps are int like TFLM. AddBuffer rejects a
// negative size, first_step > last_step, a fixed offset below -1 and a fixed
// buffer ending past INT32_MAX. If a planned buffer would end past INT32_MAX
// (where TFLM's int arithmetic would overflow), planning stops there:
// GetOffsetForBuffer returns that error and GetMaximumMemorySize INT32_MAX.
#ifndef TFLM_ARENA_PLAN_GREEDY_PLANNER_H_
#define TFLM_ARENA_PLAN_GREEDY_PLANNER_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/plan/memory_planner.h"

namespace tflm_arena {

class GreedyPlanner : public MemoryPlanner {
 public:
  static constexpr size_t kBytesPerBuffer = 40;

  GreedyPlanner() = default;
  GreedyPlanner(const GreedyPlanner&) = delete;
  GreedyPlanner& operator=(const GreedyPlanner&) = delete;

  // Uses scratch (not owned; must outlive the planner's use) for all working
  // memory and forgets previous buffers. scratch may be null only with 0 bytes.
  Status Init(uint8_t* scratch, size_t scratch_bytes) override;

  // Beyond capacity: kArenaTooSmall "Too many buffers (max is N)".
  Status AddBuffer(int size, int first_step, int last_step) override;
  Status AddBuffer(int size, int first_step, int last_step, int fixed_offset) override;

  // Out of range: kOutOfRange "buffer index I is outside range 0 to N".
  // Fails for every index if the plan does not fit in int32 (see above).
  Status GetOffsetForBuffer(int index, int* offset) override;
  // INT32_MAX if the plan does not fit in int32.
  int GetMaximumMemorySize() override;
  int GetBufferCount() const override { return buffer_count_; }
  bool preserves_all_tensors() const override { return false; }
  size_t scratch_bytes_per_buffer() const override { return kBytesPerBuffer; }
  int max_buffer_count() const { return max_buffer_count_; }

  // TFLM's self-check: true if two buffers live at a common step share bytes
  // of [offset, offset + size). O(n^2). Like TFLM, a zero-size buffer lying
  // strictly inside another counts as overlapping.
  bool DoAnyBuffersOverlap();

  // TFLM's PrintMemoryPlan text (see plan_text.h), each line ending in '\n'.
  // Returns the full length; the text is truncated to out_size - 1 chars.
  int PrintMemoryPlan(char* out, size_t out_size);

 private:
  struct Requirements {
    int32_t size;
    int32_t fixed_offset;  // -1: planner chooses
    int32_t first_step;
    int32_t last_step;
  };
  struct ListEntry {
    int32_t offset;
    int32_t buffer;  // index into requirements_
    int32_t next;    // index into list_, -1 at the end
  };

  void CalculateOffsetsIfNeeded();
  int32_t FindGap(const Requirements& wanted) const;
  void InsertIntoList(int32_t entry);

  Requirements* requirements_ = nullptr;
  int32_t* sorted_sizes_ = nullptr;
  int32_t* sorted_ids_ = nullptr;
  ListEntry* list_ = nullptr;
  int32_t* offsets_ = nullptr;
  int max_buffer_count_ = 0;
  int buffer_count_ = 0;
  int list_head_ = -1;
  int overflow_buffer_ = -1;  // buffer whose planned end passed INT32_MAX
  int64_t overflow_end_ = 0;  // ... and that end
  bool need_to_calculate_ = true;
};

namespace plan_internal {
// Sorts (sizes[i], ids[i]) pairs in place by size descending, ties by id
// descending: the order TFLM's stable bubble sort produces from its
// descending-id input. Heapsort: O(n log n), no extra memory.
void SortBySizeDescending(int32_t* sizes, int32_t* ids, int count);
}  // namespace plan_internal

}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_GREEDY_PLANNER_H_
