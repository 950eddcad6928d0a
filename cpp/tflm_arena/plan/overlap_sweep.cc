#include "tflm_arena/plan/overlap_sweep.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory_resource>
#include <set>
#include <utility>

#include "tflm_arena/plan/maybe_thread.h"

namespace tflm_arena {
namespace plan_internal {
namespace {

struct Active {
  int64_t offset;
  int64_t end;  // saturated offset + size
  size_t id;
  bool operator<(const Active& o) const {
    return offset != o.offset ? offset < o.offset : id < o.id;
  }
};

int64_t SaturatedEnd(int64_t offset, int64_t size) {
  int64_t end;
  if (__builtin_add_overflow(offset, size, &end)) end = INT64_MAX;
  return end;
}

Status Report(Span<const UsageRecord> records, Span<const ByteOffset> offsets, size_t a, size_t b,
              const char* what) {
  if (b < a) std::swap(a, b);
  const UsageRecord& ra = records[a];
  const UsageRecord& rb = records[b];
  return Status::Error(StatusCode::kInvalidArgument,
                       "%s %zu and %zu overlap: buffer %zu holds [%lld, %lld) at steps %d..%d, "
                       "buffer %zu holds [%lld, %lld) at steps %d..%d",
                       what, a, b, a, static_cast<long long>(offsets[a]),
                       static_cast<long long>(SaturatedEnd(offsets[a], ra.size)), ra.first_step,
                       ra.last_step, b, static_cast<long long>(offsets[b]),
                       static_cast<long long>(SaturatedEnd(offsets[b], rb.size)), rb.first_step,
                       rb.last_step);
}

// (step, id) packed so that sorting the keys sorts by step, then id; ids
// must be below 2^32.
uint64_t Pack(Step step, size_t id) {
  return static_cast<uint64_t>(static_cast<int64_t>(step) - INT32_MIN) << 32 | id;
}

// From this many buffers on, the sweep runs in two halves on two threads.
constexpr size_t kTwoThreadsFrom = size_t{1} << 17;

// The sweep over entering[begin, end), skipping buffers whose last step is
// before `from_step`, with leaving[left, ...) as the order they go in.
Status Sweep(Span<const UsageRecord> records, Span<const ByteOffset> offsets,
             const std::vector<uint64_t>& entering, size_t begin, size_t end,
             const std::vector<uint64_t>& leaving, size_t left, int64_t from_step,
             const char* what) {
  // Node allocations from a pool: the set is small but changes 2n times.
  std::pmr::unsynchronized_pool_resource pool;
  std::pmr::set<Active> active(&pool);
  for (size_t e = begin; e < end; ++e) {
    const size_t id = static_cast<size_t>(entering[e] & UINT32_MAX);
    const UsageRecord& r = records[id];
    if (r.last_step < from_step) continue;
    // Gone: every buffer whose last step is before this first step.
    const uint64_t before = Pack(r.first_step, 0);
    for (; left < leaving.size() && leaving[left] < before; ++left) {
      const size_t gone = static_cast<size_t>(leaving[left] & UINT32_MAX);
      active.erase(Active{offsets[gone], 0, gone});
    }
    const Active me{offsets[id], SaturatedEnd(offsets[id], r.size), id};
    auto above = active.lower_bound(Active{me.offset, 0, 0});
    if (above != active.end() && above->offset < me.end) {
      return Report(records, offsets, id, above->id, what);
    }
    if (above != active.begin()) {
      auto below = std::prev(above);
      if (below->end > me.offset) return Report(records, offsets, id, below->id, what);
    }
    active.insert(me);
  }
  return Status::Ok();
}

}  // namespace

Status FindMemoryOverlap(Span<const UsageRecord> records, Span<const ByteOffset> offsets,
                         const std::vector<size_t>& ids, const char* what) {
  // Buffers in order of first step (then index) enter; in order of last
  // step they leave, once a later one starts after it. Keys (Pack) sort so.
  std::vector<uint64_t> entering, leaving;
  entering.reserve(ids.size());
  leaving.reserve(ids.size());
  for (size_t id : ids) {
    if (records[id].size <= 0) continue;
    if (id > UINT32_MAX) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: more than 2^32 buffers cannot be checked", id);
    }
    entering.push_back(Pack(records[id].first_step, id));
    leaving.push_back(Pack(records[id].last_step, id));
  }
  const size_t n = entering.size();
  if (n < kTwoThreadsFrom) {
    std::sort(entering.begin(), entering.end());
    std::sort(leaving.begin(), leaving.end());
    return Sweep(records, offsets, entering, 0, n, leaving, 0, INT64_MIN, what);
  }
  // Large: two halves of time on two threads. With S the first step of the
  // middle buffer to enter, part A sweeps the buffers starting before S,
  // part B those still live at S or later. Two buffers sharing bytes at a
  // step t meet in A if t < S (both start before), else in B (both are live
  // at t >= S). When A finds nothing, no two buffers clash before S, so
  // B's first clash is the whole sweep's first: the same pair is reported
  // either way.
  {
    MaybeThread sort_leaving([&] { std::sort(leaving.begin(), leaving.end()); });
    std::sort(entering.begin(), entering.end());
  }
  const size_t mid = n / 2;
  const Step split = records[entering[mid] & UINT32_MAX].first_step;
  const size_t a_end = static_cast<size_t>(
      std::lower_bound(entering.begin(), entering.end(), Pack(split, 0)) - entering.begin());
  const size_t b_left = static_cast<size_t>(
      std::lower_bound(leaving.begin(), leaving.end(), Pack(split, 0)) - leaving.begin());
  Status b;
  {
    MaybeThread part_b(
        [&] { b = Sweep(records, offsets, entering, 0, n, leaving, b_left, split, what); });
    Status a = Sweep(records, offsets, entering, 0, a_end, leaving, 0, INT64_MIN, what);
    part_b.Join();
    if (!a.ok()) return a;
  }
  return b;
}

}  // namespace plan_internal
}  // namespace tflm_arena
