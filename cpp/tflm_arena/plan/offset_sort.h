// Internal (host): sorting the fast greedy's (offset << 32 | end) keys by
// offset, the planner's hot loop (a few hundred keys per buffer when many
// buffers are live at once).
//
// An LSD radix sort does it in a few linear passes without std::sort's
// mispredicted compares. Only the offset bits that differ between keys are
// sorted on (plans of 16-byte-aligned buffers share the low 4 bits, and the
// top ones), in as few digits of at most 8 bits as cover them, all counted
// in one pass. Fewer than 64 keys: std::sort.
#ifndef TFLM_ARENA_PLAN_OFFSET_SORT_H_
#define TFLM_ARENA_PLAN_OFFSET_SORT_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace plan_internal {

// Sorts keys[0, count) by their high 32 bits (unsigned); keys
// with equal high halves end in any order. tmp must have room for count
// keys. Returns where the sorted keys are: keys or tmp.
uint64_t* SortByOffset(uint64_t* keys, uint64_t* tmp, size_t count);

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_OFFSET_SORT_H_
