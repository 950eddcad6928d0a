// Internal: finds two buffers that are live at a common step and share bytes.
//
// Sweep over time instead of testing all pairs: buffers enter in order of
// first_step and leave once a later buffer starts after their last_step, so
// exactly the buffers live at the newcomer's first step are "active". Any two
// buffers whose lifetimes intersect meet this way (the later starter enters
// while the other is active). Active buffers are kept in a set ordered by
// offset; while no overlap has been found they are disjoint, so the newcomer
// overlaps one of them iff it overlaps its neighbour below or above.
// Zero-size buffers hold no bytes and are skipped. O(n log n); the set's
// nodes come from a pool, and enter/leave orders are sorted packed keys.
#ifndef TFLM_ARENA_PLAN_OVERLAP_SWEEP_H_
#define TFLM_ARENA_PLAN_OVERLAP_SWEEP_H_

#include <cstddef>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/core/usage_record.h"

namespace tflm_arena {
namespace plan_internal {

// Looks only at records[ids[k]], placed at offsets[ids[k]] (offsets has one
// entry per record). Records must pass CheckRecord. On an overlap returns
// kInvalidArgument "<what> <a> and <b> overlap: ..." with a < b, describing
// both buffers; `what` is e.g. "buffers" or "fixed buffers".
Status FindMemoryOverlap(Span<const UsageRecord> records, Span<const ByteOffset> offsets,
                         const std::vector<size_t>& ids, const char* what);

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_OVERLAP_SWEEP_H_
