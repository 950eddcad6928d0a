// The format's enums as (name, value) tables, for tools and the Python
// package: one source for every list of names outside the runtime. The
// tables come from tflite_subset.fbs through flatc (TensorType, Padding,
// ActivationFunctionType, FullyConnectedOptionsWeightsFormat) and from
// builtin_op_list.h / builtin_options_list.h (BuiltinOperator,
// BuiltinOptions). Every one of these enums is dense: its values are
// 0 .. size-1.
#ifndef TFLM_ARENA_MODEL_SCHEMA_ENUMS_H_
#define TFLM_ARENA_MODEL_SCHEMA_ENUMS_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace model {

enum class SchemaEnum : uint8_t {
  kTensorType,
  kPadding,
  kActivationFunctionType,
  kFullyConnectedOptionsWeightsFormat,
  kBuiltinOperator,
  kBuiltinOptions,
};
constexpr size_t kNumSchemaEnums = 6;

// The enum's name in the schema ("TensorType", "BuiltinOperator", ...).
const char* SchemaEnumName(SchemaEnum e);

// Number of values (the values are 0 .. size-1).
int32_t SchemaEnumSize(SchemaEnum e);

// Schema name of `value` ("INT8", "CONV_2D", "Conv2DOptions"); nullptr
// outside 0 .. size-1.
const char* SchemaEnumValueName(SchemaEnum e, int32_t value);

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_SCHEMA_ENUMS_H_
