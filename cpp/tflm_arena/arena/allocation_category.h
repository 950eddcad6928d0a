// Categories for persistent (tail) allocations, as TFLM's recording allocator
// reports them (facts R-5..R-13, in TFLM's order). They live apart from the
// recorder so SingleArenaAllocator can take a category without depending on
// the recording code.
#ifndef TFLM_ARENA_ARENA_ALLOCATION_CATEGORY_H_
#define TFLM_ARENA_ARENA_ALLOCATION_CATEGORY_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {

enum class AllocationCategory : uint8_t {
  kEvalTensorData = 0,          // per-subgraph TfLiteEvalTensor arrays
  kPersistentTensorData,        // persistent TfLiteTensor structs
  kPersistentQuantizationData,  // their quantization structs
  kPersistentBufferData,        // AllocatePersistentBuffer calls
  kVariableBufferData,          // online variable tensor buffers
  kNodeAndRegistration,         // NodeAndRegistration arrays
  kOpData,                      // kernel op data; TFLM never fills it
  kCompressionData,             // compression bookkeeping
  // Not a TFLM category: everything TFLM leaves unattributed, e.g.
  // builtin option structs, subgraph tables, scratch handles. Recorded so that
  // every tail byte has a home, but never printed (TFLM prints no such line).
  kOther,
  kCount,  // number of categories, not a category
};

constexpr size_t kAllocationCategoryCount =
    static_cast<size_t>(AllocationCategory::kCount);

// TFLM's display name, e.g. "TfLiteEvalTensor data"; "unknown" if invalid.
const char* AllocationCategoryName(AllocationCategory category);
// TFLM's count noun, e.g. "allocations", "tensors", "OpData structs".
const char* AllocationCategoryNoun(AllocationCategory category);

// What one category accumulated (TFLM's RecordedAllocation).
struct RecordedAllocation {
  size_t requested_bytes = 0;  // sum of the sizes asked for
  size_t used_bytes = 0;       // tail pointer movement, alignment padding included
  size_t count = 0;            // items (allocations, tensors, structs)
};

}  // namespace tflm_arena

#endif  // TFLM_ARENA_ARENA_ALLOCATION_CATEGORY_H_
