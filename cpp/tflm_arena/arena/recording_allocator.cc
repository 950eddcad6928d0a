#include "tflm_arena/arena/recording_allocator.h"

#include <cstdarg>

#include "tflm_arena/core/format.h"

namespace tflm_arena {
namespace {

bool Valid(AllocationCategory category) {
  return static_cast<size_t>(category) < kAllocationCategoryCount;
}

// Appends formatted text at out[*length] (if room) and advances *length by the
// full formatted size, so the final length is what a large buffer would hold.
bool Append(char* out, size_t out_size, size_t* length, const char* format, ...)
    __attribute__((format(printf, 4, 5)));
bool Append(char* out, size_t out_size, size_t* length, const char* format, ...) {
  char* dest = nullptr;
  size_t room = 0;
  if (out != nullptr && *length < out_size) {
    dest = out + *length;
    room = out_size - *length;
  }
  va_list args;
  va_start(args, format);
  const int n = FormatV(dest, room, format, args);
  va_end(args);
  if (n < 0) return false;
  *length += static_cast<size_t>(n);
  return true;
}

}  // namespace

RecordedAllocation AllocationRecorder::GetRecordedAllocation(AllocationCategory category) const {
  return Valid(category) ? categories_[static_cast<size_t>(category)] : RecordedAllocation{};
}

void AllocationRecorder::RecordHeadResize(size_t requested, size_t old_head_end,
                                          size_t new_head_end) {
  requested_head_bytes_ = requested;
  // Unsigned wrap-around makes this a signed delta: shrinking subtracts.
  used_bytes_ += new_head_end - old_head_end;
}

void AllocationRecorder::RecordPersistent(AllocationCategory category, size_t requested,
                                          size_t used, size_t items) {
  requested_tail_bytes_ += requested;
  used_bytes_ += used;
  ++allocation_count_;
  RecordedAllocation& r = categories_[static_cast<size_t>(category)];
  r.requested_bytes += requested;
  r.used_bytes += used;
  r.count += items;
}

int AllocationRecorder::PrintAllocations(const SingleArenaAllocator& arena, char* out,
                                         size_t out_size) const {
  // Worded so it cannot be taken for TFLM's RecordingMicroAllocator text:
  // these are this runtime's bytes, and stock TFLM needs more (its tail
  // holds allocator objects and TfLiteTensor copies that ours keeps out).
  size_t length = 0;
  if (out != nullptr && out_size > 0) out[0] = '\0';
  bool ok = Append(out, out_size, &length,
                   "tflm_arena runtime: arena %zu bytes used (head %zu, tail "
                   "%zu); not stock TFLM's figures\n",
                   used_bytes_, arena.GetNonPersistentUsedBytes(), arena.GetPersistentUsedBytes());
  for (size_t i = 0; ok && i < kAllocationCategoryCount; ++i) {
    const auto category = static_cast<AllocationCategory>(i);
    const RecordedAllocation& r = categories_[i];
    if (category == AllocationCategory::kOther) continue;
    if (r.used_bytes == 0 && r.requested_bytes == 0) continue;
    ok = Append(out, out_size, &length, "  %s: %zu bytes used (%zu requested for %zu %s)\n",
                AllocationCategoryName(category), r.used_bytes, r.requested_bytes, r.count,
                AllocationCategoryNoun(category));
  }
  return ok ? static_cast<int>(length) : -1;
}

RecordingArenaAllocator::RecordingArenaAllocator(uint8_t* buffer, size_t size)
    : SingleArenaAllocator(buffer, size) {
  set_recorder(&recording_);
}

}  // namespace tflm_arena
