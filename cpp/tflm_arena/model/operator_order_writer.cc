#include "tflm_arena/model/operator_order_writer.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <utility>

#include "tflm_arena/model/flatbuffer_raw.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/offline_aliases.h"
#include "tflm_arena/model/offline_plan.h"
#include "tflm_arena/model/operator_graph.h"
#include "tflm_arena/model/prefix_builder.h"

namespace tflm_arena {
namespace model {
namespace {

// Field ids of the TFLite schema used here.
constexpr size_t kModelFieldCount = 8;  // version .. signature_defs; 0 is a scalar
constexpr size_t kModelSubgraphs = 2, kModelMetadata = 6;
constexpr size_t kSubgraphFieldCount = 6;  // tensors .. name (offsets), debug_metadata_index (int)
constexpr size_t kSubgraphOperators = 3, kSubgraphDebugIndex = 5;
constexpr size_t kMetadataName = 0;

Status Malformed(const char* what) { return MalformedForRewrite(what); }

bool IsPlanEntry(internal::RawReader* r, const uint8_t* model, size_t size, size_t entry) {
  const size_t name = r->FieldTarget(entry, kMetadataName);
  const uint32_t len = name ? r->Read<uint32_t>(name) : 0;
  return name && len == sizeof(kOfflinePlanMetadataName) - 1 && name + 4 + len <= size &&
         std::memcmp(model + name + 4, kOfflinePlanMetadataName, len) == 0;
}

// The prefix + original bytes; see the header.
Status Rewrite(const uint8_t* model, size_t model_size, Span<const int32_t> order, bool drop_plan,
               std::vector<uint8_t>* out) {
  internal::RawReader r(model, model_size);
  Subgraph0Tables t;
  TFLM_ARENA_RETURN_IF_ERROR(OpenSubgraph0(&r, &t));
  const size_t root = t.root, subgraphs = t.subgraphs, sg0 = t.sg0;
  const uint32_t nsub = t.count;
  const size_t ops = r.FieldTarget(sg0, kSubgraphOperators);
  if (r.VectorLength(ops) != order.size()) return Malformed("operator count changed");
  const size_t metadata = r.FieldTarget(root, kModelMetadata);
  std::vector<uint32_t> kept_meta;  // metadata entries of the copy
  for (uint32_t m = 0; m < r.VectorLength(metadata) && r.ok(); ++m) {
    if (!(drop_plan && IsPlanEntry(&r, model, model_size, r.VectorTable(metadata, m))))
      kept_meta.push_back(m);
  }
  if (!r.ok()) return Malformed("offsets point outside the file");

  PrefixBuilder p;
  const size_t root_slot = p.Put<uint32_t>(0);
  p.Put<uint32_t>(0x334C4654);  // "TFL3"
  const uint32_t model_present =
      PresentFields(&r, root, kModelFieldCount) | (1u << kModelSubgraphs);
  size_t model_slots[kModelFieldCount];
  p.Link(root_slot, p.Table(kModelFieldCount, model_slots, model_present));
  const size_t version_field = r.Field(root, 0);
  p.PutAt<uint32_t>(model_slots[0], version_field ? r.Read<uint32_t>(version_field) : 0);

  const size_t sub_slots = p.Vector(nsub);
  p.Link(model_slots[kModelSubgraphs], sub_slots - 4);
  const uint32_t sg_present =
      PresentFields(&r, sg0, kSubgraphFieldCount) | (1u << kSubgraphOperators);
  size_t sg_slots[kSubgraphFieldCount];
  p.Link(sub_slots, p.Table(kSubgraphFieldCount, sg_slots, sg_present));
  const size_t debug_field = r.Field(sg0, kSubgraphDebugIndex);
  if (debug_field) p.PutAt<int32_t>(sg_slots[kSubgraphDebugIndex], r.Read<int32_t>(debug_field));
  const size_t op_slots = p.Vector(order.size());
  p.Link(sg_slots[kSubgraphOperators], op_slots - 4);
  size_t meta_slots = 0;
  if (drop_plan && metadata != 0) {
    meta_slots = p.Vector(kept_meta.size());
    p.Link(model_slots[kModelMetadata], meta_slots - 4);
  }
  p.Align(kPrefixAlignment);

  // Point the remaining slots into the original bytes, shifted by the prefix.
  const size_t shift = p.pos();
  if (model_size > UINT32_MAX - shift) return Malformed("model too large to rewrite");
  for (size_t id = 1; id < kModelFieldCount; ++id) {
    if (id == kModelSubgraphs || (id == kModelMetadata && meta_slots != 0)) continue;
    const size_t target = r.FieldTarget(root, id);
    if (target != 0) p.Link(model_slots[id], shift + target);
  }
  for (uint32_t s = 1; s < nsub; ++s)
    p.Link(sub_slots + size_t{4} * s, shift + r.VectorTable(subgraphs, s));
  for (size_t id = 0; id < kSubgraphDebugIndex; ++id) {
    if (id == kSubgraphOperators) continue;
    const size_t target = r.FieldTarget(sg0, id);
    if (target != 0) p.Link(sg_slots[id], shift + target);
  }
  for (size_t k = 0; k < order.size(); ++k)
    p.Link(op_slots + 4 * k, shift + r.VectorTable(ops, order[k]));
  for (size_t k = 0; meta_slots != 0 && k < kept_meta.size(); ++k) {
    p.Link(meta_slots + 4 * k, shift + r.VectorTable(metadata, kept_meta[k]));
  }
  if (!r.ok()) return Malformed("offsets point outside the file");

  return AppendOriginal(&p, &r, model, model_size, out);
}

// `order` names each operator of subgraph 0 exactly once.
Status CheckPermutation(Span<const int32_t> order, size_t num_operators) {
  if (order.size() != num_operators) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "order has %zu entries, subgraph 0 has %zu operators", order.size(),
                         num_operators);
  }
  std::vector<bool> seen(num_operators, false);
  for (size_t k = 0; k < order.size(); ++k) {
    const int32_t op = order[k];
    if (op < 0 || static_cast<size_t>(op) >= num_operators) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "order[%zu] = %" PRId32 " is not an operator index (0..%zu)", k, op,
                           num_operators - 1);
    }
    if (seen[op]) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "operator %" PRId32 " appears twice in the order", op);
    }
    seen[op] = true;
  }
  return Status::Ok();
}

using EntryPairs = std::vector<std::pair<size_t, size_t>>;

bool CollectAlias(const OfflineAlias& alias, void* pairs) {
  static_cast<EntryPairs*>(pairs)->emplace_back(alias.a, alias.b);
  return true;
}

// Planned-buffer (usage record) index of entry `e`: records are the entries
// that need allocating, in entry order.
size_t RecordIndex(const std::vector<AllocationEntry>& entries, size_t e) {
  size_t index = 0;
  for (size_t i = 0; i < e; ++i) index += entries[i].needs_allocating ? 1 : 0;
  return index;
}

// Lifetimes of `m` (no scratch, offline plan included) and the pairs of
// offline-planned entries that share bytes while both live.
Status AliasedPairs(const Model& m, std::vector<AllocationEntry>* entries, EntryPairs* pairs) {
  entries->resize(AllocationInfoCount(m, 0));
  const Span<AllocationEntry> all(entries->data(), entries->size());
  TFLM_ARENA_RETURN_IF_ERROR(ComputeModelAllocationInfo(m, Span<const ScratchRequest>(), all));
  return ForEachOfflineAlias(all, CollectAlias, pairs);
}

// The offline plan must not make fixed tensors share bytes that the
// original order kept apart. Tensors keep their indices when operators are
// reordered, so the aliased entry pairs of both models compare directly.
Status CheckPlanStillValid(const Model& before, const Model& after) {
  std::vector<AllocationEntry> a, b;
  EntryPairs old_pairs, new_pairs;
  TFLM_ARENA_RETURN_IF_ERROR(AliasedPairs(before, &a, &old_pairs));
  TFLM_ARENA_RETURN_IF_ERROR(AliasedPairs(after, &b, &new_pairs));
  for (const auto& pair : new_pairs) {
    if (std::find(old_pairs.begin(), old_pairs.end(), pair) != old_pairs.end()) continue;
    return Status::Error(
        StatusCode::kInvalidArgument,
        "the model's offline plan is not valid in the new operator order: planned "
        "buffers %zu and %zu would share bytes while both live (drop the plan to reorder)",
        RecordIndex(b, pair.first), RecordIndex(b, pair.second));
  }
  return Status::Ok();
}

}  // namespace

Status WriteOperatorOrder(const uint8_t* model, size_t model_size, Span<const int32_t> order,
                          bool drop_offline_plan, std::vector<uint8_t>* out) {
  Model original;
  TFLM_ARENA_RETURN_IF_ERROR(Model::FromBuffer(model, model_size, &original));
  ReorderGraph graph;  // refuses control flow
  TFLM_ARENA_RETURN_IF_ERROR(BuildOperatorGraph(original, &graph));
  TFLM_ARENA_RETURN_IF_ERROR(CheckPermutation(order, graph.ops.size()));
  OfflinePlanView plan;
  bool has_plan = false;
  TFLM_ARENA_RETURN_IF_ERROR(DecodeOfflinePlan(original, &plan, &has_plan));
  std::vector<uint8_t> bytes;
  TFLM_ARENA_RETURN_IF_ERROR(
      Rewrite(model, model_size, order, drop_offline_plan && has_plan, &bytes));
  Model rewritten;
  Status s = Model::FromBuffer(bytes.data(), bytes.size(), &rewritten);
  if (!s.ok()) {
    return Status::Error(StatusCode::kInternal, "reordered model does not verify: %s", s.message());
  }
  if (has_plan && !drop_offline_plan)
    TFLM_ARENA_RETURN_IF_ERROR(CheckPlanStillValid(original, rewritten));
  *out = std::move(bytes);
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena
