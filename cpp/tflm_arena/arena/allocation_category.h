// What our runtime's recording allocator accumulates per allocation
// category. The category list itself (names as TFLM prints them, nouns,
// dict keys) is shared with the model of stock TFLM and lives in
// core/allocation_category.h.
#ifndef TFLM_ARENA_ARENA_ALLOCATION_CATEGORY_H_
#define TFLM_ARENA_ARENA_ALLOCATION_CATEGORY_H_

#include <cstddef>

#include "tflm_arena/core/allocation_category.h"

namespace tflm_arena {

// What one category accumulated (TFLM's RecordedAllocation).
struct RecordedAllocation {
  size_t requested_bytes = 0;  // sum of the sizes asked for
  size_t used_bytes = 0;       // tail pointer movement, alignment padding included
  size_t count = 0;            // items (allocations, tensors, structs)
};

}  // namespace tflm_arena

#endif  // TFLM_ARENA_ARENA_ALLOCATION_CATEGORY_H_
