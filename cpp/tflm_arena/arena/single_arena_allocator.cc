#include "tflm_arena/arena/single_arena_allocator.h"

#include "tflm_arena/arena/recording_allocator.h"

namespace tflm_arena {
namespace {

size_t SaturatingAdd(size_t a, size_t b) { return AddFits(a, b) ? a + b : SIZE_MAX; }
size_t Max(size_t a, size_t b) { return a > b ? a : b; }

}  // namespace

SingleArenaAllocator::SingleArenaAllocator(uint8_t* buffer, size_t size) {
  if (buffer == nullptr) return;  // capacity 0
  const uintptr_t raw = reinterpret_cast<uintptr_t>(buffer);
  const size_t slack = (kArenaAlignment - raw % kArenaAlignment) % kArenaAlignment;
  if (slack > size) {
    base_ = buffer;  // too small to reach an aligned address: nothing usable
    return;
  }
  base_ = buffer + slack;
  capacity_ = size - slack;
  tail_ = capacity_;
}

size_t SingleArenaAllocator::AlignOffsetUp(size_t offset, size_t alignment) const {
  const uintptr_t address = reinterpret_cast<uintptr_t>(base_) + offset;
  const size_t rem = static_cast<size_t>(address % alignment);
  return rem == 0 ? offset : SaturatingAdd(offset, alignment - rem);
}

// `from` is where the block would start (after alignment) and tail_ is the
// limit for every section, so "available" is what fits at that alignment and
// "missing" is exactly what the limit is short by; neither can underflow.
Status SingleArenaAllocator::Shortfall(const char* what, size_t from, size_t size) const {
  const size_t available = from <= tail_ ? tail_ - from : 0;
  const size_t missing = from <= tail_ ? size - available : SaturatingAdd(size, from - tail_);
  return Status::TooSmall(SaturatingAdd(capacity_, missing),
                          "%s %zu bytes failed: %zu bytes available (%zu missing)", what, size,
                          available, missing);
}

void SingleArenaAllocator::UpdateHighWater() {
  const size_t non_persistent = GetNonPersistentUsedBytes();
  const size_t persistent = GetPersistentUsedBytes();
  hw_head_ = Max(hw_head_, non_persistent);
  hw_tail_ = Max(hw_tail_, persistent);
  hw_total_ = Max(hw_total_, non_persistent + persistent);
}

Status SingleArenaAllocator::ResizeHead(size_t size, size_t alignment) {
  if (alignment == 0) {
    return Status::Error(StatusCode::kInvalidArgument, "head resize: alignment must be positive");
  }
  if (temp_ != head_) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "head resize to %zu bytes refused: temp allocations are "
                         "live; call ResetTemp() before ResizeHead()",
                         size);
  }
  const size_t begin = AlignOffsetUp(0, alignment);
  if (begin > tail_ || size > tail_ - begin) {
    return Shortfall("head resize to", begin, size);
  }
  const size_t old_head = head_;
  head_begin_ = begin;
  head_ = temp_ = begin + size;
  UpdateHighWater();
  if (recorder_ != nullptr) recorder_->RecordHeadResize(size, old_head, head_);
  return Status::Ok();
}

Status SingleArenaAllocator::AllocateTemp(size_t size, size_t alignment, uint8_t** out) {
  if (out == nullptr || alignment == 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "temp allocation: null output or zero alignment");
  }
  *out = nullptr;
  const size_t begin = AlignOffsetUp(temp_, alignment);
  if (begin > tail_ || size > tail_ - begin) {
    return Shortfall("temp allocation of", begin, size);
  }
  temp_ = begin + size;
  *out = base_ + begin;
  ++temp_count_;
  temp_checksum_ ^= reinterpret_cast<uintptr_t>(*out);
  UpdateHighWater();
  return Status::Ok();
}

void SingleArenaAllocator::DeallocateTemp(const uint8_t* p) {
  if (p == nullptr) return;
  --temp_count_;
  temp_checksum_ ^= reinterpret_cast<uintptr_t>(p);
}

bool SingleArenaAllocator::IsAllTempDeallocated() const {
  return temp_count_ == 0 && temp_checksum_ == 0;
}

Status SingleArenaAllocator::ResetTemp() {
  if (!IsAllTempDeallocated()) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "temp reset refused: number of allocated temp buffers: "
                         "%d, checksum passing status: %d; all temp buffers must "
                         "be freed before calling ResetTemp()",
                         static_cast<int>(temp_count_), temp_checksum_ == 0 ? 1 : 0);
  }
  temp_ = head_;
  return Status::Ok();
}

Status SingleArenaAllocator::AllocatePersistent(size_t size, size_t alignment, uint8_t** out) {
  return AllocatePersistent(size, alignment, AllocationCategory::kOther, out, 1);
}

Status SingleArenaAllocator::AllocatePersistent(size_t size, size_t alignment,
                                                AllocationCategory category, uint8_t** out,
                                                size_t items) {
  if (out == nullptr || alignment == 0 ||
      static_cast<size_t>(category) >= kAllocationCategoryCount) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "tail allocation: null output, zero alignment or bad "
                         "category");
  }
  *out = nullptr;
  // The lowest start allowed is above head and temp; asking "does the block
  // fit between that (aligned) and tail" is equivalent to aligning the new
  // tail down and comparing, without computing tail - size first.
  const size_t lowest = AlignOffsetUp(Max(head_, temp_), alignment);
  if (lowest > tail_ || size > tail_ - lowest) {
    return Shortfall("tail allocation of", lowest, size);
  }
  const size_t top = tail_ - size;  // >= lowest
  const uintptr_t address = reinterpret_cast<uintptr_t>(base_) + top;
  const size_t new_tail = top - static_cast<size_t>(address % alignment);  // >= lowest
  const size_t used = tail_ - new_tail;
  tail_ = new_tail;
  *out = base_ + new_tail;
  UpdateHighWater();
  if (recorder_ != nullptr) recorder_->RecordPersistent(category, size, used, items);
  return Status::Ok();
}

size_t SingleArenaAllocator::GetNonPersistentUsedBytes() const { return Max(head_, temp_); }

size_t SingleArenaAllocator::GetPersistentUsedBytes() const { return capacity_ - tail_; }

size_t SingleArenaAllocator::GetUsedBytes() const {
  return GetNonPersistentUsedBytes() + GetPersistentUsedBytes();
}

size_t SingleArenaAllocator::GetAvailableMemory(size_t alignment) const {
  if (alignment == 0) alignment = 1;
  const size_t lowest = AlignOffsetUp(Max(head_, temp_), alignment);
  if (lowest >= tail_) return 0;
  const uintptr_t address = reinterpret_cast<uintptr_t>(base_) + tail_;
  const size_t highest = tail_ - static_cast<size_t>(address % alignment);
  return highest > lowest ? highest - lowest : 0;
}

}  // namespace tflm_arena
