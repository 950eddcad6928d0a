// Decoding of the "OfflineMemoryAllocation" metadata (TFLM's micro_allocator.cc): a
// plan made ahead of time that pins tensors to fixed arena-head offsets.
//
// Layout: little-endian int32 words [version, num_subgraphs, N,
// offset_0 .. offset_{N-1}], one offset per tensor over ALL subgraphs
// (subgraph 0's tensors first, all subgraphs consumed with one running index, as TFLM's InitializeAllocationInfo does); -1 = let the online planner choose.
//
// We are stricter than TFLM, which only checks N against the total tensor count and ignores words 0 and 1, the buffer's size and the offsets' bounds (micro_allocation_info.cc). Here
// the buffer must be a whole number of words, hold the 3-word header, be
// exactly 4*(3+N) bytes, version must be 0, num_subgraphs must match the
// model, N must equal the total tensor count, every offset must be -1 or
// >= 0, and at most one metadata entry may carry the name. Alignment of the
// offsets is NOT checked here (TFLM does not either): the planner layer
// decides; IsAligned() exposes it.
#ifndef TFLM_ARENA_MODEL_OFFLINE_PLAN_H_
#define TFLM_ARENA_MODEL_OFFLINE_PLAN_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace model {

constexpr char kOfflinePlanMetadataName[] = "OfflineMemoryAllocation";
constexpr size_t kOfflinePlanHeaderWords = 3;
constexpr int32_t kOfflinePlanVersion = 0;
constexpr int32_t kOfflinePlanOnline = -1;  // "plan this tensor online"

// Zero-copy view of a validated plan; reads words with explicit
// little-endian decoding, so the bytes need no particular alignment.
class OfflinePlanView {
 public:
  OfflinePlanView() = default;

  bool empty() const { return bytes_ == nullptr; }  // nothing decoded
  int32_t version() const { return empty() ? 0 : Word(0); }
  int32_t num_subgraphs() const { return empty() ? 0 : Word(1); }
  size_t size() const { return count_; }  // N == model's total tensors
  // Offset of global tensor i (subgraph 0's tensors first); -1 = online,
  // also returned for i >= size().
  int32_t offset(size_t i) const {
    return i < count_ ? Word(kOfflinePlanHeaderWords + i) : kOfflinePlanOnline;
  }
  // True when offset(i) is -1 or a multiple of `alignment` (0 counts as 1).
  bool IsAligned(size_t i, size_t alignment) const;
  // Index of the metadata entry and of the buffer the plan came from
  // (both 0 for DecodeOfflinePlanBytes).
  size_t metadata_index() const { return metadata_index_; }
  uint32_t buffer_index() const { return buffer_index_; }

 private:
  friend Status DecodeOfflinePlanBytes(Span<const uint8_t>, size_t, size_t,
                                       OfflinePlanView*);
  friend Status DecodeOfflinePlan(const Model&, OfflinePlanView*, bool*);
  int32_t Word(size_t w) const;

  const uint8_t* bytes_ = nullptr;
  size_t count_ = 0;
  size_t metadata_index_ = 0;
  uint32_t buffer_index_ = 0;
};

// Finds the metadata named exactly kOfflinePlanMetadataName. No entry:
// OK with *present = false. Entry found and valid: OK, *present = true,
// *out filled. Invalid: kInvalidArgument naming the problem.
Status DecodeOfflinePlan(const Model& model, OfflinePlanView* out,
                         bool* present);

// Same checks on raw metadata bytes, for a model with `num_subgraphs`
// subgraphs and `total_tensors` tensors (used by tests and the writer).
Status DecodeOfflinePlanBytes(Span<const uint8_t> bytes, size_t num_subgraphs,
                              size_t total_tensors, OfflinePlanView* out);

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_OFFLINE_PLAN_H_
