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
//  4. From kTflmGreedyTwoThreadsFrom online buffers (tflm_greedy_threads.h)
//     a helper thread fetches the next batch of queries while the caller
//     places the current one (Fetcher below): 1.6 -> 1.3 s at 1M buffers.
//     The offsets are the same; tflm_greedy_test.cc runs both forms on
//     every input.
// Every planned end must fit in int32, as GreedyPlanner requires; the error
// names the same buffer in the same words.
#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <functional>
#include <system_error>
#include <thread>
#include <vector>

#include "tflm_arena/plan/gap_buckets.h"
#include "tflm_arena/plan/interval_index.h"
#include "tflm_arena/plan/maybe_thread.h"
#include "tflm_arena/plan/offset_sort.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/record_checks.h"
#include "tflm_arena/plan/tflm_greedy_threads.h"

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

// What placing one online buffer needs from the index: either "walk every
// placed buffer" (cheaper when it meets most of them) or the keys of the
// placed buffers it meets.
struct Fetch {
  bool walk = false;
  bool mostly_live = false;  // walk: >= 7/8 of the placed ones are live at its first step
  uint64_t work = 0;         // for the cancel poll
  size_t count = 0;          // keys gathered
  std::vector<uint64_t> keys;
};

// Fills `f` for buffer `id` of `size` bytes, `placed` buffers being in the
// index. The walk-or-fetch choice only changes the speed, never the result.
void FetchQuery(const plan_internal::IntervalIndex& index, uint32_t id, int64_t size, size_t placed,
                Fetch* f) {
  f->count = 0;
  f->walk = false;
  if (size == 0) return;  // placed at 0 without looking
  const plan_internal::IntervalIndex::GatherSize gather = index.GatherCost(id);
  const uint64_t cost = gather.live + gather.starting;
  const uint64_t sort_cost = (cost < 64 ? kWalkPerFewKeys : kWalkPerKey) * cost;
  if (placed < sort_cost) {
    f->walk = true;
    // Live at id's first step implies meeting id (gather.live bounds those
    // from above).
    f->mostly_live = 8 * gather.live >= 7 * placed;
    f->work = placed;
    return;
  }
  // Room for the filters' slack (the two-thread form makes room itself for
  // the keys it adds).
  if (f->keys.size() < cost + plan_internal::kFilterSlack) {
    f->keys.resize(cost + plan_internal::kFilterSlack);
  }
  f->count = index.Gather(id, f->keys.data(), 0);
  f->work = sort_cost;
}

// The placement side: TFLM's first fit for one buffer from its Fetch.
class Placer {
 public:
  Placer(const std::vector<uint64_t>& order, const plan_internal::IntervalIndex& index)
      : order_(order), index_(index) {}

  // Offset of order[at] given `f` (its keys may be reordered), with
  // `placed` = at buffers placed, whose offsets are offset[0, at).
  int64_t FirstFitFor(size_t at, Fetch& f, const std::vector<int32_t>& offset, int64_t top) {
    const uint32_t id = OrderId(order_[at]);
    const int64_t size = OrderSize(order_[at]);
    if (size == 0) return 0;  // TFLM's scan stops at once: every offset is >= 0
    if (f.walk) {
      const uint32_t qa = index_.first_rank(id), qb = index_.last_rank(id);
      const std::vector<Placed>& walk = by_offset_.Sorted(order_, at, offset, index_);
      return f.mostly_live ? WalkFirstFit<false>(walk, qa, qb, size)
                           : WalkFirstFit<true>(walk, qa, qb, size);
    }
    if (gaps_.Begin(top, size)) {
      for (size_t i = 0; i < f.count; ++i) {
        gaps_.Add(static_cast<uint32_t>(KeyOffset(f.keys[i])),
                  static_cast<uint32_t>(KeyEnd(f.keys[i])));
      }
      return gaps_.FirstFit();
    }
    if (scratch_.size() < f.count) scratch_.resize(f.count);
    return FirstFit(SortByOffset(f.keys.data(), scratch_.data(), f.count), f.count, size);
  }

 private:
  const std::vector<uint64_t>& order_;
  const plan_internal::IntervalIndex& index_;
  OffsetOrder by_offset_;
  plan_internal::GapBuckets gaps_;
  std::vector<uint64_t> scratch_;
};

// Spins until ready(), pausing, then yielding the core if it takes long.
template <typename F>
void SpinUntil(F&& ready) {
  for (int spins = 0; !ready(); ++spins) {
    if (spins < 4096) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      std::this_thread::yield();
    }
  }
}

// The helper thread of the two-thread form. Queries go in batches of
// kBatch; while the caller places batch b, the helper fetches batch b + 1.
// Each step of the caller:
//   Finish(b): batch b is fetched (the caller fetches, from the batch's
//     end, whatever the helper has not taken from its start, so a helper
//     that is slow or off the core costs at most one query's wait);
//   insert batch b - 1 (placed in the step before) into the index;
//   Ask(b + 1): the helper fetches it, from an index holding everything
//     before batch b, while the caller places batch b. Batch b was fetched
//     from an index holding everything before batch b - 1, so the caller
//     adds to each query's keys the placed buffers of batch b - 1 and of
//     batch b before it that meet it (Recent, at most 2 * kBatch checks).
// The index is only written between Finish and Ask, when nobody reads it:
// Ask is a release store answered by the helper's acquire load, and each
// fetched query a release store of its state answered by Finish's acquire
// load. A query's state holds its batch number, so a claim left over from
// an earlier batch cannot take a slot reused by a later one.
constexpr size_t kBatch = 32;

class Fetcher {
 public:
  // Queries are order positions first, first + 1, ...; batch b holds
  // [first + b * kBatch, first + (b + 1) * kBatch).
  Fetcher(const std::vector<uint64_t>& order, const plan_internal::IntervalIndex& index,
          size_t first)
      : order_(order), index_(index), first_(first) {}
  Fetcher(const Fetcher&) = delete;
  Fetcher& operator=(const Fetcher&) = delete;
  ~Fetcher() { Stop(); }

  bool Start() {
    try {
      thread_ = std::thread([this] { Run(); });
    } catch (const std::system_error&) {
      return false;
    }
    return true;
  }
  void Ask(size_t batch) {
    for (size_t j = Begin(batch); j < End(batch); ++j) {
      State(j).store(Free(batch), std::memory_order_relaxed);
    }
    asked_.store(batch + 1, std::memory_order_release);
    last_asked_ = batch;
  }
  void Finish(size_t batch) {
    if (finished_.load(std::memory_order_acquire) == batch + 1) return;  // all by the helper
    for (size_t j = End(batch); j-- > Begin(batch);) {
      if (!Claim(j, batch)) break;  // the helper has come this far
      FetchOne(j, batch, false);
    }
    for (size_t j = Begin(batch); j < End(batch); ++j) {
      SpinUntil([&] { return State(j).load(std::memory_order_acquire) == Free(batch) + 2; });
    }
  }
  // Query `at`'s fetch (its batch finished).
  Fetch& Of(size_t at) { return slots_[Slot(at)]; }
  // Where the index a batch is fetched from ends: everything before the
  // batch before it (order positions [0, InIndex(batch))).
  size_t InIndex(size_t batch) const {
    const size_t begin = Begin(batch);
    return begin - std::min(begin - first_, kBatch);
  }
  // Finishes the last batch asked, then ends the thread.
  void Stop() {
    if (!thread_.joinable()) return;
    if (asked_.load(std::memory_order_relaxed) != 0) Finish(last_asked_);
    asked_.store(kStop, std::memory_order_release);
    thread_.join();
  }

 private:
  static constexpr size_t kStop = SIZE_MAX;

  size_t Begin(size_t batch) const { return first_ + batch * kBatch; }
  size_t End(size_t batch) const { return std::min(order_.size(), Begin(batch) + kBatch); }
  size_t Slot(size_t at) const { return (at - first_) % (2 * kBatch); }
  std::atomic<uint64_t>& State(size_t at) { return states_[Slot(at)]; }
  // States: 4 * batch + 0 free, + 1 taken, + 2 fetched.
  static uint64_t Free(size_t batch) { return 4 * static_cast<uint64_t>(batch); }
  bool Claim(size_t at, size_t batch) {
    uint64_t free = Free(batch);
    return State(at).compare_exchange_strong(free, free + 1, std::memory_order_acq_rel);
  }
  void FetchOne(size_t at, size_t batch, bool prefetch) {
    if (prefetch && at >= plan_internal::IntervalIndex::kPrefetchFrom) {
      index_.PrefetchAhead(order_, at);
    }
    FetchQuery(index_, OrderId(order_[at]), OrderSize(order_[at]), InIndex(batch),
               &slots_[Slot(at)]);
    State(at).store(Free(batch) + 2, std::memory_order_release);
  }

  void Run() {
    size_t seen = 0;
    for (;;) {
      size_t asked = 0;
      SpinUntil([&] { return (asked = asked_.load(std::memory_order_acquire)) != seen; });
      if (asked == kStop) return;
      seen = asked;
      const size_t batch = asked - 1;
      size_t j = Begin(batch);
      for (; j < End(batch); ++j) {
        if (!Claim(j, batch)) break;  // the caller has come this far
        FetchOne(j, batch, true);
      }
      if (j == End(batch)) finished_.store(asked, std::memory_order_release);
    }
  }

  const std::vector<uint64_t>& order_;
  const plan_internal::IntervalIndex& index_;
  const size_t first_;
  Fetch slots_[2 * kBatch];
  std::atomic<uint64_t> states_[2 * kBatch] = {};
  std::atomic<size_t> asked_{0};     // batch + 1 last asked for; kStop: end
  std::atomic<size_t> finished_{0};  // batch + 1 last fetched wholly by the helper
  size_t last_asked_ = 0;            // caller's side
  std::thread thread_;
};

// The buffers placed since the helper's snapshot of the index, with what a
// meet test needs, in a ring of the last 2 * kBatch placements.
class Recent {
 public:
  void Add(size_t at, uint32_t first_rank, uint32_t last_rank, uint64_t key) {
    ring_[at % kSize] = Entry{first_rank, last_rank, key};
  }
  // Appends to f's keys those of positions [from, at) meeting [qa, qb].
  void AppendMeeting(size_t from, size_t at, uint32_t qa, uint32_t qb, Fetch* f) const {
    for (size_t p = from; p < at; ++p) {
      const Entry& e = ring_[p % kSize];
      f->keys[f->count] = e.key;
      f->count += (e.first_rank <= qb) & (qa <= e.last_rank);
    }
  }

 private:
  static constexpr size_t kSize = 2 * kBatch;
  struct Entry {
    uint32_t first_rank;
    uint32_t last_rank;
    uint64_t key;
  };
  Entry ring_[kSize] = {};
};

}  // namespace

namespace plan_internal {

Status PlanTflmGreedyThreads(Span<const UsageRecord> records, PlanResult* out, PlanCancel cancel,
                             size_t two_threads_from) {
  *out = PlanResult();
  TFLM_ARENA_RETURN_IF_ERROR(CheckTflmRecords(records));
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

  IntervalIndex index(records);
  std::vector<int32_t> offset(n, -1);  // by placement order
  int64_t top = 0;                     // highest end placed so far
  auto insert = [&](size_t at, int64_t at_offset) {
    const int32_t end = static_cast<int32_t>(at_offset + OrderSize(order[at]));
    offset[at] = static_cast<int32_t>(at_offset);
    index.Insert(OrderId(order[at]), offset[at], end);
    top = std::max<int64_t>(top, end);
  };
  for (size_t at = 0; at < fixed; ++at) insert(at, records[OrderId(order[at])].fixed_offset);

  uint64_t work = 0;
  // After placing order[at]: the int32 check, then the cancel poll.
  auto check = [&](size_t at, int64_t candidate, uint64_t fetch_work) {
    const int64_t end = candidate + OrderSize(order[at]);
    if (end > INT_MAX) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %u: planned end %lld does not fit in int32 (TFLM planners "
                           "use int)",
                           OrderId(order[at]), static_cast<long long>(end));
    }
    work += fetch_work;
    if (work >= kPollWork) {
      work = 0;
      if (cancel.stop != nullptr && cancel.stop(cancel.context)) {
        return Status::Error(StatusCode::kFailedPrecondition,
                             "planning cancelled after %zu of %zu buffers", at + 1, n);
      }
    }
    return Status::Ok();
  };

  Placer placer(order, index);
  Fetcher fetcher(order, index, fixed);
  if (n - fixed >= two_threads_from && fixed < n && fetcher.Start()) {
    Recent recent;
    const size_t batches = (n - fixed + kBatch - 1) / kBatch;
    fetcher.Ask(0);
    for (size_t b = 0; b < batches; ++b) {
      const size_t begin = fixed + b * kBatch, end = std::min(n, begin + kBatch);
      // Batch b - 1: placed, not yet in the helper's snapshot.
      const size_t unseen = fetcher.InIndex(b);
      fetcher.Finish(b);  // nobody reads the index from here
      for (size_t at = unseen; at < begin; ++at) insert(at, offset[at]);
      if (b + 1 < batches) fetcher.Ask(b + 1);
      for (size_t at = begin; at < end; ++at) {
        Fetch& f = fetcher.Of(at);
        const uint32_t id = OrderId(order[at]);
        const uint32_t qa = index.first_rank(id), qb = index.last_rank(id);
        const int64_t size = OrderSize(order[at]);
        if (!f.walk && size > 0) {
          const size_t room = f.count + (at - unseen) + plan_internal::kFilterSlack;
          if (f.keys.size() < room) f.keys.resize(room);
          recent.AppendMeeting(unseen, at, qa, qb, &f);
        }
        const int64_t candidate = placer.FirstFitFor(at, f, offset, top);
        TFLM_ARENA_RETURN_IF_ERROR(check(at, candidate, f.work));
        const int32_t end_at = static_cast<int32_t>(candidate + size);
        offset[at] = static_cast<int32_t>(candidate);  // inserted a batch later
        top = std::max<int64_t>(top, end_at);
        recent.Add(at, qa, qb, PackKey(offset[at], end_at));
      }
    }
    fetcher.Stop();
  } else {
    Fetch f;
    for (size_t at = fixed; at < n; ++at) {
      if (at >= IntervalIndex::kPrefetchFrom) index.PrefetchAhead(order, at);
      FetchQuery(index, OrderId(order[at]), OrderSize(order[at]), at, &f);
      const int64_t candidate = placer.FirstFitFor(at, f, offset, top);
      TFLM_ARENA_RETURN_IF_ERROR(check(at, candidate, f.work));
      insert(at, candidate);
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

}  // namespace plan_internal

Status PlanTflmGreedy(Span<const UsageRecord> records, PlanResult* out, PlanCancel cancel) {
  const bool threads = !plan_internal::OnSharedWorker() && std::thread::hardware_concurrency() > 1;
  return plan_internal::PlanTflmGreedyThreads(
      records, out, cancel, threads ? plan_internal::kTflmGreedyTwoThreadsFrom : SIZE_MAX);
}

}  // namespace tflm_arena
