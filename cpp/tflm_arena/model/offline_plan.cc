#include "tflm_arena/model/offline_plan.h"

#include <cinttypes>

#include "tflm_arena/model/table_reader.h"  // Load: little-endian words

namespace tflm_arena {
namespace model {
namespace {

#define TFLM_ARENA_INVALID(...)                             \
  ::tflm_arena::Status::Error(                              \
      ::tflm_arena::StatusCode::kInvalidArgument, __VA_ARGS__)

}  // namespace

int32_t OfflinePlanView::Word(size_t w) const {
  return internal::Load<int32_t>(bytes_ + 4 * w);
}

bool OfflinePlanView::IsAligned(size_t i, size_t alignment) const {
  const int32_t o = offset(i);
  if (o == kOfflinePlanOnline || alignment == 0) return true;
  return static_cast<size_t>(o) % alignment == 0;
}

Status DecodeOfflinePlanBytes(Span<const uint8_t> bytes, size_t num_subgraphs,
                              size_t total_tensors, OfflinePlanView* out) {
  *out = OfflinePlanView();
  const size_t n_bytes = bytes.size();
  if (n_bytes % 4 != 0) {
    return TFLM_ARENA_INVALID(
        "offline plan: %zu bytes is not a multiple of 4 (int32 words)",
        n_bytes);
  }
  if (n_bytes < 4 * kOfflinePlanHeaderWords) {
    return TFLM_ARENA_INVALID(
        "offline plan: %zu bytes is shorter than the %zu-byte header "
        "[version, subgraphs, count]",
        n_bytes, 4 * kOfflinePlanHeaderWords);
  }
  const uint8_t* p = bytes.data();
  const int32_t version = internal::Load<int32_t>(p);
  const int32_t subgraphs = internal::Load<int32_t>(p + 4);
  const int32_t count = internal::Load<int32_t>(p + 8);
  if (version != kOfflinePlanVersion) {
    return TFLM_ARENA_INVALID(
                         "offline plan: version %" PRId32
                         " is not supported (expected %" PRId32 ")",
                         version, kOfflinePlanVersion);
  }
  if (subgraphs < 0 || static_cast<size_t>(subgraphs) != num_subgraphs) {
    return TFLM_ARENA_INVALID(
                         "offline plan: header says %" PRId32
                         " subgraphs, the model has %zu",
                         subgraphs, num_subgraphs);
  }
  if (count < 0 || static_cast<size_t>(count) != total_tensors) {
    return TFLM_ARENA_INVALID(
                         "offline plan: header says %" PRId32
                         " offsets, the model has %zu tensors (TFLM: Nbr of "
                         "offline buffer offsets not equal nbr tensors)",
                         count, total_tensors);
  }
  const size_t expected = 4 * (kOfflinePlanHeaderWords + total_tensors);
  if (n_bytes != expected) {
    return TFLM_ARENA_INVALID(
        "offline plan: buffer is %zu bytes, expected %zu (3 header words + "
        "one word per tensor)",
        n_bytes, expected);
  }
  for (size_t i = 0; i < total_tensors; ++i) {
    const int32_t o = internal::Load<int32_t>(p + 4 * (kOfflinePlanHeaderWords + i));
    if (o < kOfflinePlanOnline) {
      return TFLM_ARENA_INVALID(
                           "offline plan: offset of tensor %zu is %" PRId32
                           " (must be -1 or >= 0)",
                           i, o);
    }
  }
  out->bytes_ = p;
  out->count_ = total_tensors;
  return Status::Ok();
}

Status DecodeOfflinePlan(const Model& model, OfflinePlanView* out,
                         bool* present) {
  *out = OfflinePlanView();
  *present = false;
  size_t found = 0;
  size_t index = 0;
  MetadataInfo entry;
  for (size_t i = 0; i < model.num_metadata(); ++i) {
    MetadataInfo m;
    TFLM_ARENA_RETURN_IF_ERROR(model.metadata(i, &m));
    // Same length and same bytes (TFLM's micro_allocator.cc compares the name exactly): a name with an embedded NUL or a
    // longer name does not match.
    if (m.name_length != sizeof(kOfflinePlanMetadataName) - 1) continue;
    size_t same = 0;  // by hand: memcmp would link ~100 bytes on Cortex-M
    while (same < m.name_length && m.name[same] == kOfflinePlanMetadataName[same]) ++same;
    if (same != m.name_length) continue;
    if (++found > 1) {
      return TFLM_ARENA_INVALID(
          "offline plan: metadata entries %zu and %zu are both named "
          "OfflineMemoryAllocation",
          index, i);
    }
    index = i;
    entry = m;
  }
  if (found == 0) return Status::Ok();
  BufferInfo buffer;
  TFLM_ARENA_RETURN_IF_ERROR(model.buffer(entry.buffer, &buffer));
  Status s = DecodeOfflinePlanBytes(buffer.data, model.num_subgraphs(),
                                    model.total_tensors(), out);
  if (!s.ok()) {
    return Status::Error(s.code(), "%s (metadata %zu, buffer %" PRIu32 ")",
                         s.message(), index, entry.buffer);
  }
  out->metadata_index_ = index;
  out->buffer_index_ = entry.buffer;
  *present = true;
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena
