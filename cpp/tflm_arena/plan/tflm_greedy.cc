// PlanTflmGreedy: TFLM's greedy plan (greedy_planner.h) with the same order,
// the same first-fit rule and the same offsets, without TFLM's O(n^2) walk:
//  1. Order: fixed buffers in index order, then the rest by size descending,
//     ties by higher index. That is a total order, so std::sort gives TFLM's.
//  2. For each buffer TFLM walks every placed buffer in offset order, looking
//     only at those whose lifetimes meet its own. We fetch just those (k of
//     them) from an IntervalIndex as (offset, end) keys and run TFLM's scan
//     over them in offset order without sorting them: GapBuckets
//     (gap_buckets.h) sums them up per bucket of offsets no wider than the
//     buffer, O(1) per key. Only when that takes too many buckets (a small
//     buffer under a high arena) are they radix-sorted by offset
//     (offset_sort.h) and scanned one by one. Equal offsets may come in
//     another order than in TFLM's list; that cannot change the result: once
//     a gap check fails at offset o the candidate is past o, so every buffer
//     at o fails too, and the candidate becomes the largest of their ends in
//     any order. A zero-size buffer goes to 0: the scan stops at once.
//  3. When a buffer meets a large share of everything placed (long-lived
//     buffers, or many buffers live at once), fetching costs more than
//     TFLM's walk. The index tells the fetch cost up front, so we pick the
//     cheaper of the two: fetch, or walk all p placed buffers in offset order
//     (a sorted array, brought up to date from the placement order when a
//     walk needs it), filtering by lifetime as TFLM does. A buffer costs
//     O(log T + min(s + k, p)) (plus at most GapBuckets::kMaxBuckets / 64
//     bitmap words), s counting the buffers (placed or not) that start
//     within its lifetime: the plan takes O(n log n + overlapping pairs),
//     and never more than TFLM's O(n^2) walk, with a smaller constant.
//     At 1M buffers with ~250 live the fetch, not the scan, takes most of the
//     time: queries jump around in time, so each one misses the caches.
// Every planned end must fit in int32, as GreedyPlanner requires; the error
// names the same buffer in the same words.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <vector>

#include "tflm_arena/plan/gap_buckets.h"
#include "tflm_arena/plan/interval_index.h"
#include "tflm_arena/plan/offset_sort.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/record_checks.h"

namespace tflm_arena {
namespace {

using plan_internal::KeyEnd;
using plan_internal::KeyOffset;
using plan_internal::PackKey;
using plan_internal::SortByOffset;

// Work units (keys read or compared) between two calls of the cancel hook:
// about a millisecond.
constexpr uint64_t kPollWork = uint64_t{1} << 20;

// Fetching and sorting a key costs about as much as walking this many placed
// buffers (measured on dense shapes, 200..1M buffers): the radix sort is
// linear, std::sort (fewer than 64 keys) is not.
constexpr uint64_t kWalkPerKey = 3;
constexpr uint64_t kWalkPerFewKeys = 8;

// The placement order holds (size << 32 | id) per buffer: sizes are read
// from it in order instead of from records[id], a cache miss per buffer.
inline uint32_t OrderId(uint64_t entry) { return static_cast<uint32_t>(entry); }
inline int64_t OrderSize(uint64_t entry) { return static_cast<int64_t>(entry >> 32); }

// A placed buffer as the walk sees it.
struct Placed {
  uint64_t key;  // PackKey(offset, end)
  uint32_t first_rank;
  uint32_t last_rank;
};

// Placed buffers in ascending offset order, built only when a walk needs
// it (once the index pays off, no walk comes): the buffers placed since the
// last walk are taken from the placement order then; a few are inserted in
// place, many are sorted and merged.
class OffsetOrder {
 public:
  const std::vector<Placed>& Sorted(const std::vector<uint64_t>& order, size_t placed,
                                    const std::vector<int32_t>& offset,
                                    const plan_internal::IntervalIndex& index) {
    pending_.clear();
    for (; taken_ < placed; ++taken_) {
      const uint32_t id = OrderId(order[taken_]);
      const int32_t end = static_cast<int32_t>(offset[taken_] + OrderSize(order[taken_]));
      pending_.push_back(
          Placed{PackKey(offset[taken_], end), index.first_rank(id), index.last_rank(id)});
    }
    auto by_key = [](const Placed& a, const Placed& b) { return a.key < b.key; };
    if (pending_.size() <= 4) {
      for (const Placed& p : pending_) {
        sorted_.insert(std::upper_bound(sorted_.begin(), sorted_.end(), p, by_key), p);
      }
    } else {
      std::sort(pending_.begin(), pending_.end(), by_key);
      merged_.resize(sorted_.size() + pending_.size());
      std::merge(sorted_.begin(), sorted_.end(), pending_.begin(), pending_.end(), merged_.begin(),
                 by_key);
      sorted_.swap(merged_);
    }
    return sorted_;
  }

 private:
  size_t taken_ = 0;  // order[0, taken_) are in sorted_
  std::vector<Placed> sorted_;
  std::vector<Placed> pending_;
  std::vector<Placed> merged_;
};

// TFLM's first-fit scan over keys in offset order.
inline int64_t FirstFit(const uint64_t* keys, size_t count, int64_t want) {
  int64_t candidate = 0;
  for (size_t i = 0; i < count; ++i) {
    if (KeyOffset(keys[i]) - candidate >= want) break;  // gap found
    candidate = std::max(candidate, KeyEnd(keys[i]));
  }
  return candidate;
}

// The same scan over every placed buffer, skipping those not live with
// [qa, qb] (ranks), as TFLM's walk does. When only some placed buffers meet
// [qa, qb], whether one does is a coin toss, so kMixed folds the test in
// without a branch (a buffer that does not meet counts as ending at 0, and
// candidate >= 0); when nearly all meet, the plain branch predicts well and
// is faster.
template <bool kMixed>
int64_t WalkFirstFit(const std::vector<Placed>& placed, uint32_t qa, uint32_t qb, int64_t want) {
  int64_t candidate = 0;
  for (const Placed& p : placed) {
    if (kMixed) {
      const bool meets = (p.first_rank <= qb) & (qa <= p.last_rank);
      if (meets & (KeyOffset(p.key) - candidate >= want)) break;  // gap found
      candidate = std::max(candidate, KeyEnd(p.key) & -static_cast<int64_t>(meets));
    } else {
      if (p.first_rank > qb || qa > p.last_rank) continue;
      if (KeyOffset(p.key) - candidate >= want) break;  // gap found
      candidate = std::max(candidate, KeyEnd(p.key));
    }
  }
  return candidate;
}

}  // namespace

Status PlanTflmGreedy(Span<const UsageRecord> records, PlanResult* out, PlanCancel cancel) {
  *out = PlanResult();
  TFLM_ARENA_RETURN_IF_ERROR(plan_internal::CheckTflmRecords(records));
  const size_t n = records.size();
  if (n == 0) return Status::Ok();

  // Fixed buffers in index order, then the rest by size descending, ties by
  // higher index: (size << 32 | index) sorted descending.
  std::vector<uint64_t> order;
  order.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (records[i].fixed_offset != kOnlineOffset) {
      order.push_back(static_cast<uint64_t>(records[i].size) << 32 | i);
    }
  }
  const size_t fixed = order.size();
  for (size_t i = 0; i < n; ++i) {
    if (records[i].fixed_offset == kOnlineOffset) {
      order.push_back(static_cast<uint64_t>(records[i].size) << 32 | i);
    }
  }
  std::sort(order.begin() + static_cast<std::ptrdiff_t>(fixed), order.end(),
            std::greater<uint64_t>());

  plan_internal::IntervalIndex index(records);
  OffsetOrder by_offset;
  std::vector<int32_t> offset(n, -1);  // by placement order
  std::vector<uint64_t> meeting, scratch;
  size_t placed = 0;
  uint64_t work = 0;
  int64_t top = 0;  // highest end placed so far
  plan_internal::GapBuckets gaps;
  for (size_t at = 0; at < n; ++at) {
    const uint32_t id = OrderId(order[at]);
    if (placed >= plan_internal::IntervalIndex::kPrefetchFrom) index.PrefetchAhead(order, at);
    const int64_t size = OrderSize(order[at]);
    int64_t candidate = at < fixed ? records[id].fixed_offset : kOnlineOffset;
    if (candidate == kOnlineOffset) {
      const plan_internal::IntervalIndex::GatherSize gather = index.GatherCost(id);
      const uint64_t cost = gather.live + gather.starting;
      const uint64_t sort_cost = (cost < 64 ? kWalkPerFewKeys : kWalkPerKey) * cost;
      if (size == 0) {
        candidate = 0;  // TFLM's scan stops at once: every offset is >= 0
      } else if (placed < sort_cost) {
        const uint32_t qa = index.first_rank(id), qb = index.last_rank(id);
        // Live at id's first step implies meeting id: >= 7/8 of them do
        // (gather.live bounds those from above).
        const std::vector<Placed>& walk = by_offset.Sorted(order, placed, offset, index);
        candidate = 8 * gather.live >= 7 * placed ? WalkFirstFit<false>(walk, qa, qb, size)
                                                  : WalkFirstFit<true>(walk, qa, qb, size);
        work += placed;
      } else {
        if (meeting.size() < cost + plan_internal::kFilterSlack) {
          meeting.resize(cost + plan_internal::kFilterSlack);
          scratch.resize(cost);
        }
        const size_t k = index.Gather(id, meeting.data(), 0);
        if (gaps.Begin(top, size)) {
          for (size_t i = 0; i < k; ++i) {
            gaps.Add(static_cast<uint32_t>(KeyOffset(meeting[i])),
                     static_cast<uint32_t>(KeyEnd(meeting[i])));
          }
          candidate = gaps.FirstFit();
        } else {
          candidate = FirstFit(SortByOffset(meeting.data(), scratch.data(), k), k, size);
        }
        work += sort_cost;
      }
      const int64_t end = candidate + size;
      if (end > INT_MAX) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "buffer %u: planned end %lld does not fit in int32 (TFLM planners "
                             "use int)",
                             id, static_cast<long long>(end));
      }
    }
    offset[at] = static_cast<int32_t>(candidate);
    const int32_t end = static_cast<int32_t>(candidate + size);
    index.Insert(id, offset[at], end);
    top = std::max<int64_t>(top, end);
    ++placed;
    if (work >= kPollWork) {
      work = 0;
      if (cancel.stop != nullptr && cancel.stop(cancel.context)) {
        return Status::Error(StatusCode::kFailedPrecondition,
                             "planning cancelled after %zu of %zu buffers", placed, n);
      }
    }
  }

  out->offsets.resize(n);
  for (size_t at = 0; at < n; ++at) {
    out->offsets[OrderId(order[at])] = offset[at];
    out->arena_bytes =
        std::max<int64_t>(out->arena_bytes, int64_t{offset[at]} + OrderSize(order[at]));
  }
  return Status::Ok();
}

}  // namespace tflm_arena
