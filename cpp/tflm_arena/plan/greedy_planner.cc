#include "tflm_arena/plan/greedy_planner.h"

#include <climits>

#include "tflm_arena/core/align.h"
#include "tflm_arena/plan/plan_text.h"

namespace tflm_arena {

static_assert(sizeof(int) == sizeof(int32_t), "TFLM planners assume 32-bit int");

namespace plan_internal {
namespace {

// True when pair a must come before pair b: bigger size, then bigger id.
inline bool Precedes(const int32_t* sizes, const int32_t* ids, int a, int b) {
  return sizes[a] > sizes[b] || (sizes[a] == sizes[b] && ids[a] > ids[b]);
}

inline void Swap(int32_t* sizes, int32_t* ids, int a, int b) {
  int32_t s = sizes[a];
  sizes[a] = sizes[b];
  sizes[b] = s;
  int32_t i = ids[a];
  ids[a] = ids[b];
  ids[b] = i;
}

// Heap whose root is the element that comes LAST in the final order.
void SiftDown(int32_t* sizes, int32_t* ids, int root, int end) {
  while (true) {
    int child = 2 * root + 1;
    if (child >= end) return;
    if (child + 1 < end && Precedes(sizes, ids, child, child + 1)) ++child;
    if (!Precedes(sizes, ids, root, child)) return;
    Swap(sizes, ids, root, child);
    root = child;
  }
}

}  // namespace

void SortBySizeDescending(int32_t* sizes, int32_t* ids, int count) {
  for (int i = count / 2 - 1; i >= 0; --i) SiftDown(sizes, ids, i, count);
  for (int end = count - 1; end > 0; --end) {
    Swap(sizes, ids, 0, end);
    SiftDown(sizes, ids, 0, end);
  }
}

}  // namespace plan_internal

Status GreedyPlanner::Init(uint8_t* scratch, size_t scratch_bytes) {
  if (scratch == nullptr && scratch_bytes > 0) {
    return Status::Error(StatusCode::kInvalidArgument, "scratch is null but scratch_bytes is %zu",
                         scratch_bytes);
  }
  uint8_t* start = scratch_bytes > 0 ? AlignPointerUp(scratch, alignof(int32_t)) : scratch;
  const size_t skipped = static_cast<size_t>(start - scratch);
  const size_t usable = scratch_bytes > skipped ? scratch_bytes - skipped : 0;
  size_t capacity = usable / kBytesPerBuffer;
  if (capacity > static_cast<size_t>(INT_MAX)) capacity = INT_MAX;
  max_buffer_count_ = static_cast<int>(capacity);

  // Order keeps every array 4-byte aligned: 16 n, 12 n, then 4 n three times.
  uint8_t* p = start;
  requirements_ = reinterpret_cast<Requirements*>(p);
  p += sizeof(Requirements) * capacity;
  list_ = reinterpret_cast<ListEntry*>(p);
  p += sizeof(ListEntry) * capacity;
  sorted_sizes_ = reinterpret_cast<int32_t*>(p);
  p += sizeof(int32_t) * capacity;
  sorted_ids_ = reinterpret_cast<int32_t*>(p);
  p += sizeof(int32_t) * capacity;
  offsets_ = reinterpret_cast<int32_t*>(p);

  buffer_count_ = 0;
  list_head_ = -1;
  overflow_buffer_ = -1;
  need_to_calculate_ = true;
  return Status::Ok();
}

Status GreedyPlanner::AddBuffer(int size, int first_step, int last_step) {
  return AddBuffer(size, first_step, last_step, -1);
}

Status GreedyPlanner::AddBuffer(int size, int first_step, int last_step, int fixed_offset) {
  static_assert(sizeof(Requirements) + sizeof(ListEntry) + 3 * sizeof(int32_t) == kBytesPerBuffer,
                "per-buffer scratch layout");
  const int index = buffer_count_;
  TFLM_ARENA_RETURN_IF_ERROR(CheckNewBuffer(index, max_buffer_count_, size, first_step, last_step));
  if (fixed_offset < -1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "buffer %d: fixed offset %d is negative (use -1 to let the planner "
                         "choose)",
                         index, fixed_offset);
  }
  if (fixed_offset != -1 && static_cast<int64_t>(fixed_offset) + size > INT_MAX) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "buffer %d: fixed end %lld does not fit in int32 (TFLM planners use int)",
                         index, static_cast<long long>(fixed_offset) + size);
  }
  requirements_[index] = Requirements{size, fixed_offset, first_step, last_step};
  ++buffer_count_;
  need_to_calculate_ = true;
  return Status::Ok();
}

int32_t GreedyPlanner::FindGap(const Requirements& wanted) const {
  int32_t candidate = 0;
  for (int e = list_head_; e != -1; e = list_[e].next) {
    const Requirements& placed = requirements_[list_[e].buffer];
    if (placed.first_step > wanted.last_step || wanted.first_step > placed.last_step) continue;
    if (list_[e].offset - candidate >= wanted.size) break;  // gap found
    const int32_t end = list_[e].offset + placed.size;
    if (end > candidate) candidate = end;
  }
  return candidate;
}

void GreedyPlanner::InsertIntoList(int32_t entry) {
  const int32_t offset = list_[entry].offset;
  if (list_head_ == -1 || offset < list_[list_head_].offset) {
    list_[entry].next = list_head_;
    list_head_ = entry;
    return;
  }
  // After the last entry whose offset is <= ours: equal offsets, newest last.
  int32_t at = list_head_;
  while (list_[at].next != -1 && list_[list_[at].next].offset <= offset) at = list_[at].next;
  list_[entry].next = list_[at].next;
  list_[at].next = entry;
}

void GreedyPlanner::CalculateOffsetsIfNeeded() {
  if (!need_to_calculate_ || buffer_count_ == 0) return;
  need_to_calculate_ = false;

  // Fixed buffers at the front in index order; the rest at the back, which
  // leaves them in descending index order before the sort (step 2 above).
  int head = 0;
  int tail = buffer_count_;
  for (int i = 0; i < buffer_count_; ++i) {
    if (requirements_[i].fixed_offset == -1) {
      --tail;
      sorted_sizes_[tail] = requirements_[i].size;
      sorted_ids_[tail] = i;
      offsets_[i] = -1;
    } else {
      sorted_sizes_[head] = requirements_[i].size;
      sorted_ids_[head] = i;
      offsets_[i] = requirements_[i].fixed_offset;
      ++head;
    }
  }
  plan_internal::SortBySizeDescending(sorted_sizes_ + head, sorted_ids_ + head,
                                      buffer_count_ - head);

  list_head_ = -1;
  overflow_buffer_ = -1;
  for (int i = 0; i < buffer_count_; ++i) {
    const int32_t id = sorted_ids_[i];
    const Requirements& wanted = requirements_[id];
    const int32_t offset = wanted.fixed_offset != -1 ? wanted.fixed_offset : FindGap(wanted);
    if (static_cast<int64_t>(offset) + wanted.size > INT_MAX) {
      overflow_buffer_ = id;  // stop: the rest keep offset -1
      overflow_end_ = static_cast<int64_t>(offset) + wanted.size;
      return;
    }
    offsets_[id] = offset;
    list_[i] = ListEntry{offset, id, -1};
    InsertIntoList(i);
  }
}

Status GreedyPlanner::GetOffsetForBuffer(int index, int* offset) {
  CalculateOffsetsIfNeeded();
  if (overflow_buffer_ != -1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "buffer %d: planned end %lld does not fit in int32 (TFLM planners use "
                         "int)",
                         overflow_buffer_, static_cast<long long>(overflow_end_));
  }
  if (index < 0 || index >= buffer_count_) {
    return Status::Error(StatusCode::kOutOfRange, "buffer index %d is outside range 0 to %d", index,
                         buffer_count_);
  }
  *offset = offsets_[index];
  return Status::Ok();
}

int GreedyPlanner::GetMaximumMemorySize() {
  CalculateOffsetsIfNeeded();
  if (overflow_buffer_ != -1) return INT_MAX;
  int max_size = 0;
  for (int i = 0; i < buffer_count_; ++i) {
    const int end = offsets_[i] + requirements_[i].size;
    if (end > max_size) max_size = end;
  }
  return max_size;
}

bool GreedyPlanner::DoAnyBuffersOverlap() {
  CalculateOffsetsIfNeeded();
  for (int i = 0; i < buffer_count_; ++i) {
    const Requirements& a = requirements_[i];
    const int a_start = offsets_[i];
    const int a_end = a_start + a.size;
    for (int j = i + 1; j < buffer_count_; ++j) {
      const Requirements& b = requirements_[j];
      if (a.first_step > b.last_step || b.first_step > a.last_step) continue;
      const int b_start = offsets_[j];
      const int b_end = b_start + b.size;
      if (b_start >= a_end || a_start >= b_end) continue;
      return true;
    }
  }
  return false;
}

int GreedyPlanner::PrintMemoryPlan(char* out, size_t out_size) {
  CalculateOffsetsIfNeeded();
  plan_internal::TextWriter w(out, out_size);
  int64_t max_size = plan_internal::kLineWidth;
  int max_step = 0;
  for (int i = 0; i < buffer_count_; ++i) {
    const Requirements& r = requirements_[i];
    plan_internal::AppendBufferLine(&w, i, r.size, offsets_[i], r.first_step, r.last_step);
    const int64_t end = static_cast<int64_t>(offsets_[i]) + r.size;
    if (end > max_size) max_size = end;
    if (r.last_step > max_step) max_step = r.last_step;
  }
  char line[plan_internal::kLineWidth];
  for (int64_t t = 0; t <= max_step; ++t) {
    plan_internal::ClearRow(line);
    int64_t live_bytes = 0;
    for (int i = 0; i < buffer_count_; ++i) {
      const Requirements& r = requirements_[i];
      if (t < r.first_step || t > r.last_step || offsets_[i] == -1) continue;
      live_bytes += r.size;
      plan_internal::PaintRow(line, offsets_[i], r.size, max_size,
                              plan_internal::BufferChar(i, r.first_step, r.last_step));
    }
    plan_internal::AppendRow(&w, t, line, live_bytes);
  }
  return w.length() > static_cast<size_t>(INT_MAX) ? INT_MAX : static_cast<int>(w.length());
}

}  // namespace tflm_arena
