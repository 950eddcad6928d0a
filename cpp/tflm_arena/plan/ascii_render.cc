// RenderAscii: TFLM's PrintMemoryPlan text on the host (format in
// plan_text.h). TFLM repaints every buffer for every step, O(steps * n);
// here buffers join an active list at their first step and drop out after
// their last, so the cost is O(n log n + total lifetime + 80 * steps). The
// text is the same because a row does not depend on painting order.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/plan_text.h"

namespace tflm_arena {
namespace {

#if defined(__SIZEOF_INT128__)
using Wide = __int128;
#else
using Wide = long double;
#endif

int64_t Clamp(Wide v) {
  if (v > static_cast<Wide>(INT64_MAX)) return INT64_MAX;
  if (v < static_cast<Wide>(INT64_MIN)) return INT64_MIN;
  return static_cast<int64_t>(v);
}

void AppendLine(std::string* out, const char* line, size_t length) {
  out->append(line, std::min(length, plan_internal::kMaxLineChars - 1));
}

}  // namespace

std::string RenderAscii(Span<const UsageRecord> records, Span<const ByteOffset> offsets) {
  const size_t n = records.size();
  auto offset_of = [&](size_t i) { return i < offsets.size() ? offsets[i] : kOnlineOffset; };
  std::string out;
  char buf[plan_internal::kMaxLineChars];

  int64_t max_size = plan_internal::kLineWidth;
  int64_t max_step = 0;
  for (size_t i = 0; i < n; ++i) {
    const UsageRecord& r = records[i];
    plan_internal::TextWriter w(buf, sizeof(buf));
    plan_internal::AppendBufferLine(&w, static_cast<int64_t>(i), r.size, offset_of(i), r.first_step,
                                    r.last_step);
    AppendLine(&out, buf, w.length());
    max_size = std::max(max_size, Clamp(static_cast<Wide>(offset_of(i)) + r.size));
    max_step = std::max<int64_t>(max_step, r.last_step);
  }

  // Buffers that can be painted, by the first row they appear on.
  std::vector<size_t> by_start;
  for (size_t i = 0; i < n; ++i) {
    if (records[i].first_step <= records[i].last_step && records[i].last_step >= 0 &&
        offset_of(i) != kOnlineOffset) {
      by_start.push_back(i);
    }
  }
  auto start_of = [&](size_t i) { return std::max<int64_t>(records[i].first_step, 0); };
  std::stable_sort(by_start.begin(), by_start.end(),
                   [&](size_t a, size_t b) { return start_of(a) < start_of(b); });

  std::vector<size_t> active;
  size_t next = 0;
  char line[plan_internal::kLineWidth];
  for (int64_t t = 0; t <= max_step; ++t) {
    while (next < by_start.size() && start_of(by_start[next]) <= t)
      active.push_back(by_start[next++]);
    plan_internal::ClearRow(line);
    Wide live_bytes = 0;
    size_t kept = 0;
    for (size_t i : active) {
      const UsageRecord& r = records[i];
      if (r.last_step < t) continue;  // finished: drop it
      active[kept++] = i;
      live_bytes += r.size;
      plan_internal::PaintRow(
          line, offset_of(i), r.size, max_size,
          plan_internal::BufferChar(static_cast<int64_t>(i), r.first_step, r.last_step));
    }
    active.resize(kept);
    plan_internal::TextWriter w(buf, sizeof(buf));
    plan_internal::AppendRow(&w, t, line, Clamp(live_bytes));
    AppendLine(&out, buf, w.length());
  }
  return out;
}

}  // namespace tflm_arena
