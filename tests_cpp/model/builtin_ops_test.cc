// Name tables and element sizes: facts of the format and of TFLM (memory_helpers.cc).
#include <gtest/gtest.h>

#include <cstring>

#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/schema_enums.h"
#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace model {
namespace {

TEST(BuiltinOps, NamesMatchFormatCodes) {
  EXPECT_STREQ(BuiltinCodeName(0), "ADD");
  EXPECT_STREQ(BuiltinCodeName(3), "CONV_2D");
  EXPECT_STREQ(BuiltinCodeName(kBuiltinFullyConnected), "FULLY_CONNECTED");
  EXPECT_STREQ(BuiltinCodeName(kBuiltinCustom), "CUSTOM");
  EXPECT_STREQ(BuiltinCodeName(kBuiltinIf), "IF");
  EXPECT_STREQ(BuiltinCodeName(kBuiltinWhile), "WHILE");
  EXPECT_STREQ(BuiltinCodeName(kBuiltinPlaceholderForGreaterOpCodes),
               "PLACEHOLDER_FOR_GREATER_OP_CODES");
  EXPECT_STREQ(BuiltinCodeName(kBuiltinCallOnce), "CALL_ONCE");
  EXPECT_STREQ(BuiltinCodeName(203), "DILATE");
  EXPECT_STREQ(BuiltinCodeName(209), "STABLEHLO_CASE");
}

TEST(BuiltinOps, UnknownCodesHaveNoName) {
  EXPECT_EQ(BuiltinCodeName(-1), nullptr);
  EXPECT_EQ(BuiltinCodeName(kNumNamedBuiltinCodes), nullptr);
  EXPECT_EQ(BuiltinCodeName(100000), nullptr);
}

TEST(BuiltinOps, NameRoundTrip) {
  for (BuiltinCode c = 0; c < kNumNamedBuiltinCodes; ++c) {
    BuiltinCode back = -1;
    ASSERT_TRUE(BuiltinCodeFromName(BuiltinCodeName(c), &back)) << c;
    EXPECT_EQ(back, c);
  }
  BuiltinCode unused;
  EXPECT_FALSE(BuiltinCodeFromName("conv_2d", &unused));
  EXPECT_FALSE(BuiltinCodeFromName(nullptr, &unused));
}

TEST(TensorTypes, ElementSizesFollowTflm) {
  EXPECT_EQ(ElementByteSize(TensorType::kFloat32), 4u);
  EXPECT_EQ(ElementByteSize(TensorType::kFloat16), 2u);
  EXPECT_EQ(ElementByteSize(TensorType::kBfloat16), 2u);
  EXPECT_EQ(ElementByteSize(TensorType::kInt16), 2u);
  EXPECT_EQ(ElementByteSize(TensorType::kUint16), 2u);
  EXPECT_EQ(ElementByteSize(TensorType::kInt32), 4u);
  EXPECT_EQ(ElementByteSize(TensorType::kUint32), 4u);
  EXPECT_EQ(ElementByteSize(TensorType::kResource), 4u);
  EXPECT_EQ(ElementByteSize(TensorType::kFloat64), 8u);
  EXPECT_EQ(ElementByteSize(TensorType::kInt64), 8u);
  EXPECT_EQ(ElementByteSize(TensorType::kUint64), 8u);
  EXPECT_EQ(ElementByteSize(TensorType::kComplex64), 8u);
  EXPECT_EQ(ElementByteSize(TensorType::kComplex128), 16u);
  EXPECT_EQ(ElementByteSize(TensorType::kInt8), 1u);
  EXPECT_EQ(ElementByteSize(TensorType::kUint8), 1u);
  EXPECT_EQ(ElementByteSize(TensorType::kBool), 1u);
  EXPECT_EQ(ElementByteSize(TensorType::kInt4), 1u);  // not packed
  EXPECT_EQ(ElementByteSize(TensorType::kString), 0u);
  EXPECT_EQ(ElementByteSize(TensorType::kVariant), 0u);
  EXPECT_EQ(ElementByteSize(TensorType::kInt2), 0u);
  EXPECT_EQ(ElementByteSize(TensorType::kUint4), 0u);
  EXPECT_EQ(ElementByteSize(TensorType::kFloat8E4m3fn), 0u);
  EXPECT_EQ(ElementByteSize(static_cast<TensorType>(99)), 0u);
}

TEST(TensorTypes, Names) {
  EXPECT_STREQ(TensorTypeName(TensorType::kInt8), "INT8");
  EXPECT_STREQ(TensorTypeName(TensorType::kBfloat16), "BFLOAT16");
  EXPECT_STREQ(TensorTypeName(TensorType::kFloat8E5m2), "FLOAT8_E5M2");
  EXPECT_STREQ(TensorTypeName(static_cast<TensorType>(99)), "UNKNOWN");
  EXPECT_STREQ(TensorTypeName(static_cast<TensorType>(-3)), "UNKNOWN");
}

TEST(SchemaEnums, TablesAreDenseAndNamed) {
  for (size_t i = 0; i < kNumSchemaEnums; ++i) {
    const auto e = static_cast<SchemaEnum>(i);
    ASSERT_GT(SchemaEnumSize(e), 1) << SchemaEnumName(e);
    for (int32_t v = 0; v < SchemaEnumSize(e); ++v) {
      ASSERT_NE(SchemaEnumValueName(e, v), nullptr) << SchemaEnumName(e) << " " << v;
      EXPECT_GT(std::strlen(SchemaEnumValueName(e, v)), 0u);
    }
    EXPECT_EQ(SchemaEnumValueName(e, -1), nullptr);
    EXPECT_EQ(SchemaEnumValueName(e, SchemaEnumSize(e)), nullptr);
  }
}

TEST(SchemaEnums, ValuesOfTheFormat) {
  EXPECT_STREQ(SchemaEnumName(SchemaEnum::kTensorType), "TensorType");
  EXPECT_EQ(SchemaEnumSize(SchemaEnum::kTensorType), 23);
  EXPECT_STREQ(SchemaEnumValueName(SchemaEnum::kTensorType, 9), "INT8");
  EXPECT_STREQ(SchemaEnumValueName(SchemaEnum::kTensorType, 22), "FLOAT8_E5M2");
  EXPECT_EQ(SchemaEnumSize(SchemaEnum::kPadding), 2);
  EXPECT_STREQ(SchemaEnumValueName(SchemaEnum::kPadding, 1), "VALID");
  EXPECT_EQ(SchemaEnumSize(SchemaEnum::kActivationFunctionType), 6);
  EXPECT_STREQ(SchemaEnumValueName(SchemaEnum::kActivationFunctionType, 3), "RELU6");
  EXPECT_STREQ(SchemaEnumValueName(SchemaEnum::kFullyConnectedOptionsWeightsFormat, 1),
               "SHUFFLED4x16INT8");
  EXPECT_EQ(SchemaEnumSize(SchemaEnum::kBuiltinOperator), 210);
  EXPECT_STREQ(SchemaEnumValueName(SchemaEnum::kBuiltinOperator, 3), "CONV_2D");
  EXPECT_EQ(SchemaEnumSize(SchemaEnum::kBuiltinOptions), 127);
  EXPECT_STREQ(SchemaEnumValueName(SchemaEnum::kBuiltinOptions, 5), "Pool2DOptions");
  // The C++ enums agree with the schema's names.
  EXPECT_STREQ(SchemaEnumValueName(SchemaEnum::kTensorType,
                                   static_cast<int32_t>(TensorType::kInt4)),
               TensorTypeName(TensorType::kInt4));
}

}  // namespace
}  // namespace model
}  // namespace tflm_arena
