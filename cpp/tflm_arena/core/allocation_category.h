// The one list of persistent (tail) allocation categories, shared by our
// runtime's recording allocator (arena/) and the model of stock TFLM (tflm/),
// and bound to Python (_core.recording_categories). The first eight are TFLM's
// RecordingMicroAllocator categories (TFLM's recording_micro_allocator.h,
// RecordedAllocationType) in the order TFLM prints them; see
// docs/tflm_behaviour.md, section "Recording allocator categories", for what
// each one holds. It lives in core because both arena/ and tflm/ use it and
// neither depends on the other.
#ifndef TFLM_ARENA_CORE_ALLOCATION_CATEGORY_H_
#define TFLM_ARENA_CORE_ALLOCATION_CATEGORY_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {

enum class AllocationCategory : uint8_t {
  kEvalTensorData = 0,          // per-subgraph TfLiteEvalTensor arrays
  kPersistentTensorData,        // persistent TfLiteTensor structs
  kPersistentQuantizationData,  // their quantization structs and zero points
  kPersistentBufferData,        // AllocatePersistentBuffer calls
  kVariableBufferData,          // online variable tensor buffers
  kNodeAndRegistration,         // NodeAndRegistration arrays
  kOpData,                      // kernel op data; TFLM never fills it
  kCompressionData,             // compression bookkeeping
  // Not a TFLM category: tail bytes TFLM attributes to none (allocator and
  // planner objects, builtin option structs, subgraph tables, scratch
  // handles). Recorded so that every tail byte has a home, never printed
  // (TFLM prints no such line).
  kOther,
  kCount,  // number of categories, not a category
};

// All categories, kOther included.
constexpr size_t kAllocationCategoryCount = static_cast<size_t>(AllocationCategory::kCount);
// TFLM's own categories: the first ones, kOther excluded.
constexpr size_t kRecordedCategoryCount = static_cast<size_t>(AllocationCategory::kOther);

// TFLM's display name, e.g. "TfLiteEvalTensor data"; "unknown" if invalid.
const char* AllocationCategoryName(AllocationCategory category);
// TFLM's count noun, e.g. "allocations", "tensors", "OpData structs".
const char* AllocationCategoryNoun(AllocationCategory category);
// Stable snake_case key for dicts, e.g. "eval_tensor_data"; "unknown" if
// invalid.
const char* AllocationCategoryKey(AllocationCategory category);

}  // namespace tflm_arena

#endif  // TFLM_ARENA_CORE_ALLOCATION_CATEGORY_H_
