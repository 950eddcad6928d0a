#include "tflm_arena/plan/interval_index.h"

#include <algorithm>
#include <cstdint>

#include "tflm_arena/plan/key_filter.h"

namespace tflm_arena {
namespace plan_internal {

// Calls f(node) for the canonical cover of leaves [first, last], bottom-up.
template <typename F>
void IntervalIndex::ForEachCoverNode(uint32_t id, F&& f) const {
  uint32_t lo = buffers_[id].first_rank + leaves_;
  uint32_t hi = buffers_[id].last_rank + leaves_ + 1;
  while (lo < hi) {
    if (lo & 1) f(lo++);
    if (hi & 1) f(--hi);
    lo >>= 1;
    hi >>= 1;
  }
}

IntervalIndex::IntervalIndex(Span<const UsageRecord> records) {
  const size_t n = records.size();
  buffers_.resize(n);
  int64_t min_step = INT64_MAX, max_step = INT64_MIN;
  for (const UsageRecord& r : records) {
    min_step = std::min<int64_t>(min_step, r.first_step);
    max_step = std::max<int64_t>(max_step, r.last_step);
  }
  size_t ranks = 0;
  if (n > 0 && max_step - min_step < static_cast<int64_t>(2 * n)) {
    for (size_t i = 0; i < n; ++i) {
      buffers_[i].first_rank = static_cast<uint32_t>(records[i].first_step - min_step);
      buffers_[i].last_rank = static_cast<uint32_t>(records[i].last_step - min_step);
    }
    ranks = static_cast<size_t>(max_step - min_step) + 1;
  } else {
    std::vector<Step> steps;
    steps.reserve(2 * n);
    for (const UsageRecord& r : records) {
      steps.push_back(r.first_step);
      steps.push_back(r.last_step);
    }
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    auto rank = [&](Step s) {
      return static_cast<uint32_t>(std::lower_bound(steps.begin(), steps.end(), s) - steps.begin());
    };
    for (size_t i = 0; i < n; ++i) {
      buffers_[i].first_rank = rank(records[i].first_step);
      buffers_[i].last_rank = rank(records[i].last_step);
    }
    ranks = steps.size();
  }
  while (leaves_ < ranks) leaves_ *= 2;

  // Start slots: a counting sort by first rank (ties by index).
  rank_begin_.assign(static_cast<size_t>(leaves_) + 1, 0);
  for (size_t i = 0; i < n; ++i) ++rank_begin_[buffers_[i].first_rank + 1];
  for (size_t r = 1; r < rank_begin_.size(); ++r) rank_begin_[r] += rank_begin_[r - 1];
  std::vector<uint32_t> next(rank_begin_.begin(), rank_begin_.end() - 1);
  for (size_t i = 0; i < n; ++i) buffers_[i].start_slot = next[buffers_[i].first_rank]++;
  start_keys_.assign(n, kEmptyKey);
  start_last_.assign(n, -1);

  // Blocks: runs of consecutive ranks where at most kBlockSlots buffers
  // start (a rank where more start is a block by itself).
  std::vector<uint32_t> block_of_rank(ranks);
  block_slot_.assign(1, 0);
  for (size_t r = 0, in_block = 0; r < ranks; ++r) {
    const size_t here = rank_begin_[r + 1] - rank_begin_[r];
    if (in_block > 0 && in_block + here > kBlockSlots) {
      block_slot_.push_back(rank_begin_[r]);
      in_block = 0;
    }
    block_of_rank[r] = static_cast<uint32_t>(block_slot_.size() - 1);
    in_block += here;
  }

  // Short lifetimes (at most kShortBlocks blocks starting within (first,
  // last]) go to the block lists, the rest to the tree.
  std::vector<uint32_t> block_size(block_slot_.size(), 0);
  node_count_.assign(2 * static_cast<size_t>(leaves_), 0);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t a = block_of_rank[buffers_[i].first_rank];
    const uint32_t b = block_of_rank[buffers_[i].last_rank];
    buffers_[i].first_block = a;
    buffers_[i].last_block = b;
    if (buffers_[i].is_short()) {
      for (uint32_t k = a + 1; k <= b; ++k) ++block_size[k];
    } else {
      any_long_ = true;
      ForEachCoverNode(static_cast<uint32_t>(i), [&](uint32_t node) { ++node_count_[node]; });
    }
  }
  block_begin_.resize(block_size.size());
  block_count_.assign(block_size.size(), 0);
  size_t block_total = 0;
  for (size_t k = 0; k < block_size.size(); ++k) {
    block_begin_[k] = block_total;
    block_total += block_size[k];
  }
  block_keys_.resize(block_total);
  block_last_.resize(block_total);

  // Tree slots: each node's cover entries counted above; lay nodes out.
  node_begin_.resize(node_count_.size());
  size_t total = 0;
  for (size_t node = 0; node < node_count_.size(); ++node) {
    node_begin_[node] = total;
    total += node_count_[node];
    node_count_[node] = 0;
  }
  node_keys_.resize(total);
}

void IntervalIndex::Insert(uint32_t id, int32_t offset, int32_t end) {
  const uint64_t key = PackKey(offset, end);
  if (buffers_[id].is_short()) {
    const uint32_t last = buffers_[id].last_rank;
    const uint32_t a = buffers_[id].first_block, b = buffers_[id].last_block;
    for (uint32_t k = a + 1; k <= b; ++k) {
      const size_t at = block_begin_[k] + block_count_[k]++;
      block_keys_[at] = key;
      block_last_[at] = static_cast<int32_t>(last);
    }
    start_last_[buffers_[id].start_slot] = static_cast<int32_t>(last);
  } else {
    ForEachCoverNode(
        id, [&](uint32_t node) { node_keys_[node_begin_[node] + node_count_[node]++] = key; });
  }
  start_keys_[buffers_[id].start_slot] = key;
}

void IntervalIndex::Prefetch(uint32_t id, int stage) const {
  if (stage == 0) {
    __builtin_prefetch(&buffers_[id]);
    return;
  }
  const uint32_t qa = buffers_[id].first_rank;
  if (stage == 1) {  // what locates the runs
    __builtin_prefetch(&rank_begin_[qa + 1]);
    __builtin_prefetch(&rank_begin_[buffers_[id].last_rank + 1]);
    for (uint32_t node = qa + leaves_; any_long_ && node >= 1; node >>= 1) {
      __builtin_prefetch(&node_count_[node]);
      __builtin_prefetch(&node_begin_[node]);
    }
    return;
  }
  const uint32_t block = buffers_[id].first_block;
  if (stage == 3) {  // every line of the runs
    auto lines = [](const void* from, const void* to) {
      for (const char* p = static_cast<const char*>(from); p < to; p += 64) __builtin_prefetch(p);
    };
    const size_t b = block_begin_[block], e = b + block_count_[block];
    lines(block_keys_.data() + b, block_keys_.data() + e);
    lines(block_last_.data() + b, block_last_.data() + e);
    lines(start_last_.data() + block_slot_[block], start_last_.data() + rank_begin_[qa + 1]);
    lines(start_keys_.data() + block_slot_[block],
          start_keys_.data() + rank_begin_[buffers_[id].last_rank + 1]);
    return;
  }
  // Stage 2: the runs' first entries (and the block's bounds).
  __builtin_prefetch(&block_begin_[block]);
  __builtin_prefetch(&block_count_[block]);
  __builtin_prefetch(&block_slot_[block]);
  __builtin_prefetch(start_keys_.data() + rank_begin_[qa + 1]);
  for (uint32_t node = qa + leaves_; any_long_ && node >= 1; node >>= 1) {
    __builtin_prefetch(node_keys_.data() + node_begin_[node]);
  }
}

IntervalIndex::GatherSize IntervalIndex::GatherCost(uint32_t id) const {
  const uint32_t qa = buffers_[id].first_rank, block = buffers_[id].first_block;
  GatherSize size{block_count_[block] + (rank_begin_[qa + 1] - block_slot_[block]),
                  rank_begin_[buffers_[id].last_rank + 1] - rank_begin_[qa + 1]};
  for (uint32_t node = qa + leaves_; any_long_ && node >= 1; node >>= 1) {
    size.live += node_count_[node];
  }
  return size;
}

size_t IntervalIndex::Gather(uint32_t id, uint64_t* keys, size_t at) const {
  const uint32_t qa = buffers_[id].first_rank, block = buffers_[id].first_block;
  for (uint32_t node = qa + leaves_; any_long_ && node >= 1; node >>= 1) {
    const uint64_t* from = node_keys_.data() + node_begin_[node];
    std::copy(from, from + node_count_[node], keys + at);
    at += node_count_[node];
  }
  // Short, live at the block's start and still at first.
  const int32_t live_at = static_cast<int32_t>(qa);
  const size_t listed = block_begin_[block];
  at = KeepLive(block_keys_.data() + listed, block_last_.data() + listed, block_count_[block],
                live_at, keys, at);
  // Short, starting in the block up to first, placed, live at first.
  const uint32_t block_start = block_slot_[block], after_first = rank_begin_[qa + 1];
  at = KeepLive(start_keys_.data() + block_start, start_last_.data() + block_start,
                after_first - block_start, live_at, keys, at);
  // Starts in (first, last]: every slot, keeping only the placed ones.
  const uint32_t after_last = rank_begin_[buffers_[id].last_rank + 1];
  at = KeepPlaced(start_keys_.data() + after_first, after_last - after_first, keys, at);
  return at;
}

}  // namespace plan_internal
}  // namespace tflm_arena
