#include "tflm_arena/model/offline_aliases.h"

#include "tflm_arena/core/align.h"

namespace tflm_arena {
namespace model {
namespace {

bool IsFixed(const AllocationEntry& e) {
  return e.needs_allocating && e.offline_offset >= 0 && e.bytes > 0;
}

// Bytes the planner gives an entry: aligned up so that "touching" 16-byte
// slots count as shared. bytes <= kMaxTensorBytes, a multiple of 16: no wrap.
size_t Slot(const AllocationEntry& e) { return AlignSizeUp(e.bytes, kArenaAlignment); }

// Both live at some step, and their [offset, offset + slot) ranges
// intersect. Bytes are compared as differences of non-negative offsets:
// nothing wraps and no 64-bit arithmetic runs on 32-bit targets.
bool Aliased(const AllocationEntry& x, const AllocationEntry& y) {
  if (x.first_created > y.last_used || y.first_created > x.last_used) return false;
  const size_t ox = static_cast<size_t>(x.offline_offset);
  const size_t oy = static_cast<size_t>(y.offline_offset);
  return ox >= oy ? ox - oy < Slot(y) : oy - ox < Slot(x);
}

// The pair after (*a, *b) in (a, b) order (start with *a = 0, *b = 0).
bool NextAlias(Span<const AllocationEntry> entries, size_t* a, size_t* b) {
  for (size_t i = *a; i < entries.size(); ++i) {
    if (!IsFixed(entries[i])) continue;
    for (size_t j = i == *a ? *b + 1 : i + 1; j < entries.size(); ++j) {
      if (IsFixed(entries[j]) && Aliased(entries[i], entries[j])) {
        *a = i;
        *b = j;
        return true;
      }
    }
  }
  return false;
}

// Most offline entries whose pairs stay within kMaxAliasChecks, so the
// limit test needs no 64-bit multiply at run time.
constexpr size_t MaxFixedEntries() {
  uint64_t f = 1;
  while ((f + 1) * f / 2 <= kMaxAliasChecks) ++f;
  return static_cast<size_t>(f);
}
constexpr size_t kMaxFixedEntries = MaxFixedEntries();
static_assert(uint64_t{kMaxFixedEntries} * (kMaxFixedEntries - 1) / 2 <= kMaxAliasChecks &&
                  uint64_t{kMaxFixedEntries + 1} * kMaxFixedEntries / 2 > kMaxAliasChecks,
              "kMaxFixedEntries is the largest count within kMaxAliasChecks pairs");

Status CheckAliasWork(Span<const AllocationEntry> entries) {
  size_t fixed = 0;
  for (const AllocationEntry& e : entries) fixed += IsFixed(e) ? 1 : 0;
  if (fixed > kMaxFixedEntries) {
    return Status::Error(StatusCode::kUnimplemented,
                         "offline plan: %llu offline-planned tensors are too "
                         "many to check for aliases (limit %llu pairs)",
                         static_cast<unsigned long long>(fixed),
                         static_cast<unsigned long long>(kMaxAliasChecks));
  }
  return Status::Ok();
}

}  // namespace

OfflineAlias DescribeOfflineAlias(Span<const AllocationEntry> entries, size_t a, size_t b) {
  const AllocationEntry& x = entries[a];
  const AllocationEntry& y = entries[b];
  const int64_t end_x = static_cast<int64_t>(x.offline_offset) + static_cast<int64_t>(Slot(x));
  const int64_t end_y = static_cast<int64_t>(y.offline_offset) + static_cast<int64_t>(Slot(y));
  OfflineAlias alias;
  alias.a = a;
  alias.b = b;
  alias.overlap_begin = x.offline_offset > y.offline_offset ? x.offline_offset : y.offline_offset;
  alias.overlap_end = end_x < end_y ? end_x : end_y;
  alias.first_common = x.first_created > y.first_created ? x.first_created : y.first_created;
  alias.last_common = x.last_used < y.last_used ? x.last_used : y.last_used;
  return alias;
}

Status FindOfflineAlias(Span<const AllocationEntry> entries, bool* found, size_t* a, size_t* b) {
  *found = false;
  TFLM_ARENA_RETURN_IF_ERROR(CheckAliasWork(entries));
  *a = 0;
  *b = 0;
  *found = NextAlias(entries, a, b);
  return Status::Ok();
}

Status ForEachOfflineAlias(Span<const AllocationEntry> entries,
                           bool (*visit)(const OfflineAlias&, void*), void* context) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckAliasWork(entries));
  size_t a = 0;
  size_t b = 0;
  while (NextAlias(entries, &a, &b)) {
    if (!visit(DescribeOfflineAlias(entries, a, b), context)) break;
  }
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena
