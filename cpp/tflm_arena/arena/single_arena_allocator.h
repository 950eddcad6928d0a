// SingleArenaAllocator: all memory of a model run carved out of one
// caller-provided buffer, in three sections (TFLM's SingleArenaBufferAllocator;
// see docs/tflm_behaviour.md, section "Arena sections"):
//
//   capacity():  |<------------------------------------------------->|
//   address:     start                                              end
//                |  HEAD  |  TEMP ...-->|      free      |<-- TAIL  |
//                ^head_start  ^head     ^temp            ^tail
//
// HEAD  one resizable buffer at the (16-aligned) start: the activation and
//       scratch overlay once planned. ResizeHead only when TEMP is reset.
// TEMP  a bump chain after HEAD for scoped scratch (e.g. Prepare-time
//       structs); balanced by DeallocateTemp, released by ResetTemp.
// TAIL  persistent data growing down from the end; never freed.
//
// Differences from TFLM, on purpose:
// - Every section is checked against the others (TFLM checks the tail only
//   against head, so a tail allocation can overwrite live temp data and the
//   free-space arithmetic underflows, so TFLM can crash in its planner; see
//   docs/tflm_behaviour.md, section "Tail over temp"). Here the tail may not
//   cross max(head, temp), temp may not cross tail, head may not cross tail, and
//   no subtraction can go below zero.
// - Every shortfall is Status::TooSmall naming the section, the requested and
//   available bytes and needed_bytes() = capacity() + missing, i.e. the usable
//   bytes that allocation needed given everything already allocated (a lower
//   bound for the run; alignment padding can move it by a few bytes).
// - High-water marks: HighWaterTotal() is the peak of head+temp+tail over the
//   run, which is what an exactly-sized arena needs (TFLM's
//   arena_used_bytes() is not: planning temp can exceed it; see
//   docs/tflm_behaviour.md, section "Temp during planning"). Like TFLM, only the start is aligned,
//   so tail padding depends on where the end falls: measured in an arena whose end is 16-aligned
//   (and with tail alignments <= 16), AlignSizeUp(HighWaterTotal(), 16) bytes of 16-aligned buffer
//   replay the same run exactly. A buffer whose start is not 16-aligned needs up to kArenaAlignment
//   - 1 bytes more.
// - The allocator object lives wherever the caller puts it, not in the tail.
//
// No heap, no exceptions; sizes are size_t. Not thread-safe.
#ifndef TFLM_ARENA_ARENA_SINGLE_ARENA_ALLOCATOR_H_
#define TFLM_ARENA_ARENA_SINGLE_ARENA_ALLOCATOR_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/arena/allocation_category.h"
#include "tflm_arena/core/align.h"
#include "tflm_arena/core/status.h"

namespace tflm_arena {

class AllocationRecorder;  // recording_allocator.h

class SingleArenaAllocator {
 public:
  // Aligns the start of `buffer` up to kArenaAlignment (like TFLM's
  // MicroAllocator::Create). Never fails: a null buffer or one too small to
  // reach an aligned address gives capacity() == 0.
  SingleArenaAllocator(uint8_t* buffer, size_t size);
  SingleArenaAllocator(const SingleArenaAllocator&) = delete;
  SingleArenaAllocator& operator=(const SingleArenaAllocator&) = delete;

  // Usable bytes after aligning the start.
  size_t capacity() const { return capacity_; }

  // ---- HEAD ----
  // Start of the head buffer: the aligned start, or further up if the last
  // ResizeHead asked for a larger alignment.
  uint8_t* head_start() const { return base_ + head_begin_; }
  size_t head_size() const { return head_ - head_begin_; }
  // Makes the head buffer `size` bytes long, starting at the start aligned to
  // `alignment`. FailedPrecondition unless the temp chain is reset (ResetTemp).
  Status ResizeHead(size_t size, size_t alignment = kArenaAlignment);

  // ---- TEMP ----
  Status AllocateTemp(size_t size, size_t alignment, uint8_t** out);
  // Marks a temp buffer as released (count and XOR checksum, as TFLM); the
  // memory comes back only at ResetTemp. nullptr is ignored.
  void DeallocateTemp(const uint8_t* p);
  // Drops the whole temp chain. FailedPrecondition while temp buffers are
  // outstanding.
  Status ResetTemp();
  bool IsAllTempDeallocated() const;

  // ---- TAIL ----
  // Uncategorised persistent allocation (recorded as kOther).
  Status AllocatePersistent(size_t size, size_t alignment, uint8_t** out);
  // Persistent allocation tagged for recording; `items` is what the category
  // counts (e.g. tensors in an eval-tensor array, operators in a
  // NodeAndRegistration array, as TFLM's recording allocator counts them). Without a
  // recorder the tag costs one pointer test.
  Status AllocatePersistent(size_t size, size_t alignment, AllocationCategory category,
                            uint8_t** out, size_t items = 1);

  // ---- Accounting (TFLM's GetNonPersistentUsedBytes and friends) ----
  size_t GetNonPersistentUsedBytes() const;  // max(head, temp) - start
  size_t GetPersistentUsedBytes() const;     // end - tail
  size_t GetUsedBytes() const;               // the two above
  // Bytes between temp and tail once both are aligned; 0 when there are none.
  size_t GetAvailableMemory(size_t alignment) const;

  // Peaks since construction.
  size_t HighWaterHead() const { return hw_head_; }    // of max(head,temp)-start
  size_t HighWaterTail() const { return hw_tail_; }    // of end - tail
  size_t HighWaterTotal() const { return hw_total_; }  // of GetUsedBytes()

  // Attach (or detach with nullptr) a recorder that sees head resizes and
  // tail allocations from now on. Not owned.
  void set_recorder(AllocationRecorder* recorder) { recorder_ = recorder; }
  AllocationRecorder* recorder() const { return recorder_; }

 private:
  // Offset of the first address at or after `offset` aligned to `alignment`.
  size_t AlignOffsetUp(size_t offset, size_t alignment) const;
  // The shortfall error for placing `size` bytes at `from` below tail_.
  Status Shortfall(const char* what, size_t from, size_t size) const;
  void UpdateHighWater();

  uint8_t* base_ = nullptr;  // aligned start; all positions are offsets from it
  size_t capacity_ = 0;
  size_t head_begin_ = 0;        // head buffer start
  size_t head_ = 0;              // head buffer end
  size_t temp_ = 0;              // temp chain end (>= head_)
  size_t tail_ = 0;              // tail start (<= capacity_)
  int32_t temp_count_ = 0;       // outstanding temp buffers
  uintptr_t temp_checksum_ = 0;  // XOR of outstanding temp addresses
  size_t hw_head_ = 0;
  size_t hw_tail_ = 0;
  size_t hw_total_ = 0;
  AllocationRecorder* recorder_ = nullptr;
};

}  // namespace tflm_arena

#endif  // TFLM_ARENA_ARENA_SINGLE_ARENA_ALLOCATOR_H_
