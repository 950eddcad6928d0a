// Writes an OfflineMemoryAllocation plan into a COPY of a .tflite model.
//
// How: flatbuffer offsets only point forward, so instead of re-serialising the
// model (which would drop fields our schema subset does not know), we build a
// new root Model table, new `buffers` and `metadata` vectors and the plan's
// Buffer/Metadata entries in a prefix, and append the original bytes after it
// unchanged. The new Model table points at the original subgraphs, operator
// codes, description and signature defs; the new vectors point at the original
// Buffer/Metadata tables. Every original byte keeps its meaning; only the
// absolute `Buffer.offset` fields of large models (data stored after the
// flatbuffer) are shifted by the prefix length.
//
// Host tool: uses the standard library. The input must already have been
// verified (model::Model::FromBuffer); the output is re-verified by callers.
#ifndef TFLM_ARENA_MODEL_OFFLINE_PLAN_WRITER_H_
#define TFLM_ARENA_MODEL_OFFLINE_PLAN_WRITER_H_

#include <cstdint>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/offline_plan.h"

namespace tflm_arena {
namespace model {

// Encodes TFLM's metadata words: [version 0, num_subgraphs, N, offsets...].
// Offsets are per tensor over all subgraphs (subgraph 0 first); -1 = online.
// Rejects offsets < -1 or > INT32_MAX.
Status EncodeOfflinePlan(int32_t num_subgraphs, Span<const int64_t> offsets,
                         std::vector<uint8_t>* words_le);

// Returns in `out` a copy of `model` whose metadata entry
// OfflineMemoryAllocation holds `payload` (little-endian int32 words). An
// existing entry of that name is replaced (its buffer slot is reused when no
// tensor or other metadata entry refers to it); otherwise one is added.
Status WriteOfflinePlanMetadata(const uint8_t* model, size_t model_size,
                                Span<const uint8_t> payload, std::vector<uint8_t>* out);

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_OFFLINE_PLAN_WRITER_H_
