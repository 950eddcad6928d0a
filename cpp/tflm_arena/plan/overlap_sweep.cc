#include "tflm_arena/plan/overlap_sweep.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory_resource>
#include <set>
#include <utility>

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
  std::sort(entering.begin(), entering.end());
  std::sort(leaving.begin(), leaving.end());

  // Node allocations from a pool: the set is small but changes 2n times.
  std::pmr::unsynchronized_pool_resource pool;
  std::pmr::set<Active> active(&pool);
  size_t left = 0;  // leaving[0, left) are gone
  for (uint64_t in : entering) {
    const size_t id = static_cast<size_t>(in & UINT32_MAX);
    const UsageRecord& r = records[id];
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

}  // namespace plan_internal
}  // namespace tflm_arena
