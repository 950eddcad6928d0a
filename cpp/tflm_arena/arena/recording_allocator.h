// Recording: TFLM's RecordingSingleArenaBufferAllocator + the category
// bookkeeping of RecordingMicroAllocator (TFLM's
// recording_single_arena_buffer_allocator.cc and
// recording_micro_allocator.cc), without TFLM's snapshot-diffing. The
// figures are this runtime's, not stock TFLM's.
//
// Design: SingleArenaAllocator holds an optional AllocationRecorder* and, after
// each successful head resize or tail allocation, calls it directly (a plain
// non-virtual call behind a null test). Runtime code therefore always talks
// to a SingleArenaAllocator& and tags tail allocations with a category;
// recording is switched on by attaching a recorder, and costs nothing else.
// RecordingArenaAllocator is the convenience pairing of the two.
//
// The recorder only counts; it never allocates. Temp allocations are not
// recorded (TFLM does not either).
#ifndef TFLM_ARENA_ARENA_RECORDING_ALLOCATOR_H_
#define TFLM_ARENA_ARENA_RECORDING_ALLOCATOR_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/arena/allocation_category.h"
#include "tflm_arena/arena/single_arena_allocator.h"

namespace tflm_arena {

class AllocationRecorder {
 public:
  AllocationRecorder() = default;

  // Per-category totals; zeros for an invalid category.
  RecordedAllocation GetRecordedAllocation(AllocationCategory category) const;

  // Totals as TFLM's recording buffer allocator keeps them.
  // Size of the last successful ResizeHead (set, not summed).
  size_t requested_head_bytes() const { return requested_head_bytes_; }
  // Sum of the sizes of all tail allocations.
  size_t requested_tail_bytes() const { return requested_tail_bytes_; }
  size_t requested_bytes() const { return requested_head_bytes_ + requested_tail_bytes_; }
  // Pointer movement of head resizes (shrinking subtracts) plus tail
  // allocations, alignment padding included.
  size_t used_bytes() const { return used_bytes_; }
  // Number of tail allocations.
  size_t allocation_count() const { return allocation_count_; }

  // Writes this runtime's allocation summary for `arena`, one line per
  // "\n": a first line "tflm_arena runtime: arena N bytes used (head H,
  // tail T); not stock TFLM's figures", then one indented line per
  // category, named as TFLM's RecordingMicroAllocator names it. Worded
  // differently from TFLM's PrintAllocations on purpose: stock TFLM needs
  // a larger tail for the same model. Category lines appear only when used
  // or requested bytes are non-zero; kOther is never printed. snprintf contract: returns the full
  // text length, writes at most out_size bytes including the terminating NUL; out may be nullptr
  // when out_size is 0. Returns -1 only on a formatting error.
  int PrintAllocations(const SingleArenaAllocator& arena, char* out, size_t out_size) const;

 private:
  friend class SingleArenaAllocator;  // the only writer
  void RecordHeadResize(size_t requested, size_t old_head_end, size_t new_head_end);
  void RecordPersistent(AllocationCategory category, size_t requested, size_t used, size_t items);

  RecordedAllocation categories_[kAllocationCategoryCount] = {};
  size_t requested_head_bytes_ = 0;
  size_t requested_tail_bytes_ = 0;
  size_t used_bytes_ = 0;
  size_t allocation_count_ = 0;
};

// A SingleArenaAllocator that records from construction on. Not movable: the
// base keeps a pointer to the member recorder.
class RecordingArenaAllocator : public SingleArenaAllocator {
 public:
  RecordingArenaAllocator(uint8_t* buffer, size_t size);
  RecordingArenaAllocator(const RecordingArenaAllocator&) = delete;
  RecordingArenaAllocator& operator=(const RecordingArenaAllocator&) = delete;

  const AllocationRecorder& recording() const { return recording_; }
  RecordedAllocation GetRecordedAllocation(AllocationCategory category) const {
    return recording_.GetRecordedAllocation(category);
  }
  int PrintAllocations(char* out, size_t out_size) const {
    return recording_.PrintAllocations(*this, out, out_size);
  }

 private:
  AllocationRecorder recording_;
};

}  // namespace tflm_arena

#endif  // TFLM_ARENA_ARENA_RECORDING_ALLOCATOR_H_
