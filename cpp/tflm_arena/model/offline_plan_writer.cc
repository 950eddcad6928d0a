#include "tflm_arena/model/offline_plan_writer.h"

#include <cstring>
#include <string>

#include "tflm_arena/model/flatbuffer_raw.h"
#include "tflm_arena/model/prefix_builder.h"

namespace tflm_arena {
namespace model {
namespace {

// Field ids of the TFLite schema used here.
constexpr size_t kModelFieldCount = 8;  // version .. signature_defs
constexpr size_t kModelSubgraphs = 2, kModelBuffers = 4, kModelMetadata = 6;
constexpr size_t kSubgraphTensors = 0, kTensorBuffer = 2;
constexpr size_t kMetadataName = 0, kMetadataBuffer = 1;

Status Malformed(const char* what) { return MalformedForRewrite(what); }

}  // namespace

Status EncodeOfflinePlan(int32_t num_subgraphs, Span<const int64_t> offsets,
                         std::vector<uint8_t>* words_le) {
  if (offsets.size() > static_cast<size_t>(INT32_MAX) - 3) {
    return Status::Error(StatusCode::kInvalidArgument, "offline plan has too many tensors");
  }
  std::vector<int32_t> words = {0, num_subgraphs, static_cast<int32_t>(offsets.size())};
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (offsets[i] < -1 || offsets[i] > INT32_MAX) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "tensor %zu: offline offset %lld is not -1 or in 0..2^31-1", i,
                           static_cast<long long>(offsets[i]));
    }
    words.push_back(static_cast<int32_t>(offsets[i]));
  }
  words_le->resize(words.size() * 4);
  std::memcpy(words_le->data(), words.data(), words_le->size());
  return Status::Ok();
}

Status WriteOfflinePlanMetadata(const uint8_t* model, size_t model_size,
                                Span<const uint8_t> payload, std::vector<uint8_t>* out) {
  internal::RawReader r(model, model_size);
  if (model_size < 8 || std::memcmp(model + 4, "TFL3", 4) != 0) {
    return Malformed("not a .tflite flatbuffer (identifier TFL3 missing)");
  }
  const size_t root = r.Root();
  if (HasFieldsFrom(&r, root, kModelFieldCount))
    return Malformed("the Model table has fields newer than this tool");
  // Original Model fields: version is a scalar, the rest are offsets.
  const size_t version_field = r.Field(root, 0);
  const uint32_t version = version_field ? r.Read<uint32_t>(version_field) : 0;
  const size_t buffers = r.FieldTarget(root, kModelBuffers);
  const size_t metadata = r.FieldTarget(root, kModelMetadata);
  const uint32_t nbuf = r.VectorLength(buffers), nmeta = r.VectorLength(metadata);

  // Which buffer slots are in use by tensors or by other metadata entries?
  std::vector<bool> referenced(nbuf, false);
  const size_t subgraphs = r.FieldTarget(root, kModelSubgraphs);
  for (uint32_t s = 0; s < r.VectorLength(subgraphs) && r.ok(); ++s) {
    size_t tensors = r.FieldTarget(r.VectorTable(subgraphs, s), kSubgraphTensors);
    for (uint32_t t = 0; t < r.VectorLength(tensors) && r.ok(); ++t) {
      size_t f = r.Field(r.VectorTable(tensors, t), kTensorBuffer);
      uint32_t b = f ? r.Read<uint32_t>(f) : 0;
      if (b < nbuf) referenced[b] = true;
    }
  }
  int64_t replaced_meta = -1;
  uint32_t reuse_buffer = nbuf;  // nbuf = append a new buffer
  for (uint32_t m = 0; m < nmeta && r.ok(); ++m) {
    size_t entry = r.VectorTable(metadata, m);
    size_t name = r.FieldTarget(entry, kMetadataName);
    uint32_t len = name ? r.Read<uint32_t>(name) : 0;
    size_t bf = r.Field(entry, kMetadataBuffer);
    uint32_t b = bf ? r.Read<uint32_t>(bf) : 0;
    bool is_plan = name && len == sizeof(kOfflinePlanMetadataName) - 1 &&
                   name + 4 + len <= model_size &&
                   std::memcmp(model + name + 4, kOfflinePlanMetadataName, len) == 0;
    if (is_plan && replaced_meta < 0) {
      replaced_meta = m;
      if (b > 0 && b < nbuf) reuse_buffer = b;
    } else if (b < nbuf) {
      referenced[b] = true;
    }
  }
  if (!r.ok()) return Malformed("offsets point outside the file");
  if (reuse_buffer < nbuf && referenced[reuse_buffer]) reuse_buffer = nbuf;

  // --- build the prefix (all references point forward) ---
  PrefixBuilder p;
  size_t root_slot = p.Put<uint32_t>(0);
  p.Put<uint32_t>(0x334C4654);  // "TFL3"
  const uint32_t present = PresentFields(&r, root, kModelFieldCount) | (1u << 0) |
                           (1u << kModelBuffers) | (1u << kModelMetadata);
  size_t model_slots[kModelFieldCount];
  size_t model_table = p.Table(kModelFieldCount, model_slots, present);
  p.Link(root_slot, model_table);
  p.PutAt<uint32_t>(model_slots[0], version);

  const uint32_t new_nbuf = reuse_buffer < nbuf ? nbuf : nbuf + 1;
  const uint32_t plan_buffer = reuse_buffer < nbuf ? reuse_buffer : nbuf;
  p.Align(4);
  p.Link(model_slots[kModelBuffers], p.Put<uint32_t>(new_nbuf));
  std::vector<size_t> buf_slots(new_nbuf);
  for (uint32_t i = 0; i < new_nbuf; ++i) buf_slots[i] = p.Put<uint32_t>(0);

  const uint32_t new_nmeta = replaced_meta >= 0 ? nmeta : nmeta + 1;
  const uint32_t plan_meta = replaced_meta >= 0 ? static_cast<uint32_t>(replaced_meta) : nmeta;
  p.Link(model_slots[kModelMetadata], p.Put<uint32_t>(new_nmeta));
  std::vector<size_t> meta_slots(new_nmeta);
  for (uint32_t i = 0; i < new_nmeta; ++i) meta_slots[i] = p.Put<uint32_t>(0);

  size_t md_slots[2];
  p.Link(meta_slots[plan_meta], p.Table(2, md_slots));
  p.PutAt<uint32_t>(md_slots[1], plan_buffer);
  p.Align(4);
  p.Link(md_slots[0], p.Put<uint32_t>(sizeof(kOfflinePlanMetadataName) - 1));
  for (size_t i = 0; i + 1 < sizeof(kOfflinePlanMetadataName); ++i)
    p.Put<char>(kOfflinePlanMetadataName[i]);
  p.Put<uint8_t>(0);

  size_t bt_slots[1];
  p.Link(buf_slots[plan_buffer], p.Table(1, bt_slots));
  while ((p.pos() + 4) % kPrefixAlignment != 0) p.Put<uint8_t>(0);  // data 16-aligned
  p.Link(bt_slots[0], p.Put<uint32_t>(static_cast<uint32_t>(payload.size())));
  for (uint8_t byte : payload) p.Put<uint8_t>(byte);
  p.Align(kPrefixAlignment);

  // Point the remaining slots into the original bytes, shifted by the prefix.
  const size_t shift = p.pos();
  if (model_size > UINT32_MAX - shift) return Malformed("model too large to rewrite");
  for (size_t id = 1; id < kModelFieldCount; ++id) {
    if (id == kModelBuffers || id == kModelMetadata) continue;
    size_t target = r.FieldTarget(root, id);
    if (target != 0) p.Link(model_slots[id], shift + target);
  }
  for (uint32_t i = 0; i < nbuf; ++i) {
    if (i != plan_buffer) p.Link(buf_slots[i], shift + r.VectorTable(buffers, i));
  }
  for (uint32_t i = 0, j = 0; i < nmeta; ++i) {
    if (static_cast<int64_t>(i) == replaced_meta) {
      ++j;
      continue;
    }
    p.Link(meta_slots[j++], shift + r.VectorTable(metadata, i));
  }
  if (!r.ok()) return Malformed("offsets point outside the file");

  return AppendOriginal(&p, &r, model, model_size, out);
}

}  // namespace model
}  // namespace tflm_arena
