// Helpers of the harnesses whose input is a model: span equality, and the
// usage records of a model's allocation entries (checked to build).
#ifndef TFLM_ARENA_FUZZ_FUZZ_MODEL_UTIL_H_
#define TFLM_ARENA_FUZZ_FUZZ_MODEL_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_util.h"
#include "tflm_arena/core/span.h"
#include "tflm_arena/core/usage_record.h"
#include "tflm_arena/model/lifetimes.h"

namespace fuzz {

inline bool SameSpan(tflm_arena::Span<const int32_t> a, tflm_arena::Span<const int32_t> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// BuildUsageRecords over `entries` (must succeed and give one record per
// planned buffer); to_entry[k] is record k's entry.
inline void Records(const std::vector<tflm_arena::model::AllocationEntry>& entries,
                    std::vector<tflm_arena::UsageRecord>* records,
                    std::vector<uint32_t>* to_entry) {
  const size_t planned = tflm_arena::model::PlannedBufferCount(entries);
  records->assign(planned, tflm_arena::UsageRecord());
  to_entry->assign(planned, 0);
  size_t count = 0;
  const tflm_arena::Status s = tflm_arena::model::BuildUsageRecords(
      entries, tflm_arena::Span<tflm_arena::UsageRecord>(*records),
      tflm_arena::Span<uint32_t>(*to_entry), &count);
  FUZZ_CHECK(s.ok(), "BuildUsageRecords: %s", s.message());
  FUZZ_CHECK(count == planned, "%zu records for %zu planned buffers", count, planned);
}

}  // namespace fuzz

#endif  // TFLM_ARENA_FUZZ_FUZZ_MODEL_UTIL_H_
