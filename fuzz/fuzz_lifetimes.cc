// Tensor lifetimes and the planner input derived from them:
// ComputeAllocationInfo (no offline plan), ComputeModelAllocationInfo (the
// model's own plan; must equal decoding the plan and passing it in),
// BuildUsageRecords, and TFLM's greedy plan over the records.
//
// Input: a .tflite model. Its last byte also picks up to 7 scratch requests
// from the bytes before it (trailing bytes do not disturb a flatbuffer, so
// models stay valid seeds).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_model_util.h"
#include "fuzz_util.h"
#include "tflm_arena/core/align.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/offline_plan.h"
#include "tflm_arena/plan/plan.h"

namespace {

using tflm_arena::Span;
using tflm_arena::Status;
using tflm_arena::UsageRecord;
namespace model = tflm_arena::model;

constexpr size_t kMaxEntries = size_t{1} << 18;
constexpr size_t kMaxPlannedRecords = 4096;  // the greedy cross-check is O(n^2)

std::vector<model::ScratchRequest> ScratchFromTail(const uint8_t* data, size_t size) {
  std::vector<model::ScratchRequest> out;
  if (size < 2) return out;
  const size_t n = data[size - 1] % 8;
  if (size < 1 + 6 * n) return out;
  const uint8_t* p = data + size - 1 - 6 * n;
  for (size_t i = 0; i < n; ++i, p += 6) {
    model::ScratchRequest r;
    r.bytes = (size_t{p[0]} | size_t{p[1]} << 8 | size_t{p[2]} << 16) * (p[3] & 1 ? 1 : 16);
    r.node_idx = static_cast<int8_t>(p[4]);  // may be out of range on purpose
    r.subgraph_idx = static_cast<int8_t>(p[5]) % 4;
    out.push_back(r);
  }
  return out;
}

bool SameEntry(const model::AllocationEntry& a, const model::AllocationEntry& b) {
  return a.bytes == b.bytes && a.first_created == b.first_created && a.last_used == b.last_used &&
         a.offline_offset == b.offline_offset && a.needs_allocating == b.needs_allocating &&
         a.is_scratch == b.is_scratch && a.subgraph == b.subgraph && a.index == b.index;
}

void CheckEntries(const model::Model& m, const std::vector<model::ScratchRequest>& scratch,
                  const std::vector<model::AllocationEntry>& entries) {
  const size_t tensors = m.total_tensors();
  size_t global = 0;
  for (size_t sg = 0; sg < m.num_subgraphs(); ++sg) {
    for (size_t t = 0; t < m.num_tensors(sg); ++t, ++global) {
      const model::AllocationEntry& e = entries[global];
      FUZZ_CHECK(!e.is_scratch && e.subgraph == sg && e.index == t,
                 "entry %zu names (%u, %u), expected tensor (%zu, %zu)", global, e.subgraph,
                 e.index, sg, t);
      size_t bytes = 0;
      if (m.tensor_bytes(sg, t, &bytes).ok()) {
        FUZZ_CHECK(e.bytes == bytes, "entry %zu: %zu bytes, tensor has %zu", global, e.bytes,
                   bytes);
      }
      if (e.needs_allocating) {
        FUZZ_CHECK(e.first_created <= e.last_used, "entry %zu: lifetime [%d, %d]", global,
                   e.first_created, e.last_used);
      }
      FUZZ_CHECK(e.first_created >= -1 && e.last_used >= -1, "entry %zu: lifetime below -1",
                 global);
      FUZZ_CHECK(e.offline_offset >= -1, "entry %zu: offline offset %d", global, e.offline_offset);
    }
  }
  for (size_t i = 0; i < scratch.size(); ++i) {
    const model::AllocationEntry& e = entries[tensors + i];
    FUZZ_CHECK(e.is_scratch && e.needs_allocating && e.offline_offset == -1, "scratch entry %zu",
               i);
    FUZZ_CHECK(e.bytes == scratch[i].bytes, "scratch entry %zu bytes", i);
    FUZZ_CHECK(e.first_created <= e.last_used, "scratch %zu: lifetime [%d, %d]", i, e.first_created,
               e.last_used);
  }
}

void PlanRecords(const std::vector<model::AllocationEntry>& entries) {
  std::vector<UsageRecord> records;
  std::vector<uint32_t> to_entry;
  fuzz::Records(entries, &records, &to_entry);
  const size_t count = records.size();
  for (size_t k = 0; k < count; ++k) {
    const model::AllocationEntry& e = entries[to_entry[k]];
    FUZZ_CHECK(e.needs_allocating, "record %zu maps to an unplanned entry", k);
    FUZZ_CHECK(k == 0 || to_entry[k] > to_entry[k - 1], "records out of entry order");
    FUZZ_CHECK(records[k].size == static_cast<int64_t>(tflm_arena::AlignSizeUp(e.bytes, 16)),
               "record %zu size", k);
    FUZZ_CHECK(records[k].first_step == e.first_created && records[k].last_step == e.last_used,
               "record %zu lifetime", k);
  }
  if (count > kMaxPlannedRecords) return;
  Span<const UsageRecord> recs(records.data(), count);
  tflm_arena::PlanResult plan;
  if (!tflm_arena::PlanTflmGreedy(recs, &plan).ok()) return;
  if (!tflm_arena::ValidateRecords(recs).ok()) return;
  const Status s = tflm_arena::ValidatePlan(recs, plan.offsets, plan.arena_bytes);
  FUZZ_CHECK(s.ok(), "greedy plan of model records invalid: %s", s.message());
  if (!tflm_arena::FixedAliases(recs).empty()) return;  // aliased offline offsets
  FUZZ_CHECK(plan.arena_bytes >= tflm_arena::LowerBound(recs), "plan below the lower bound");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::InputCopy input(data, size);
  model::Model m;
  if (!model::Model::FromBuffer(input.data(), input.size(), &m).ok()) return 0;
  std::vector<model::ScratchRequest> scratch = ScratchFromTail(data, size);
  const size_t n = model::AllocationInfoCount(m, scratch.size());
  if (n > kMaxEntries) return 0;
  Span<const model::ScratchRequest> req(scratch.data(), scratch.size());

  std::vector<model::AllocationEntry> plain(n);
  Status s = model::ComputeAllocationInfo(m, req, nullptr, Span<model::AllocationEntry>(plain));
  if (s.ok()) {
    CheckEntries(m, scratch, plain);
    PlanRecords(plain);
  } else {
    FUZZ_CHECK(s.message()[0] != '\0', "error without a message");
  }

  std::vector<model::AllocationEntry> with_plan(n);
  Status s2 = model::ComputeModelAllocationInfo(m, req, Span<model::AllocationEntry>(with_plan));
  model::OfflinePlanView plan;
  bool present = false;
  Status d = model::DecodeOfflinePlan(m, &plan, &present);
  if (!d.ok()) {
    FUZZ_CHECK(!s2.ok(), "lifetimes accepted a model whose offline plan is invalid: %s",
               d.message());
    return 0;
  }
  std::vector<model::AllocationEntry> explicit_plan(n);
  Status s3 = model::ComputeAllocationInfo(m, req, present ? &plan : nullptr,
                                           Span<model::AllocationEntry>(explicit_plan));
  FUZZ_CHECK(s2.ok() == s3.ok(), "model plan: %s / explicit plan: %s", s2.message(), s3.message());
  if (!s2.ok()) return 0;
  for (size_t i = 0; i < n; ++i) {
    FUZZ_CHECK(SameEntry(with_plan[i], explicit_plan[i]), "entry %zu differs", i);
  }
  if (!present) {
    FUZZ_CHECK(s.ok(), "no plan, yet only the plain call failed: %s", s.message());
    for (size_t i = 0; i < n; ++i) FUZZ_CHECK(SameEntry(with_plan[i], plain[i]), "entry %zu", i);
  }
  CheckEntries(m, scratch, with_plan);
  PlanRecords(with_plan);
  return 0;
}
