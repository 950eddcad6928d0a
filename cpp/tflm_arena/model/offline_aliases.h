// Offline-plan aliases: two offline-planned tensors that share arena bytes
// while both are live.
//
// TFLM accepts any offline plan with the right count, and NPU compilers
// alias on purpose (Vela puts the output, both scratch areas and the input
// of its one custom operator at offset 0: the NPU works inside its scratch).
// So reading, inspecting and re-writing a plan report aliases instead of
// refusing them; only a runtime that would run kernels on aliased tensors
// (our Interpreter) refuses, because one kernel's writes would corrupt a
// tensor another still reads. Every consumer finds aliases through this one
// function.
//
// Runtime code: no heap. Pairs are tested directly (O(F^2) for F offline
// entries, sizes aligned up to 16 as the planner sees them), bounded by
// kMaxAliasChecks so a crafted model cannot stall loading.
#ifndef TFLM_ARENA_MODEL_OFFLINE_ALIASES_H_
#define TFLM_ARENA_MODEL_OFFLINE_ALIASES_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/lifetimes.h"

namespace tflm_arena {
namespace model {

constexpr uint64_t kMaxAliasChecks = uint64_t{1} << 28;

struct OfflineAlias {
  size_t a = 0;  // entry indices, a < b
  size_t b = 0;
  int64_t overlap_begin = 0;  // shared head bytes [begin, end)
  int64_t overlap_end = 0;
  Step first_common = 0;  // steps at which both are live
  Step last_common = 0;
};

// Calls `visit(alias, context)` for every aliased pair among the entries
// that need allocating and carry an offline offset, in (a, b) order; a
// visit returning false stops the search. kUnimplemented when more than
// kMaxAliasChecks pairs would have to be compared.
Status ForEachOfflineAlias(Span<const AllocationEntry> entries,
                           bool (*visit)(const OfflineAlias& alias, void* context), void* context);

// The first aliased pair (the first ForEachOfflineAlias would visit): *found
// and its entry indices *a < *b; the same kUnimplemented limit. For the
// runtime, which only needs to know whether one exists (less flash).
Status FindOfflineAlias(Span<const AllocationEntry> entries, bool* found, size_t* a, size_t* b);
// The shared bytes and steps of the aliased pair (a, b).
OfflineAlias DescribeOfflineAlias(Span<const AllocationEntry> entries, size_t a, size_t b);

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_OFFLINE_ALIASES_H_
