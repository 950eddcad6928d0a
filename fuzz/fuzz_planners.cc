// Every planner on usage records decoded from the input (sizes, inclusive
// lifetimes, fixed offsets; mostly sensible values, sometimes extremes):
// PlanTflmGreedy (fast host), PlanTflmGreedyRuntime and a directly driven
// GreedyPlanner (device), PlanLinear and LinearPlanner, LowerBound,
// ValidateRecords, ValidatePlan, RenderAscii and PrintMemoryPlan.
// Cross-checks: both greedy paths give identical results; every accepted
// plan of valid records passes ValidatePlan and is >= LowerBound (also
// when fixed buffers alias, which ValidateRecords allows); the device
// planners' text equals RenderAscii.
#include <fuzzer/FuzzedDataProvider.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_util.h"
#include "tflm_arena/plan/greedy_planner.h"
#include "tflm_arena/plan/linear_planner.h"
#include "tflm_arena/plan/plan.h"

namespace {

using tflm_arena::ByteOffset;
using tflm_arena::PlanResult;
using tflm_arena::Span;
using tflm_arena::Status;
using tflm_arena::StatusCode;
using tflm_arena::UsageRecord;

constexpr size_t kMaxRecords = 300;       // the device greedy planner is O(n^2)
constexpr int64_t kMaxRenderSteps = 256;  // RenderAscii prints one row per step

int64_t PickSize(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      return 0;
    case 1:
      return in.ConsumeIntegralInRange<int64_t>(INT32_MAX - 4096, INT32_MAX);
    case 2:
      return in.ConsumeIntegral<int64_t>();  // negative / beyond int32
    case 3:
      return in.ConsumeIntegralInRange<int64_t>(1, 1 << 20);
    default:
      return in.ConsumeIntegralInRange<int64_t>(0, 256) * 16;
  }
}

int32_t PickStep(FuzzedDataProvider& in) {
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0) return in.ConsumeIntegral<int32_t>();
  return in.ConsumeIntegralInRange<int32_t>(-1, 40);
}

ByteOffset PickFixed(FuzzedDataProvider& in, bool allow_fixed) {
  if (!allow_fixed) return tflm_arena::kOnlineOffset;
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      return in.ConsumeIntegralInRange<int64_t>(0, 1024) * 16;
    case 1:
      return in.ConsumeIntegralInRange<int64_t>(0, 5000);
    case 2:
      return in.ConsumeIntegral<int64_t>();
    default:
      return tflm_arena::kOnlineOffset;
  }
}

int64_t MaxEnd(Span<const UsageRecord> recs, const std::vector<ByteOffset>& offsets) {
  int64_t end = 0;
  for (size_t i = 0; i < recs.size(); ++i) {
    // A zero-size buffer counts too: TFLM's GetMaximumMemorySize takes
    // offset + size of every buffer, so a fixed empty one at 6944 makes 6944.
    if (recs[i].size >= 0 && offsets[i] + recs[i].size > end) end = offsets[i] + recs[i].size;
  }
  return end;
}

// What every accepted plan must satisfy.
void CheckPlan(const char* who, Span<const UsageRecord> recs, const PlanResult& p,
               bool records_valid, int64_t lower_bound) {
  FUZZ_CHECK(p.offsets.size() == recs.size(), "%s: %zu offsets", who, p.offsets.size());
  for (size_t i = 0; i < recs.size(); ++i) {
    FUZZ_CHECK(p.offsets[i] >= 0, "%s: buffer %zu at %lld", who, i,
               static_cast<long long>(p.offsets[i]));
    if (recs[i].fixed_offset >= 0) {
      FUZZ_CHECK(p.offsets[i] == recs[i].fixed_offset, "%s: fixed buffer %zu moved", who, i);
    }
  }
  FUZZ_CHECK(p.arena_bytes == MaxEnd(recs, p.offsets), "%s: arena %lld != highest end %lld", who,
             static_cast<long long>(p.arena_bytes),
             static_cast<long long>(MaxEnd(recs, p.offsets)));
  if (!records_valid) return;
  Status s = tflm_arena::ValidatePlan(recs, p.offsets, p.arena_bytes);
  FUZZ_CHECK(s.ok(), "%s: invalid plan: %s", who, s.message());
  // Fixed buffers may alias on purpose; the bound counts their shared
  // bytes once, so it still holds.
  FUZZ_CHECK(p.arena_bytes >= lower_bound, "%s: arena %lld below lower bound %lld", who,
             static_cast<long long>(p.arena_bytes), static_cast<long long>(lower_bound));
}

// Drives the device GreedyPlanner directly with a capacity taken from the
// input, querying out-of-range indices and printing into a short buffer.
void DeviceGreedy(FuzzedDataProvider& in, Span<const UsageRecord> recs, const PlanResult* host,
                  bool records_valid, bool aliases, bool renderable) {
  const size_t capacity = in.ConsumeIntegralInRange<size_t>(0, recs.size() + 2);
  const size_t skew = in.ConsumeIntegralInRange<size_t>(0, 3);  // unaligned scratch start
  std::vector<uint8_t> scratch(capacity * tflm_arena::GreedyPlanner::kBytesPerBuffer + skew);
  tflm_arena::GreedyPlanner planner;
  Status s = planner.Init(scratch.data() + skew, scratch.size() - skew);
  FUZZ_CHECK(s.ok(), "Init: %s", s.message());
  FUZZ_CHECK(static_cast<size_t>(planner.max_buffer_count()) + 1 >= capacity, "capacity %d for %zu",
             planner.max_buffer_count(), capacity);
  bool all_added = true;
  for (size_t i = 0; i < recs.size(); ++i) {
    const UsageRecord& r = recs[i];
    if (r.size > INT_MAX || r.size < INT_MIN || r.fixed_offset > INT_MAX ||
        r.fixed_offset < INT_MIN) {
      all_added = false;
      break;
    }
    s = planner.AddBuffer(static_cast<int>(r.size), r.first_step, r.last_step,
                          static_cast<int>(r.fixed_offset));
    if (!s.ok()) {
      if (static_cast<int>(i) >= planner.max_buffer_count()) {
        FUZZ_CHECK(s.code() == StatusCode::kArenaTooSmall, "full planner: %s", s.message());
      }
      all_added = false;
      break;
    }
  }
  int offset = 0;
  const int count = planner.GetBufferCount();
  // A plan past INT32_MAX fails every query (documented); otherwise
  // out-of-range indices give kOutOfRange.
  const bool overflow =
      planner.GetMaximumMemorySize() == INT_MAX &&
      planner.GetOffsetForBuffer(0, &offset).code() == StatusCode::kInvalidArgument;
  const StatusCode past = overflow ? StatusCode::kInvalidArgument : StatusCode::kOutOfRange;
  FUZZ_CHECK(planner.GetOffsetForBuffer(count, &offset).code() == past, "index past the end");
  FUZZ_CHECK(planner.GetOffsetForBuffer(-1, &offset).code() == past, "index -1");
  if (all_added && host != nullptr) {
    for (int i = 0; i < count; ++i) {
      FUZZ_CHECK(planner.GetOffsetForBuffer(i, &offset).ok(), "offset %d", i);
      FUZZ_CHECK(offset == host->offsets[i], "device greedy %d: %d, host %lld", i, offset,
                 static_cast<long long>(host->offsets[i]));
    }
    FUZZ_CHECK(planner.GetMaximumMemorySize() == host->arena_bytes, "device greedy size");
    bool has_zero = false;
    for (const UsageRecord& r : recs) has_zero |= r.size == 0;
    if (records_valid && !has_zero && !aliases) {
      FUZZ_CHECK(!planner.DoAnyBuffersOverlap(), "DoAnyBuffersOverlap on a valid plan");
    }
    if (renderable) {
      const size_t out_size = in.ConsumeIntegralInRange<size_t>(0, 64);
      std::vector<char> small(out_size + 1, 'x');
      const int n = planner.PrintMemoryPlan(out_size ? small.data() : nullptr, out_size);
      std::string want = tflm_arena::RenderAscii(recs, host->offsets);
      FUZZ_CHECK(n == static_cast<int>(want.size()), "PrintMemoryPlan length %d != %zu", n,
                 want.size());
      if (out_size > 0) {
        const size_t kept = want.size() < out_size - 1 ? want.size() : out_size - 1;
        FUZZ_CHECK(small[kept] == '\0' && want.compare(0, kept, small.data()) == 0,
                   "PrintMemoryPlan text differs from RenderAscii");
      }
      FUZZ_CHECK(small[out_size] == 'x', "PrintMemoryPlan wrote past out_size");
      std::vector<char> full(want.size() + 1);
      planner.PrintMemoryPlan(full.data(), full.size());
      FUZZ_CHECK(want == full.data(), "PrintMemoryPlan text differs from RenderAscii");
    }
  }
}

void DeviceLinear(FuzzedDataProvider& in, Span<const UsageRecord> recs, const PlanResult* host) {
  const size_t capacity = in.ConsumeIntegralInRange<size_t>(0, recs.size() + 2);
  std::vector<uint8_t> scratch(capacity * tflm_arena::LinearPlanner::kBytesPerBuffer);
  tflm_arena::LinearPlanner planner;
  FUZZ_CHECK(planner.Init(scratch.data(), scratch.size()).ok(), "linear Init");
  bool all_added = true;
  for (const UsageRecord& r : recs) {
    if (r.size > INT_MAX || r.size < INT_MIN) {
      all_added = false;
      break;
    }
    if (!planner.AddBuffer(static_cast<int>(r.size), r.first_step, r.last_step).ok()) {
      all_added = false;
      break;
    }
  }
  int offset = 0;
  FUZZ_CHECK(planner.GetOffsetForBuffer(planner.GetBufferCount(), &offset).code() ==
                 StatusCode::kOutOfRange,
             "linear index past the end");
  if (all_added && host != nullptr) {
    for (int i = 0; i < planner.GetBufferCount(); ++i) {
      FUZZ_CHECK(planner.GetOffsetForBuffer(i, &offset).ok() && offset == host->offsets[i],
                 "linear %d", i);
    }
    FUZZ_CHECK(planner.GetMaximumMemorySize() == host->arena_bytes, "linear size");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const bool allow_fixed = in.ConsumeBool();
  const size_t n = in.ConsumeIntegralInRange<size_t>(0, kMaxRecords);
  std::vector<UsageRecord> records;
  for (size_t i = 0; i < n && in.remaining_bytes() > 0; ++i) {
    UsageRecord r;
    r.size = PickSize(in);
    r.first_step = PickStep(in);
    if (in.ConsumeBool()) {  // a short lifetime, saturating at INT32_MAX
      const int64_t last = int64_t{r.first_step} + in.ConsumeIntegralInRange<int32_t>(0, 8);
      r.last_step = static_cast<int32_t>(last > INT32_MAX ? INT32_MAX : last);
    } else {
      r.last_step = PickStep(in);
    }
    if (r.last_step < r.first_step && in.ConsumeBool()) r.last_step = r.first_step;
    r.fixed_offset = PickFixed(in, allow_fixed);
    records.push_back(r);
  }
  Span<const UsageRecord> recs(records.data(), records.size());

  const bool valid = tflm_arena::ValidateRecords(recs).ok();
  const bool valid16 = tflm_arena::ValidateRecords(recs, 16).ok();
  FUZZ_CHECK(valid || !valid16, "valid with alignment 16 but not without");
  int64_t lb = tflm_arena::LowerBound(recs);
  FUZZ_CHECK(lb >= 0, "negative lower bound");
  // The bound counts aliased fixed bytes once, so it holds with aliases too.
  const bool aliases = valid && !tflm_arena::FixedAliases(recs).empty();
  bool renderable = true;
  for (const UsageRecord& r : records) {
    renderable &= r.first_step >= -1 && r.last_step <= kMaxRenderSteps;
  }

  PlanResult fast, runtime;
  Status sf = tflm_arena::PlanTflmGreedy(recs, &fast);
  Status sr = tflm_arena::PlanTflmGreedyRuntime(recs, &runtime);
  FUZZ_CHECK(sf.ok() == sr.ok(), "greedy fast: %s / runtime: %s", sf.ok() ? "ok" : sf.message(),
             sr.ok() ? "ok" : sr.message());
  if (sf.ok()) {
    FUZZ_CHECK(fast.offsets == runtime.offsets && fast.arena_bytes == runtime.arena_bytes,
               "fast and runtime greedy plans differ");
    CheckPlan("greedy", recs, fast, valid, lb);
  } else {
    FUZZ_CHECK(sf.code() == sr.code(), "greedy error codes differ: %s / %s", sf.message(),
               sr.message());
    FUZZ_CHECK(fast.offsets.empty() && fast.arena_bytes == 0, "failed plan left offsets");
  }
  DeviceGreedy(in, recs, sf.ok() ? &fast : nullptr, valid, aliases, renderable);

  PlanResult linear;
  Status sl = tflm_arena::PlanLinear(recs, &linear);
  if (sl.ok()) {
    int64_t total = 0;
    for (const UsageRecord& r : records) total += r.size;
    FUZZ_CHECK(linear.arena_bytes == total, "linear arena != sum of sizes");
    CheckPlan("linear", recs, linear, valid, lb);
    // Linear never shares bytes, so its plan is valid even for time-invalid
    // fixed layouts; only the per-record checks matter.
  }
  DeviceLinear(in, recs, sl.ok() ? &linear : nullptr);

  // Arbitrary offsets: the validator and the renderer must not crash.
  std::vector<ByteOffset> junk(records.size());
  for (ByteOffset& o : junk) o = in.ConsumeIntegralInRange<int64_t>(-2, 4096);
  (void)tflm_arena::ValidatePlan(recs, junk, in.ConsumeIntegral<int64_t>());
  if (renderable) (void)tflm_arena::RenderAscii(recs, junk);
  return 0;
}
