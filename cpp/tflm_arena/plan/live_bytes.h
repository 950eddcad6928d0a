// Live bytes and live buffers at every step of a planning problem, and the
// peak step: the one computation behind the CLI's per-step table and peak
// line and the pictures' live-bytes bars (the Python package formats and
// draws what this returns).
//
// A buffer counts at every step of its inclusive lifetime
// [first_step, last_step] (see core/usage_record.h); its bytes count once
// per buffer, so deliberately aliased fixed buffers count more than once
// (LowerBound in plan.h counts their shared bytes once).
//
// Host code (standard library).
#ifndef TFLM_ARENA_PLAN_LIVE_BYTES_H_
#define TFLM_ARENA_PLAN_LIVE_BYTES_H_

#include <cstdint>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/core/usage_record.h"

namespace tflm_arena {

// The most steps ComputeLiveSteps lists (two int64 per step). A model's
// lifetimes span at most model::kMaxLifetimeWork (2^24) steps, plus step -1.
constexpr int64_t kMaxLiveSteps = (int64_t{1} << 24) + 2;

struct LiveSteps {
  Step first_step = 0;           // step of bytes[0] and buffers[0]
  std::vector<int64_t> bytes;    // bytes live at step first_step + i
  std::vector<int64_t> buffers;  // buffers live at step first_step + i
  // The earliest step of the range with the most live bytes; only
  // meaningful when has_peak (the range holds at least one step).
  Step peak_step = 0;
  bool has_peak = false;
};

// The steps records live at: [min first_step, max last_step]. False (and
// *from, *to untouched) when there are no records.
bool RecordStepRange(Span<const UsageRecord> records, Step* from, Step* to);

// Live bytes and buffers at every step of [from, to] (inclusive; an empty
// range, to < from, gives empty lists and no peak). Buffers outside the
// range count only at its steps. Errors (kInvalidArgument): a record with a
// negative size or first_step > last_step ("buffer 3: ..."), sizes adding
// up to more than INT64_MAX, a range of more than kMaxLiveSteps steps.
// O(n + to - from).
Status ComputeLiveSteps(Span<const UsageRecord> records, Step from, Step to, LiveSteps* out);

}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_LIVE_BYTES_H_
