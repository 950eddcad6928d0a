#include "tflm_arena/model/schema_enums.h"

#include "tflm_arena/core/enum_names.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/tflite_subset_generated.h"

namespace tflm_arena {
namespace model {
namespace {

namespace fb = ::tflm_arena::tflite;

// A generated enum: flatc writes its names as a dense array from MIN to MAX.
template <typename E>
int32_t GeneratedSize() {
  static_assert(static_cast<int>(E::MIN) == 0, "schema enum does not start at 0");
  return static_cast<int32_t>(E::MAX) + 1;
}

}  // namespace

const char* SchemaEnumName(SchemaEnum e) {
  static constexpr EnumName<SchemaEnum> kNames[] = {
      {SchemaEnum::kTensorType, "TensorType"},
      {SchemaEnum::kPadding, "Padding"},
      {SchemaEnum::kActivationFunctionType, "ActivationFunctionType"},
      {SchemaEnum::kFullyConnectedOptionsWeightsFormat, "FullyConnectedOptionsWeightsFormat"},
      {SchemaEnum::kBuiltinOperator, "BuiltinOperator"},
      {SchemaEnum::kBuiltinOptions, "BuiltinOptions"},
  };
  return NameOf(kNames, e, "");
}

int32_t SchemaEnumSize(SchemaEnum e) {
  switch (e) {
    case SchemaEnum::kTensorType:
      return GeneratedSize<fb::TensorType>();
    case SchemaEnum::kPadding:
      return GeneratedSize<fb::Padding>();
    case SchemaEnum::kActivationFunctionType:
      return GeneratedSize<fb::ActivationFunctionType>();
    case SchemaEnum::kFullyConnectedOptionsWeightsFormat:
      return GeneratedSize<fb::FullyConnectedOptionsWeightsFormat>();
    case SchemaEnum::kBuiltinOperator:
      return kNumNamedBuiltinCodes;
    case SchemaEnum::kBuiltinOptions:
      return kNumOptionsTypes;
  }
  return 0;
}

const char* SchemaEnumValueName(SchemaEnum e, int32_t value) {
  if (value < 0 || value >= SchemaEnumSize(e)) return nullptr;
  switch (e) {
    case SchemaEnum::kTensorType:
      return fb::EnumNamesTensorType()[value];
    case SchemaEnum::kPadding:
      return fb::EnumNamesPadding()[value];
    case SchemaEnum::kActivationFunctionType:
      return fb::EnumNamesActivationFunctionType()[value];
    case SchemaEnum::kFullyConnectedOptionsWeightsFormat:
      return fb::EnumNamesFullyConnectedOptionsWeightsFormat()[value];
    case SchemaEnum::kBuiltinOperator:
      return BuiltinCodeName(value);
    case SchemaEnum::kBuiltinOptions:
      return OptionsTypeName(static_cast<OptionsType>(value));
  }
  return nullptr;
}

}  // namespace model
}  // namespace tflm_arena
