#include "tflm_arena/model/offline_aliases.h"

#include "tflm_arena/core/align.h"

namespace tflm_arena {
namespace model {
namespace {

bool IsFixed(const AllocationEntry& e) {
  return e.needs_allocating && e.offline_offset != kOfflinePlanOnline &&
         e.bytes > 0;
}

int64_t End(const AllocationEntry& e) {
  // bytes fit the planner's int range once the model loaded; align as the
  // planner does so "touching" 16-byte slots count as shared.
  return static_cast<int64_t>(e.offline_offset) +
         static_cast<int64_t>(AlignSizeUp(e.bytes, kArenaAlignment));
}

}  // namespace

Status ForEachOfflineAlias(Span<const AllocationEntry> entries,
                           bool (*visit)(const OfflineAlias&, void*),
                           void* context) {
  uint64_t fixed = 0;
  for (const AllocationEntry& e : entries) fixed += IsFixed(e) ? 1 : 0;
  if (fixed > 1 && fixed * (fixed - 1) / 2 > kMaxAliasChecks) {
    return Status::Error(StatusCode::kUnimplemented,
                         "offline plan: %llu offline-planned tensors are too "
                         "many to check for aliases (limit %llu pairs)",
                         static_cast<unsigned long long>(fixed),
                         static_cast<unsigned long long>(kMaxAliasChecks));
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    const AllocationEntry& x = entries[i];
    if (!IsFixed(x)) continue;
    for (size_t j = i + 1; j < entries.size(); ++j) {
      const AllocationEntry& y = entries[j];
      if (!IsFixed(y)) continue;
      const Step first =
          x.first_created > y.first_created ? x.first_created : y.first_created;
      const Step last = x.last_used < y.last_used ? x.last_used : y.last_used;
      if (first > last) continue;  // never live together
      const int64_t begin = x.offline_offset > y.offline_offset
                                ? x.offline_offset
                                : y.offline_offset;
      const int64_t end = End(x) < End(y) ? End(x) : End(y);
      if (begin >= end) continue;  // disjoint bytes
      OfflineAlias alias;
      alias.a = i;
      alias.b = j;
      alias.overlap_begin = begin;
      alias.overlap_end = end;
      alias.first_common = first;
      alias.last_common = last;
      if (!visit(alias, context)) return Status::Ok();
    }
  }
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena
