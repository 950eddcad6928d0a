// PlanTflmGreedy: TFLM's greedy plan (greedy_planner.h) with the same order,
// the same first-fit rule and the same offsets, without TFLM's O(n^2) walk:
//  1. Order: fixed buffers in index order, then the rest by size descending,
//     ties by higher index. That is a total order, so std::sort gives TFLM's.
//  2. For each buffer TFLM walks every placed buffer in offset order, looking
//     only at those whose lifetimes meet its own. We fetch just those (k of
//     them) from an IntervalIndex, sort them by offset and run TFLM's scan.
//     Equal offsets may come in another order than in TFLM's list; that
//     cannot change the result: once a gap check fails at offset o the
//     candidate is past o, so every buffer at o fails too, and the candidate
//     becomes the largest of their ends in any order.
//  3. When a buffer meets a large share of everything placed (long-lived
//     buffers, or many buffers live at once), sorting what it meets costs
//     more than TFLM's walk. Then we stop fetching at p/8 and walk all p
//     placed buffers in offset order instead (kept as a sorted array, merged
//     lazily), filtering by lifetime as TFLM does. Each buffer costs
//     O(min(k log k, p)), so the worst case is TFLM's O(n^2) with a smaller
//     constant, and chain-like graphs (k small) plan in O(n log n).
// Every planned end must fit in int32, as GreedyPlanner requires; the error
// names the same buffer in the same words.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <vector>

#include "tflm_arena/plan/interval_index.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/record_checks.h"

namespace tflm_arena {
namespace {

constexpr size_t kMinFetchLimit = 256;  // below this, always sort what we meet

inline uint64_t Key(int32_t offset, uint32_t id) {
  return static_cast<uint64_t>(offset) << 32 | id;
}

// Placed buffers as (offset, id) keys in ascending order.
class OffsetOrder {
 public:
  void Add(uint64_t key) { pending_.push_back(key); }
  const std::vector<uint64_t>& Sorted() {
    if (!pending_.empty()) {
      std::sort(pending_.begin(), pending_.end());
      const size_t middle = sorted_.size();
      sorted_.insert(sorted_.end(), pending_.begin(), pending_.end());
      std::inplace_merge(sorted_.begin(), sorted_.begin() + middle, sorted_.end());
      pending_.clear();
    }
    return sorted_;
  }

 private:
  std::vector<uint64_t> sorted_;
  std::vector<uint64_t> pending_;
};

// TFLM's first-fit scan over keys in offset order, skipping those `meets`
// rejects.
template <typename Meets>
int64_t FirstFit(const std::vector<uint64_t>& keys, int64_t want, const std::vector<int32_t>& size,
                 Meets&& meets) {
  int64_t candidate = 0;
  for (uint64_t key : keys) {
    const uint32_t j = static_cast<uint32_t>(key);
    if (!meets(j)) continue;
    const int64_t at = static_cast<int64_t>(key >> 32);
    if (at - candidate >= want) break;  // gap found
    candidate = std::max(candidate, at + size[j]);
  }
  return candidate;
}

}  // namespace

Status PlanTflmGreedy(Span<const UsageRecord> records, PlanResult* out) {
  *out = PlanResult();
  TFLM_ARENA_RETURN_IF_ERROR(plan_internal::CheckTflmRecords(records));
  const size_t n = records.size();
  if (n == 0) return Status::Ok();

  // Compact copies for the hot loops; CheckTflmRecords made them fit int32.
  std::vector<int32_t> size(n), first(n), last(n);
  std::vector<uint32_t> order;
  std::vector<uint64_t> online;  // (size << 32 | index), sorted descending
  order.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    size[i] = static_cast<int32_t>(records[i].size);
    first[i] = records[i].first_step;
    last[i] = records[i].last_step;
    if (records[i].fixed_offset == kOnlineOffset) {
      online.push_back(static_cast<uint64_t>(size[i]) << 32 | i);
    } else {
      order.push_back(static_cast<uint32_t>(i));
    }
  }
  std::sort(online.begin(), online.end(), std::greater<uint64_t>());
  for (uint64_t key : online) order.push_back(static_cast<uint32_t>(key));

  plan_internal::IntervalIndex index(records);
  OffsetOrder by_offset;
  std::vector<int32_t> offset(n, -1);
  std::vector<uint64_t> meeting;
  size_t placed = 0;
  for (uint32_t id : order) {
    int64_t candidate = records[id].fixed_offset;
    if (candidate == kOnlineOffset) {
      const size_t limit = std::max(kMinFetchLimit, placed / 8);
      meeting.clear();
      const bool complete = index.ForEachMeeting(id, [&](uint32_t j) {
        meeting.push_back(Key(offset[j], j));
        return meeting.size() <= limit;
      });
      if (complete) {
        std::sort(meeting.begin(), meeting.end());
        candidate = FirstFit(meeting, size[id], size, [](uint32_t) { return true; });
      } else {
        candidate = FirstFit(by_offset.Sorted(), size[id], size, [&](uint32_t j) {
          return !(first[j] > last[id] || first[id] > last[j]);
        });
      }
      if (candidate + size[id] > INT_MAX) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "buffer %u: planned end %lld does not fit in int32 (TFLM planners "
                             "use int)",
                             id, static_cast<long long>(candidate + size[id]));
      }
    }
    offset[id] = static_cast<int32_t>(candidate);
    index.Insert(id);
    by_offset.Add(Key(offset[id], id));
    ++placed;
  }

  out->offsets.assign(offset.begin(), offset.end());
  for (size_t i = 0; i < n; ++i) {
    out->arena_bytes = std::max<int64_t>(out->arena_bytes, int64_t{offset[i]} + size[i]);
  }
  return Status::Ok();
}

}  // namespace tflm_arena
