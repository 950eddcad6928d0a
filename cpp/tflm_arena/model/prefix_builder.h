// The byte prefix the model writers build (offline_plan_writer.cc,
// operator_order_writer.cc, graph_edit_writer.cc): new root tables written
// before the original flatbuffer, which is appended unchanged. Flatbuffer uoffsets only point
// forward, so tables here may point at anything after them, including the
// original bytes. Little-endian, host code.
#ifndef TFLM_ARENA_MODEL_PREFIX_BUILDER_H_
#define TFLM_ARENA_MODEL_PREFIX_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/flatbuffer_raw.h"

namespace tflm_arena {
namespace model {

class PrefixBuilder {
 public:
  size_t pos() const { return bytes_.size(); }
  void Align(size_t a) { bytes_.resize((bytes_.size() + a - 1) / a * a, 0); }
  template <typename T>
  size_t Put(T v) {
    const size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &v, sizeof(T));
    return at;
  }
  template <typename T>
  void PutAt(size_t at, T v) {
    std::memcpy(bytes_.data() + at, &v, sizeof(T));
  }
  // The uoffset stored at `slot` now points to `target` (target > slot).
  void Link(size_t slot, size_t target) {
    PutAt<uint32_t>(slot, static_cast<uint32_t>(target - slot));
  }
  // Writes a vtable + table of 4-byte fields; returns the table and the slot
  // of each field in `slots`. Fields whose bit in `present` is clear are
  // marked absent in the vtable (their slot is still written, as padding).
  size_t Table(size_t nfields, size_t* slots, uint32_t present = ~0u) {
    Align(4);
    const size_t vt = Put<uint16_t>(static_cast<uint16_t>(4 + 2 * nfields));
    Put<uint16_t>(static_cast<uint16_t>(4 + 4 * nfields));
    for (size_t i = 0; i < nfields; ++i) {
      Put<uint16_t>((present >> i) & 1u ? static_cast<uint16_t>(4 + 4 * i) : 0);
    }
    Align(4);
    const size_t table = Put<int32_t>(static_cast<int32_t>(pos() - vt));
    for (size_t i = 0; i < nfields; ++i) slots[i] = Put<uint32_t>(0);
    return table;
  }
  // A vector of `n` uoffsets (all 0 until linked); returns the slot of element 0.
  size_t Vector(size_t n) {
    Align(4);
    Put<uint32_t>(static_cast<uint32_t>(n));
    const size_t first = pos();
    for (size_t i = 0; i < n; ++i) Put<uint32_t>(0);
    return first;
  }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

inline Status MalformedForRewrite(const char* what) {
  return Status::Error(StatusCode::kInvalidArgument, "cannot rewrite model: %s", what);
}

// Bit `id` set for each present field of `table` among ids 0..nfields-1
// (nfields <= 32).
inline uint32_t PresentFields(internal::RawReader* r, size_t table, size_t nfields) {
  uint32_t bits = 0;
  for (size_t id = 0; id < nfields; ++id) {
    if (r->Field(table, id) != 0) bits |= 1u << id;
  }
  return bits;
}

// True when `table` has a present field with id >= `known` (written by a
// newer schema than the writers know: a new table would drop it).
inline bool HasFieldsFrom(internal::RawReader* r, size_t table, size_t known) {
  for (size_t id = known; id < r->FieldCount(table); ++id) {
    if (r->Field(table, id) != 0) return true;
  }
  return false;
}

// The root Model table and subgraph 0 of the model `r` reads, for a writer
// that builds a new subgraph 0: at least one subgraph, and neither table
// carries a field newer than the writers know (a new table would drop it).
struct Subgraph0Tables {
  size_t root = 0;
  size_t subgraphs = 0;  // the subgraphs vector
  uint32_t count = 0;    // its length, >= 1
  size_t sg0 = 0;
};
inline Status OpenSubgraph0(internal::RawReader* r, Subgraph0Tables* out) {
  // Schema: Model has 8 fields (version .. signature_defs), subgraphs is
  // field 2; SubGraph has 6 (tensors .. name, debug_metadata_index).
  constexpr size_t kModelFieldCount = 8, kModelSubgraphs = 2, kSubgraphFieldCount = 6;
  out->root = r->Root();
  if (HasFieldsFrom(r, out->root, kModelFieldCount))
    return MalformedForRewrite("the Model table has fields newer than this tool");
  out->subgraphs = r->FieldTarget(out->root, kModelSubgraphs);
  out->count = r->VectorLength(out->subgraphs);
  if (out->count == 0) return MalformedForRewrite("no subgraphs");
  out->sg0 = r->VectorTable(out->subgraphs, 0);
  if (HasFieldsFrom(r, out->sg0, kSubgraphFieldCount))
    return MalformedForRewrite("the SubGraph table has fields newer than this tool");
  return Status::Ok();
}

// Alignment of the prefix's end: Buffer.data is force_align 16, so the
// original bytes must keep their position modulo 16.
constexpr size_t kPrefixAlignment = 16;

// Appends the original model after the prefix `p` (already aligned to
// kPrefixAlignment; its length is the shift) and moves `out` the result.
// Data stored after the flatbuffer is addressed from the file start, so
// every absolute Buffer.offset (> 1; 1 is a "not set" marker some writers
// use) grows by the prefix length.
inline Status AppendOriginal(PrefixBuilder* p, internal::RawReader* r, const uint8_t* model,
                             size_t model_size, std::vector<uint8_t>* out) {
  constexpr size_t kModelBuffers = 4, kBufferOffset = 1;  // schema field ids
  const size_t shift = p->pos();
  std::vector<uint8_t>& bytes = p->bytes();
  bytes.insert(bytes.end(), model, model + model_size);
  const size_t buffers = r->FieldTarget(r->Root(), kModelBuffers);
  for (uint32_t i = 0; i < r->VectorLength(buffers) && r->ok(); ++i) {
    const size_t f = r->Field(r->VectorTable(buffers, i), kBufferOffset);
    const uint64_t off = f ? r->Read<uint64_t>(f) : 0;
    if (off > 1 && r->ok()) {
      const uint64_t moved = off + shift;
      std::memcpy(bytes.data() + shift + f, &moved, sizeof(moved));
    }
  }
  if (!r->ok()) return MalformedForRewrite("offsets point outside the file");
  *out = std::move(bytes);
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_PREFIX_BUILDER_H_
