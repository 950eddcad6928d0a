// See live_bytes.h.
#include "tflm_arena/plan/live_bytes.h"

#include <algorithm>
#include <cinttypes>
#include <utility>

namespace tflm_arena {

bool RecordStepRange(Span<const UsageRecord> records, Step* from, Step* to) {
  if (records.empty()) return false;
  Step lo = records[0].first_step;
  Step hi = records[0].last_step;
  for (size_t i = 1; i < records.size(); ++i) {
    lo = std::min(lo, records[i].first_step);
    hi = std::max(hi, records[i].last_step);
  }
  *from = lo;
  *to = hi;
  return true;
}

Status ComputeLiveSteps(Span<const UsageRecord> records, Step from, Step to, LiveSteps* out) {
  *out = LiveSteps{};
  out->first_step = from;
  int64_t total = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const UsageRecord& r = records[i];
    if (r.size < 0) {
      return Status::Error(StatusCode::kInvalidArgument, "buffer %zu: size %" PRId64 " is negative",
                           i, r.size);
    }
    if (r.first_step > r.last_step) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: first step %" PRId32 " is after last step %" PRId32, i,
                           r.first_step, r.last_step);
    }
    if (__builtin_add_overflow(total, r.size, &total)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: the buffers' sizes add up to more "
                           "than %" PRId64 " bytes",
                           i, INT64_MAX);
    }
  }
  if (to < from) return Status::Ok();
  const int64_t steps = int64_t{to} - from + 1;
  if (steps > kMaxLiveSteps) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "steps %" PRId32 "..%" PRId32 " are %" PRId64
                         " steps, more than the %" PRId64 " live bytes are listed for",
                         from, to, steps, kMaxLiveSteps);
  }
  // Differences: +size at the first step in range, -size after the last.
  const size_t n = static_cast<size_t>(steps);
  std::vector<int64_t> bytes(n + 1, 0);
  std::vector<int64_t> count(n + 1, 0);
  for (const UsageRecord& r : records) {
    const Step a = std::max(r.first_step, from);
    const Step b = std::min(r.last_step, to);
    if (a > b) continue;
    const size_t i = static_cast<size_t>(int64_t{a} - from);
    const size_t j = static_cast<size_t>(int64_t{b} - from) + 1;
    bytes[i] += r.size;  // each entry and running sum within +-total
    bytes[j] -= r.size;
    count[i] += 1;
    count[j] -= 1;
  }
  bytes.pop_back();
  count.pop_back();
  int64_t live = 0;
  int64_t alive = 0;
  size_t peak = 0;
  for (size_t i = 0; i < n; ++i) {
    live += bytes[i];
    alive += count[i];
    bytes[i] = live;
    count[i] = alive;
    if (live > bytes[peak]) peak = i;
  }
  out->bytes = std::move(bytes);
  out->buffers = std::move(count);
  out->peak_step = static_cast<Step>(from + static_cast<int64_t>(peak));
  out->has_peak = true;
  return Status::Ok();
}

}  // namespace tflm_arena
