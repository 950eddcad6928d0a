#include "tflm_arena/core/allocation_category.h"

namespace tflm_arena {
namespace {

struct CategoryText {
  const char* name;  // as TFLM prints it
  const char* noun;  // TFLM's count noun
  const char* key;   // our dict key
};

// Indexed by AllocationCategory. Names and nouns are the strings TFLM's
// RecordingMicroAllocator prints (TFLM's recording_micro_allocator.cc,
// PrintRecordedAllocation calls), so figures can be compared by name; the
// kOther row is ours.
constexpr CategoryText kCategoryText[kAllocationCategoryCount] = {
    {"TfLiteEvalTensor data", "allocations", "eval_tensor_data"},
    {"Persistent TfLiteTensor data", "tensors", "persistent_tflite_tensor_data"},
    {"Persistent TfLiteTensor quantization data", "allocations",
     "persistent_tflite_tensor_quantization_data"},
    {"Persistent buffer data", "allocations", "persistent_buffer_data"},
    {"TfLiteTensor variable buffer data", "allocations", "tflite_tensor_variable_buffer_data"},
    {"NodeAndRegistration struct", "NodeAndRegistration structs", "node_and_registration_array"},
    {"Operator runtime data", "OpData structs", "op_data"},
    {"Persistent compression data", "allocations", "compression_data"},
    {"Other persistent data", "allocations", "other"},
};

const CategoryText* Text(AllocationCategory category) {
  const size_t i = static_cast<size_t>(category);
  return i < kAllocationCategoryCount ? &kCategoryText[i] : nullptr;
}

}  // namespace

const char* AllocationCategoryName(AllocationCategory category) {
  const CategoryText* t = Text(category);
  return t != nullptr ? t->name : "unknown";
}

const char* AllocationCategoryNoun(AllocationCategory category) {
  const CategoryText* t = Text(category);
  return t != nullptr ? t->noun : "unknown";
}

const char* AllocationCategoryKey(AllocationCategory category) {
  const CategoryText* t = Text(category);
  return t != nullptr ? t->key : "unknown";
}

}  // namespace tflm_arena
