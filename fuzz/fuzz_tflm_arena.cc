// The model of stock TFLM's arena (tflm/) on untrusted models: every build
// target of the registry (one per input, picked from the input's hash), the
// MicroAllocator or the RecordingMicroAllocator, the greedy or the linear
// planner, the application's resource variables (the wheel's count, none,
// one or 20, in this arena or another), then the same model with two
// buffers and two copies of it in one shared arena; the kernel scratch
// requests and the scratch-inclusive plan of the same target.
//
// Checks beyond "no crash / no UB":
//  - a refusal (kFailedPrecondition) fills the Refusal with a reason, a
//    source and an operator that exists; every error has a message;
//  - the minimum arena works and one byte less fails (FailingEvent says
//    what), min_arena_bytes_16 is the next multiple of 16, head + tail fit,
//    the head holds the greedy plan of the same scratch requests (no
//    offline plan), every figure is the target's own;
//  - the scratch requests are the trace's, in range of the model, and their
//    greedy plan validates;
//  - two buffers: the one-arena figure equals ComputeTflmArenaSize's;
//  - a shared arena of two copies: no smaller than one copy alone, phases
//    non-decreasing, the best order no larger than the given one;
//  - the target at another stack version of its family (stack_versions.h):
//    CompareStacks' two sides are each version's own ComputeTflmArenaSize
//    figures (or refusals), and every change it lists names an operator of
//    the model whose allocations do differ.
// FUZZ_TRACE=1 prints the target, the mode and the outcome of each input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_model_util.h"
#include "fuzz_util.h"
#include "tflm_arena/core/align.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/offline_plan.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/tflm/build_targets.h"
#include "tflm_arena/tflm/scratch_requests.h"
#include "tflm_arena/tflm/shared_arena.h"
#include "tflm_arena/tflm/split_arena.h"
#include "tflm_arena/tflm/stack_compare.h"
#include "tflm_arena/tflm/stack_versions.h"
#include "tflm_arena/tflm/tflm_arena_size.h"

namespace {

using tflm_arena::Span;
using tflm_arena::Status;
using tflm_arena::StatusCode;
using tflm_arena::UsageRecord;
namespace model = tflm_arena::model;
namespace tflm = tflm_arena::tflm;

// Keeps one run fast: models with more tensors than this are only sized
// once (no split or shared arena, no plan cross-check).
constexpr size_t kMaxCrossCheckTensors = 4096;

void CheckError(const Status& s, const tflm::Refusal& refusal, const model::Model& m,
                const char* what) {
  FUZZ_CHECK(s.message()[0] != '\0', "%s: error without a message", what);
  if (s.code() != StatusCode::kFailedPrecondition) return;
  FUZZ_CHECK(refusal.refused, "%s: kFailedPrecondition without a refusal: %s", what, s.message());
  FUZZ_CHECK(!refusal.reason.empty() && !refusal.source.empty() && !refusal.op_name.empty(),
             "%s: refusal with an empty field: %s", what, s.message());
  FUZZ_CHECK(
      refusal.subgraph < m.num_subgraphs() && refusal.op_index < m.num_operators(refusal.subgraph),
      "%s: refusal names operator %zu of subgraph %zu, which does not exist", what,
      refusal.op_index, refusal.subgraph);
}

// The greedy plan of the model's lifetimes with `scratch`: valid, and its
// arena (the plan TFLM's head holds).
bool ScratchPlan(const model::Model& m, const std::vector<model::ScratchRequest>& scratch,
                 int64_t* arena) {
  const size_t n = model::AllocationInfoCount(m, scratch.size());
  std::vector<model::AllocationEntry> entries(n);
  Span<const model::ScratchRequest> req(scratch.data(), scratch.size());
  if (!model::ComputeModelAllocationInfo(m, req, Span<model::AllocationEntry>(entries)).ok()) {
    return false;
  }
  std::vector<UsageRecord> records;
  std::vector<uint32_t> to_entry;
  fuzz::Records(entries, &records, &to_entry);
  Span<const UsageRecord> recs(records.data(), records.size());
  tflm_arena::PlanResult plan;
  if (!tflm_arena::PlanTflmGreedy(recs, &plan).ok()) return false;
  if (!tflm_arena::ValidateRecords(recs).ok()) return false;
  const Status s = tflm_arena::ValidatePlan(recs, plan.offsets, plan.arena_bytes);
  FUZZ_CHECK(s.ok(), "scratch-inclusive greedy plan invalid: %s", s.message());
  *arena = plan.arena_bytes;
  return true;
}

void CheckSize(const model::Model& m, const tflm::TflmArenaOptions& options,
               const tflm::TflmArenaSize& size, bool has_offline_plan) {
  FUZZ_CHECK(size.target == options.target, "figures for %s, asked for %s", size.target.c_str(),
             options.target.c_str());
  FUZZ_CHECK(size.min_arena_bytes > 0, "a minimum arena of 0 bytes");
  FUZZ_CHECK(size.min_arena_bytes_16 % 16 == 0 && size.min_arena_bytes_16 >= size.min_arena_bytes &&
                 size.min_arena_bytes_16 < size.min_arena_bytes + 16,
             "min_arena_bytes_16 %llu for %llu",
             static_cast<unsigned long long>(size.min_arena_bytes_16),
             static_cast<unsigned long long>(size.min_arena_bytes));
  FUZZ_CHECK(size.head + size.tail <= size.min_arena_bytes, "head %llu + tail %llu > %llu",
             static_cast<unsigned long long>(size.head), static_cast<unsigned long long>(size.tail),
             static_cast<unsigned long long>(size.min_arena_bytes));
  FUZZ_CHECK(!size.limited_by.empty(), "nothing fails one byte below the minimum");

  // The trace replays at the minimum and fails one byte below it.
  tflm::ResolvedTarget resolved;
  tflm::Trace trace;
  tflm::Refusal refusal;
  Status s = tflm::BuildTargetTrace(m, options, &resolved, &trace, &refusal);
  FUZZ_CHECK(s.ok(), "trace fails after the size succeeded: %s", s.message());
  const tflm::ReplayBuffer whole = tflm::ReplayBuffer::kSingle;
  FUZZ_CHECK(tflm::FailingEvent(trace, size.min_arena_bytes, whole).empty(),
             "the minimum fails: %s",
             tflm::FailingEvent(trace, size.min_arena_bytes, whole).c_str());
  FUZZ_CHECK(!tflm::FailingEvent(trace, size.min_arena_bytes - 1, whole).empty(),
             "one byte below the minimum works");
  FUZZ_CHECK(size.scratch_requests == trace.scratch.size(), "%zu scratch requests, trace has %zu",
             size.scratch_requests, trace.scratch.size());

  // The kernel scratch requests of the same target, and their plan.
  std::vector<model::ScratchRequest> scratch;
  s = tflm::TflmScratchRequests(m, options.target, &scratch, &refusal);
  // The requests take the wheel's count of resource variables, which a
  // VAR_HANDLE of a second container can exhaust where an explicit count
  // did not: that refusal is TFLM's too.
  if (!s.ok() && options.resource_variables >= 0 && refusal.refused) return;
  FUZZ_CHECK(s.ok(), "scratch requests fail after the size succeeded: %s", s.message());
  FUZZ_CHECK(scratch.size() == trace.scratch.size(), "%zu scratch requests, trace has %zu",
             scratch.size(), trace.scratch.size());
  for (const model::ScratchRequest& r : scratch) {
    FUZZ_CHECK(static_cast<size_t>(r.subgraph_idx) < m.num_subgraphs() && r.node_idx >= 0 &&
                   static_cast<size_t>(r.node_idx) < m.num_operators(r.subgraph_idx),
               "scratch request for operator %d of subgraph %d", r.node_idx, r.subgraph_idx);
  }
  if (m.total_tensors() > kMaxCrossCheckTensors) return;
  int64_t plan_arena = 0;
  if (ScratchPlan(m, scratch, &plan_arena) && !has_offline_plan &&
      options.planner == "tflm_greedy") {
    FUZZ_CHECK(static_cast<int64_t>(size.head) >= plan_arena,
               "TFLM's head %llu is below the greedy plan's %lld bytes",
               static_cast<unsigned long long>(size.head), static_cast<long long>(plan_arena));
  }
}

void CheckSplit(const model::Model& m, const tflm::TflmArenaOptions& options,
                const tflm::TflmArenaSize& single) {
  tflm::TflmSplitArena split;
  tflm::Refusal refusal;
  const Status s = tflm::ComputeTflmSplitArena(m, options, &split, &refusal);
  if (!s.ok()) {
    FUZZ_CHECK(s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kInternal,
               "two buffers fail where one arena worked: %s", s.message());
    return;
  }
  FUZZ_CHECK(split.single_arena_bytes == single.min_arena_bytes,
             "two-buffer report says one arena needs %llu, ComputeTflmArenaSize %llu",
             static_cast<unsigned long long>(split.single_arena_bytes),
             static_cast<unsigned long long>(single.min_arena_bytes));
  FUZZ_CHECK(split.min_persistent_bytes > 0 && split.min_non_persistent_bytes > 0,
             "an empty buffer");
}

void CheckShared(const model::Model& m, const tflm::TflmArenaOptions& options,
                 const tflm::TflmArenaSize& single) {
  tflm::TflmSharedArena shared;
  tflm::Refusal refusal;
  size_t failed = 0;
  const Status s = tflm::ComputeTflmSharedArena({&m, &m}, options, &shared, &refusal, &failed);
  if (!s.ok()) {
    FUZZ_CHECK(s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kInternal,
               "a shared arena fails where one model worked: %s", s.message());
    return;
  }
  const std::vector<uint64_t>& phases = shared.given.phase_bytes;
  FUZZ_CHECK(phases.size() == 2, "%zu phases for two models", phases.size());
  FUZZ_CHECK(phases[0] <= phases[1], "phases decrease");
  FUZZ_CHECK(shared.given.min_arena_bytes == phases.back(), "the answer is not the last phase");
  FUZZ_CHECK(shared.given.min_arena_bytes >= single.min_arena_bytes,
             "two models in %llu bytes, one alone needs %llu",
             static_cast<unsigned long long>(shared.given.min_arena_bytes),
             static_cast<unsigned long long>(single.min_arena_bytes));
  FUZZ_CHECK(shared.single_arena_bytes.size() == 2 &&
                 shared.single_arena_bytes[0] == single.min_arena_bytes,
             "the shared report's single-model figure differs");
  if (shared.all_orders_checked) {
    FUZZ_CHECK(shared.best_min_arena_bytes <= shared.given.min_arena_bytes,
               "the best order is larger than the given one");
  }
}

// The same options at another version of the target's family, picked by `pick`.
void CheckCompare(const model::Model& m, const tflm::TflmArenaOptions& options,
                  const tflm::TflmArenaSize& single, uint64_t pick) {
  const tflm::BuildTarget* target = tflm::FindBuildTarget(options.target.c_str());
  FUZZ_CHECK(target != nullptr, "target %s is not in the registry", options.target.c_str());
  std::vector<const tflm::StackVersion*> versions;
  for (const tflm::StackVersion& v : tflm::StackVersions()) {
    if (v.family == tflm::TargetFamily(*target)) versions.push_back(&v);
  }
  FUZZ_CHECK(!versions.empty(), "target %s has no stack version", options.target.c_str());
  tflm::TflmArenaOptions other = options;
  other.target = options.target + "@" + versions[pick % versions.size()]->name;
  tflm::StackComparison cmp;
  const Status s = tflm::CompareStacks(m, options, other, &cmp);
  if (!s.ok()) {
    // Only a version the target does not have (CMSIS-NN or Ethos-U at a
    // version without them) or a model error.
    FUZZ_CHECK(s.message()[0] != '\0', "CompareStacks: error without a message");
    return;
  }
  FUZZ_CHECK(!cmp.from.refused && cmp.from.arena.min_arena_bytes == single.min_arena_bytes,
             "compare's first side differs from ComputeTflmArenaSize on %s",
             options.target.c_str());
  tflm::TflmArenaSize alone;
  tflm::Refusal refusal;
  const Status a = tflm::ComputeTflmArenaSize(m, other, &alone, &refusal);
  FUZZ_CHECK(a.ok() != cmp.to.refused, "%s: compare %s, ComputeTflmArenaSize %s",
             other.target.c_str(), cmp.to.refused ? "refuses" : "sizes",
             a.ok() ? "sizes" : a.message());
  if (a.ok()) {
    FUZZ_CHECK(cmp.to.arena.min_arena_bytes == alone.min_arena_bytes &&
                   cmp.to.arena.head == alone.head && cmp.to.arena.tail == alone.tail,
               "%s: compare's figures are not ComputeTflmArenaSize's", other.target.c_str());
  }
  for (const tflm::OperatorChange& c : cmp.changes) {
    FUZZ_CHECK(c.subgraph < m.num_subgraphs() && c.op_index < m.num_operators(c.subgraph),
               "a change names operator %zu of subgraph %zu, which does not exist", c.op_index,
               c.subgraph);
    FUZZ_CHECK(c.from.persistent != c.to.persistent || c.from.scratch != c.to.scratch ||
                   c.from.scratch_requests != c.to.scratch_requests,
               "a change lists %s, whose allocations are the same", c.op_name.c_str());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::InputCopy input(data, size);
  model::Model m;
  if (!model::Model::FromBuffer(input.data(), input.size(), &m).ok()) return 0;

  const uint64_t h = fuzz::Hash(data, size);
  const Span<const tflm::BuildTarget> targets = tflm::BuildTargets();
  tflm::TflmArenaOptions options;
  options.target = targets[h % targets.size()].name;
  const uint64_t mode = (h >> 16) % 4;  // target default, recording, plain, linear
  if (mode == 1) options.recording = true;
  if (mode == 2) options.recording = false;
  if (mode == 3) options.planner = "linear";
  // The application's resource variables: the wheel's count most often,
  // none, one, or ESPHome's 20, in this arena or another.
  constexpr int32_t kVariables[] = {-1, -1, 0, 1, 20};
  options.resource_variables = kVariables[(h >> 20) % 5];
  options.resource_variables_in_arena = ((h >> 24) & 1) == 0;

  tflm::TflmArenaSize arena;
  tflm::Refusal refusal;
  const Status s = tflm::ComputeTflmArenaSize(m, options, &arena, &refusal);
  if (std::getenv("FUZZ_TRACE") != nullptr) {
    std::fprintf(stderr, "fuzz_tflm_arena: %s mode %llu: %s %llu\n", options.target.c_str(),
                 static_cast<unsigned long long>(mode), s.ok() ? "min arena" : s.message(),
                 static_cast<unsigned long long>(arena.min_arena_bytes));
  }
  if (!s.ok()) {
    CheckError(s, refusal, m, "ComputeTflmArenaSize");
    // The scratch requests stop at the same place (same kernels, same
    // order), unless the size request itself was contradictory.
    std::vector<model::ScratchRequest> scratch;
    tflm::Refusal r2;
    const Status s2 = tflm::TflmScratchRequests(m, options.target, &scratch, &r2);
    if (!s2.ok()) CheckError(s2, r2, m, "TflmScratchRequests");
    return 0;
  }
  model::OfflinePlanView plan;
  bool present = false;
  FUZZ_CHECK(model::DecodeOfflinePlan(m, &plan, &present).ok(),
             "sized a model whose offline plan does not decode");
  CheckSize(m, options, arena, present);
  if (m.total_tensors() > kMaxCrossCheckTensors) return 0;
  CheckCompare(m, options, arena, h >> 28);
  CheckSplit(m, options, arena);
  CheckShared(m, options, arena);
  return 0;
}
