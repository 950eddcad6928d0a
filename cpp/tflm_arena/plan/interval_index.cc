#include "tflm_arena/plan/interval_index.h"

#include <algorithm>
#include <cstdint>

namespace tflm_arena {
namespace plan_internal {

// Calls f(node) for the canonical cover of leaves [first, last], bottom-up.
template <typename F>
void IntervalIndex::ForEachCoverNode(uint32_t id, F&& f) const {
  uint32_t lo = first_rank_[id] + leaves_;
  uint32_t hi = last_rank_[id] + leaves_ + 1;
  while (lo < hi) {
    if (lo & 1) f(lo++);
    if (hi & 1) f(--hi);
    lo >>= 1;
    hi >>= 1;
  }
}

IntervalIndex::IntervalIndex(Span<const UsageRecord> records) {
  const size_t n = records.size();
  first_rank_.resize(n);
  last_rank_.resize(n);
  int64_t min_step = INT64_MAX, max_step = INT64_MIN;
  for (const UsageRecord& r : records) {
    min_step = std::min<int64_t>(min_step, r.first_step);
    max_step = std::max<int64_t>(max_step, r.last_step);
  }
  size_t ranks = 0;
  if (n > 0 && max_step - min_step < static_cast<int64_t>(2 * n)) {
    for (size_t i = 0; i < n; ++i) {
      first_rank_[i] = static_cast<uint32_t>(records[i].first_step - min_step);
      last_rank_[i] = static_cast<uint32_t>(records[i].last_step - min_step);
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
      first_rank_[i] = rank(records[i].first_step);
      last_rank_[i] = rank(records[i].last_step);
    }
    ranks = steps.size();
  }
  while (leaves_ < ranks) leaves_ *= 2;

  // Start slots: a counting sort by first rank (ties by index).
  rank_begin_.assign(static_cast<size_t>(leaves_) + 1, 0);
  for (size_t i = 0; i < n; ++i) ++rank_begin_[first_rank_[i] + 1];
  for (size_t r = 1; r < rank_begin_.size(); ++r) rank_begin_[r] += rank_begin_[r - 1];
  std::vector<uint32_t> next(rank_begin_.begin(), rank_begin_.end() - 1);
  start_slot_.resize(n);
  for (size_t i = 0; i < n; ++i) start_slot_[i] = next[first_rank_[i]]++;
  start_keys_.assign(n, kEmpty);
  start_last_.assign(n, -1);

  // Blocks: runs of consecutive ranks where at most kBlockSlots buffers
  // start (a rank where more start is a block by itself).
  block_of_rank_.resize(ranks);
  block_slot_.assign(1, 0);
  for (size_t r = 0, in_block = 0; r < ranks; ++r) {
    const size_t here = rank_begin_[r + 1] - rank_begin_[r];
    if (in_block > 0 && in_block + here > kBlockSlots) {
      block_slot_.push_back(rank_begin_[r]);
      in_block = 0;
    }
    block_of_rank_[r] = static_cast<uint32_t>(block_slot_.size() - 1);
    in_block += here;
  }

  // Short lifetimes (at most kShortBlocks blocks starting within (first,
  // last]) go to the block lists, the rest to the tree.
  short_.resize(n);
  std::vector<uint32_t> block_size(block_slot_.size(), 0);
  node_count_.assign(2 * static_cast<size_t>(leaves_), 0);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t a = block_of_rank_[first_rank_[i]], b = block_of_rank_[last_rank_[i]];
    short_[i] = b - a <= kShortBlocks;
    if (short_[i]) {
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
  if (short_[id]) {
    const uint32_t last = last_rank_[id];
    const uint32_t a = block_of_rank_[first_rank_[id]], b = block_of_rank_[last];
    for (uint32_t k = a + 1; k <= b; ++k) {
      const size_t at = block_begin_[k] + block_count_[k]++;
      block_keys_[at] = key;
      block_last_[at] = static_cast<int32_t>(last);
    }
    start_last_[start_slot_[id]] = static_cast<int32_t>(last);
  } else {
    ForEachCoverNode(
        id, [&](uint32_t node) { node_keys_[node_begin_[node] + node_count_[node]++] = key; });
  }
  start_keys_[start_slot_[id]] = key;
}

void IntervalIndex::Prefetch(uint32_t id, int stage) const {
  if (stage == 0) {
    __builtin_prefetch(&first_rank_[id]);
    __builtin_prefetch(&last_rank_[id]);
    return;
  }
  const uint32_t qa = first_rank_[id];
  if (stage == 1) {  // what locates the runs
    __builtin_prefetch(&block_of_rank_[qa]);
    __builtin_prefetch(&rank_begin_[qa + 1]);
    __builtin_prefetch(&rank_begin_[last_rank_[id] + 1]);
    for (uint32_t node = qa + leaves_; any_long_ && node >= 1; node >>= 1) {
      __builtin_prefetch(&node_count_[node]);
      __builtin_prefetch(&node_begin_[node]);
    }
    return;
  }
  // Stage 2: the runs' first entries (and the block's bounds).
  const uint32_t block = block_of_rank_[qa];
  __builtin_prefetch(&block_begin_[block]);
  __builtin_prefetch(&block_count_[block]);
  __builtin_prefetch(&block_slot_[block]);
  __builtin_prefetch(start_keys_.data() + rank_begin_[qa + 1]);
  for (uint32_t node = qa + leaves_; any_long_ && node >= 1; node >>= 1) {
    __builtin_prefetch(node_keys_.data() + node_begin_[node]);
  }
}

IntervalIndex::GatherSize IntervalIndex::GatherCost(uint32_t id) const {
  const uint32_t qa = first_rank_[id], block = block_of_rank_[qa];
  GatherSize size{block_count_[block] + (rank_begin_[qa + 1] - block_slot_[block]),
                  rank_begin_[last_rank_[id] + 1] - rank_begin_[qa + 1]};
  for (uint32_t node = qa + leaves_; any_long_ && node >= 1; node >>= 1) {
    size.live += node_count_[node];
  }
  return size;
}

size_t IntervalIndex::Gather(uint32_t id, uint64_t* keys, size_t at) const {
  const uint32_t qa = first_rank_[id], block = block_of_rank_[qa];
  for (uint32_t node = qa + leaves_; any_long_ && node >= 1; node >>= 1) {
    const uint64_t* from = node_keys_.data() + node_begin_[node];
    std::copy(from, from + node_count_[node], keys + at);
    at += node_count_[node];
  }
  // Short, live at the block's start and still at first.
  const int32_t live_at = static_cast<int32_t>(qa);
  for (size_t s = block_begin_[block], e = s + block_count_[block]; s < e; ++s) {
    keys[at] = block_keys_[s];
    at += block_last_[s] >= live_at;
  }
  // Short, starting in the block up to first, placed, live at first.
  for (uint32_t s = block_slot_[block], e = rank_begin_[qa + 1]; s < e; ++s) {
    keys[at] = start_keys_[s];
    at += start_last_[s] >= live_at;
  }
  // Starts in (first, last]: copy every slot, keep only the placed ones.
  const uint64_t* from = start_keys_.data() + rank_begin_[qa + 1];
  const uint64_t* to = start_keys_.data() + rank_begin_[last_rank_[id] + 1];
  for (; from != to; ++from) {
    keys[at] = *from;
    at += *from != kEmpty;
  }
  return at;
}

}  // namespace plan_internal
}  // namespace tflm_arena
