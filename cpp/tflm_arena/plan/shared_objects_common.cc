// Record checks and positional maximums shared by the shared-object
// strategies (shared_objects.h).
#include <algorithm>
#include <functional>
#include <vector>

#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/shared_objects_internal.h"

namespace tflm_arena {

Status CheckSharedObjectRecords(Span<const UsageRecord> records) {
  TFLM_ARENA_RETURN_IF_ERROR(ValidateRecords(records));
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].fixed_offset != kOnlineOffset) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: fixed offset %lld is not supported by shared-object "
                           "strategies",
                           i, static_cast<long long>(records[i].fixed_offset));
    }
  }
  if (!records.empty()) {
    int64_t lo = records[0].first_step, hi = records[0].last_step;
    for (const UsageRecord& r : records) {
      lo = std::min<int64_t>(lo, r.first_step);
      hi = std::max<int64_t>(hi, r.last_step);
    }
    int64_t entries = 0;
    for (const UsageRecord& r : records) entries += int64_t{r.last_step} - r.first_step + 1;
    if (entries > kMaxSharedObjectLiveEntries) {
      return Status::Error(
          StatusCode::kInvalidArgument, "lifetimes add up to %lld steps, more than %lld",
          static_cast<long long>(entries), static_cast<long long>(kMaxSharedObjectLiveEntries));
    }
    if (hi - lo > kMaxSharedObjectSteps) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "steps span %lld to %lld, more than %lld steps",
                           static_cast<long long>(lo), static_cast<long long>(hi),
                           static_cast<long long>(kMaxSharedObjectSteps));
    }
  }
  return Status::Ok();
}

namespace plan_internal {

std::vector<std::vector<size_t>> StepProfiles(Span<const UsageRecord> records) {
  if (records.empty()) return {};
  Step lo = records[0].first_step, hi = records[0].last_step;
  for (const UsageRecord& r : records) {
    lo = std::min(lo, r.first_step);
    hi = std::max(hi, r.last_step);
  }
  std::vector<std::vector<size_t>> profiles(static_cast<size_t>(hi - lo) + 1);
  for (size_t i = 0; i < records.size(); ++i) {
    for (int64_t s = records[i].first_step; s <= records[i].last_step; ++s) {
      profiles[static_cast<size_t>(s - lo)].push_back(i);
    }
  }
  // Largest first; equal sizes keep record order (the GPU delegate's small
  // inputs behave the same way).
  for (auto& p : profiles) {
    std::stable_sort(p.begin(), p.end(),
                     [&](size_t a, size_t b) { return records[a].size > records[b].size; });
  }
  return profiles;
}

std::vector<size_t> ByFirstStep(Span<const UsageRecord> records) {
  std::vector<size_t> order(records.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return records[a].first_step < records[b].first_step;
  });
  return order;
}

void Finish(SharedObjects* out) {
  out->total = 0;
  for (int64_t s : out->object_sizes) out->total += s;
}

}  // namespace plan_internal

std::vector<int64_t> PositionalMaximums(Span<const UsageRecord> records) {
  std::vector<int64_t> max;
  for (const auto& profile : plan_internal::StepProfiles(records)) {
    for (size_t k = 0; k < profile.size(); ++k) {
      const int64_t size = records[profile[k]].size;
      if (k < max.size()) {
        max[k] = std::max(max[k], size);
      } else {
        max.push_back(size);
      }
    }
  }
  return max;
}

int64_t PositionalMaxLowerBound(Span<const UsageRecord> records) {
  int64_t sum = 0;
  for (int64_t m : PositionalMaximums(records)) sum += m;
  return sum;
}

}  // namespace tflm_arena
