#include "tflm_arena/plan/interval_index.h"

#include <algorithm>

namespace tflm_arena {
namespace plan_internal {

IntervalIndex::IntervalIndex(Span<const UsageRecord> records) {
  const size_t n = records.size();
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
  first_rank_.resize(n);
  last_rank_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    first_rank_[i] = rank(records[i].first_step);
    last_rank_[i] = rank(records[i].last_step);
  }
  while (leaves_ < steps.size()) leaves_ *= 2;
  node_head_.assign(2 * static_cast<size_t>(leaves_), -1);
  start_head_.assign(leaves_, -1);
  start_bits_.assign(leaves_ / 64 + 1, 0);
  links_.reserve(4 * n);
}

void IntervalIndex::Push(int32_t* head, uint32_t id) {
  links_.push_back(Link{id, *head});
  *head = static_cast<int32_t>(links_.size() - 1);
}

void IntervalIndex::Insert(uint32_t id) {
  // Canonical cover of leaves [first, last], bottom-up.
  uint32_t lo = first_rank_[id] + leaves_;
  uint32_t hi = last_rank_[id] + leaves_ + 1;
  while (lo < hi) {
    if (lo & 1) Push(&node_head_[lo++], id);
    if (hi & 1) Push(&node_head_[--hi], id);
    lo >>= 1;
    hi >>= 1;
  }
  const uint32_t start = first_rank_[id];
  Push(&start_head_[start], id);
  start_bits_[start >> 6] |= uint64_t{1} << (start & 63);
}

}  // namespace plan_internal
}  // namespace tflm_arena
