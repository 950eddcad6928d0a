#include "tflm_arena/tflm/tflm_arena_size.h"

#include "tflm_arena/tflm/custom_kernels.h"
#include "tflm_arena/tflm/kernel_table.h"

namespace tflm_arena {
namespace tflm {
namespace {

constexpr uint64_t kMaxArena = uint64_t{1} << 40;
constexpr uint64_t kDownwardCheck = 32;

std::string Describe(const Trace& trace, size_t event) {
  const Event& e = trace.events[event];
  std::string s = e.what;
  if (e.op >= 0 && static_cast<size_t>(e.op) < trace.op_names.size()) {
    s += " (operator " + std::to_string(e.op) + ", " + trace.op_names[e.op] + ")";
  }
  return s;
}

}  // namespace

Status BuildTargetTrace(const model::Model& model, const TflmArenaOptions& options,
                        ResolvedTarget* resolved, Trace* trace, Refusal* refusal) {
  const AllocatorChoice choice = !options.recording.has_value() ? AllocatorChoice::kTargetDefault
                                 : *options.recording           ? AllocatorChoice::kRecording
                                                                : AllocatorChoice::kMicroAllocator;
  TFLM_ARENA_RETURN_IF_ERROR(ResolveBuildTarget(options.target, choice, options.planner, resolved));
  TraceOptions to = TraceOptionsFor(*resolved);
  TFLM_ARENA_RETURN_IF_ERROR(FindTflmPlanner(options.planner, &to.planner));
  to.resource_variables = options.resource_variables;
  to.resource_variables_in_arena = options.resource_variables_in_arena;
  const Status built = BuildTrace(model, to, trace);
  if (refusal != nullptr) *refusal = trace->refusal;
  return built;
}

Status SmallestWorkingSize(const Trace& trace, ReplayBuffer buffer, uint64_t* out) {
  uint64_t hi = 1024;
  while (!Replay(trace, hi, buffer).ok) {
    if (hi >= kMaxArena) {
      return Status::Error(StatusCode::kInternal, "no arena up to %llu bytes works",
                           static_cast<unsigned long long>(kMaxArena));
    }
    hi *= 2;
  }
  uint64_t lo = 0;  // fails (an empty buffer cannot hold the allocator)
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (Replay(trace, mid, buffer).ok ? hi : lo) = mid;
  }
  for (uint64_t d = 1; d <= kDownwardCheck && d < hi; ++d) {
    if (Replay(trace, hi - d, buffer).ok) {
      return Status::Error(
          StatusCode::kInternal, "arena model is not monotonic: %llu works, %llu fails",
          static_cast<unsigned long long>(hi - d), static_cast<unsigned long long>(lo));
    }
  }
  *out = hi;
  return Status::Ok();
}

std::string FailingEvent(const Trace& trace, uint64_t bytes, ReplayBuffer buffer) {
  const ReplayResult r = Replay(trace, bytes, buffer);
  return r.ok ? "" : Describe(trace, r.failed_event);
}

Status ComputeTflmArenaSize(const model::Model& model, const TflmArenaOptions& options,
                            TflmArenaSize* out, Refusal* refusal) {
  ResolvedTarget resolved;
  Trace trace;
  TFLM_ARENA_RETURN_IF_ERROR(BuildTargetTrace(model, options, &resolved, &trace, refusal));
  uint64_t hi = 0;
  TFLM_ARENA_RETURN_IF_ERROR(SmallestWorkingSize(trace, ReplayBuffer::kSingle, &hi));
  const ReplayResult at_min = Replay(trace, hi);

  *out = TflmArenaSize();
  out->target = resolved.target->name;
  out->version = resolved.version->name;
  out->versions = VersionWords(*resolved.target, *resolved.version);
  out->description = resolved.description;
  out->recording = resolved.recording;
  out->planner = options.planner;
  out->min_arena_bytes = hi;
  uint64_t m16 = (hi + 15) / 16 * 16;
  while (!Replay(trace, m16).ok) m16 += 16;  // monotonic: first try holds
  out->min_arena_bytes_16 = m16;
  out->head = at_min.head;
  out->tail = at_min.tail;
  out->temp_peak = at_min.temp_peak;
  for (size_t i = 0; i < kNumCategories; ++i) out->categories[i] = at_min.categories[i];
  out->planned_buffers = trace.planned_buffers;
  out->scratch_requests = trace.scratch_requests;
  out->limited_by = FailingEvent(trace, hi - 1, ReplayBuffer::kSingle);
  out->resource_variables = trace.resource_variables;
  out->resource_variables_in_arena = trace.resource_variables_in_arena;
  TFLM_ARENA_RETURN_IF_ERROR(DecompressionRegionBytes(model, &out->decompression_region_bytes));
  TFLM_ARENA_RETURN_IF_ERROR(EthosUFastScratchBytes(model, &out->ethos_u_fast_scratch_bytes));
  return Status::Ok();
}

}  // namespace tflm
}  // namespace tflm_arena
