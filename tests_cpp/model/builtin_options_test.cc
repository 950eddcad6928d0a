// Builtin options tables on a real model: every CONV / DEPTHWISE / POOL /
// SOFTMAX operator carries its own table type, and bounds-checked field reads
// give the expected values (kernels decode these tables themselves; the
// per-kernel decoders are tested in tests_cpp/runtime/kernels/).
#include <gtest/gtest.h>

#include <vector>

#include "test_builder.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace model {
namespace {

// The union's ordinals as the format fixes them (schema.fbs, union
// BuiltinOptions): builtin_options_list.h must give these values.
TEST(BuiltinOptions, ConstantsAreTheFormatsOrdinals) {
  EXPECT_EQ(kNoOptions, 0);
  EXPECT_EQ(kConv2DOptions, 1);
  EXPECT_EQ(kDepthwiseConv2DOptions, 2);
  EXPECT_EQ(kPool2DOptions, 5);
  EXPECT_EQ(kSVDFOptions, 6);
  EXPECT_EQ(kSoftmaxOptions, 9);
  EXPECT_EQ(kReshapeOptions, 17);
  EXPECT_EQ(kUnidirectionalSequenceLSTMOptions, 71);
  EXPECT_EQ(kLeakyReluOptions, 75);
  EXPECT_EQ(kBatchMatMulOptions, 101);
  EXPECT_EQ(kCallOnceOptions, 103);
  EXPECT_EQ(kRightShiftOptions, 126);
  EXPECT_EQ(kNumOptionsTypes, 127);
}

TEST(BuiltinOptions, NamesAreTheSchemas) {
  EXPECT_STREQ(OptionsTypeName(kNoOptions), "NONE");
  EXPECT_STREQ(OptionsTypeName(kConv2DOptions), "Conv2DOptions");
  EXPECT_STREQ(OptionsTypeName(75), "LeakyReluOptions");
  EXPECT_STREQ(OptionsTypeName(126), "RightShiftOptions");
  EXPECT_EQ(OptionsTypeName(127), nullptr);
  EXPECT_EQ(OptionsTypeName(255), nullptr);
  static_assert(OptionsTypeName(kPool2DOptions)[0] == 'P', "usable in constant expressions");
}

TEST(BuiltinOptions, PersonDetectOptionsMatchOperators) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("person_detect.tflite", bytes);
  Model m = testing::MustLoad(bytes);
  int convs = 0, depthwise = 0, pools = 0, softmax = 0;
  for (size_t i = 0; i < m.num_operators(0); ++i) {
    OperatorInfo op;
    OptionsTable o;
    ASSERT_TRUE(m.op(0, i, &op).ok());
    ASSERT_TRUE(m.builtin_options(0, i, &o).ok());
    switch (op.builtin_code) {
      case kBuiltinConv2D:
        ASSERT_EQ(o.type(), kConv2DOptions);
        EXPECT_GE(o.Int32(1, 0), 1);  // stride_w
        EXPECT_EQ(o.Int32(4, 1), 1);  // dilation_w_factor
        ++convs;
        break;
      case kBuiltinDepthwiseConv2D:
        ASSERT_EQ(o.type(), kDepthwiseConv2DOptions);
        EXPECT_GE(o.Int32(3, 0), 1);  // depth_multiplier
        ++depthwise;
        break;
      case kBuiltinAveragePool2D:
        ASSERT_EQ(o.type(), kPool2DOptions);
        EXPECT_GE(o.Int32(3, 0), 1);  // filter_width
        ++pools;
        break;
      case kBuiltinSoftmax:
        ASSERT_EQ(o.type(), kSoftmaxOptions);
        EXPECT_FLOAT_EQ(o.Float(0, 0.0f), 1.0f);  // beta
        ++softmax;
        break;
      default:
        break;
    }
    EXPECT_TRUE(o.ok());
  }
  EXPECT_GT(convs, 0);
  EXPECT_GT(depthwise, 0);
  EXPECT_EQ(pools, 1);
  EXPECT_EQ(softmax, 1);
  // person_detect starts with a stride-2 SAME depthwise convolution of the
  // 1-channel input with depth multiplier 8 and a fused RELU6.
  OptionsTable first;
  ASSERT_TRUE(m.builtin_options(0, 0, &first).ok());
  ASSERT_EQ(first.type(), kDepthwiseConv2DOptions);
  EXPECT_EQ(first.Int32(1, 0), 2);
  EXPECT_EQ(first.Int32(3, 0), 8);
  EXPECT_EQ(static_cast<Padding>(first.UInt8(0, 0)), Padding::kSame);
  EXPECT_EQ(static_cast<Activation>(first.UInt8(4, 0)), Activation::kRelu6);
  // A field id past the table's vtable reads as its default.
  EXPECT_EQ(first.Int32(40, -3), -3);
  EXPECT_TRUE(first.ok());
  OptionsTable bad;
  EXPECT_EQ(m.builtin_options(0, 999, &bad).code(), StatusCode::kOutOfRange);
}

TEST(BuiltinOptions, ReadsOutsideTheBufferMarkTheTableMalformed) {
  // A table whose vtable offset points before the buffer: every read gives
  // the default and ok() turns false (no byte outside the buffer is read).
  alignas(4) const uint8_t data[8] = {0, 0, 0, 0, 0x40, 0, 0, 0};  // soffset 64 > position 4
  OptionsTable t(data, sizeof(data), 4, 75);
  EXPECT_TRUE(t.present());
  EXPECT_TRUE(t.ok());
  EXPECT_FLOAT_EQ(t.Float(0, 0.5f), 0.5f);
  EXPECT_FALSE(t.ok());
  // A field that would run past the end of its table (the table is 6 bytes:
  // a 4-byte soffset and one 2-byte slot) is malformed for an int32, fine
  // for a byte.
  alignas(4) const uint8_t small[20] = {
      0, 0, 0, 0,                   // (root offset, unused here)
      6, 0, 6, 0, 4, 0,             // vtable at 4: 6 bytes, table 6 bytes, field 0 at +4
      6, 0, 0, 0, 0x2a, 0,          // table at 10: soffset 6 -> vtable at 4; field 0
      0, 0, 0, 0};                  // in the buffer, but not in the table
  OptionsTable narrow(small, sizeof(small), 10, 75);
  EXPECT_EQ(narrow.UInt8(0, 0), 0x2a);
  EXPECT_TRUE(narrow.ok());
  EXPECT_EQ(narrow.Int32(0, -1), -1);
  EXPECT_FALSE(narrow.ok());
  // Absent table: defaults, still ok.
  OptionsTable absent;
  EXPECT_FALSE(absent.present());
  EXPECT_EQ(absent.Int32(0, 7), 7);
  EXPECT_TRUE(absent.ok());
}

}  // namespace
}  // namespace model
}  // namespace tflm_arena
