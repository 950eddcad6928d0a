// Builtin options decode on a real model: every CONV / DEPTHWISE / POOL /
// SOFTMAX / RESHAPE operator yields the matching kind with sane values.
#include <gtest/gtest.h>

#include <vector>

#include "test_builder.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace model {
namespace {

using Kind = BuiltinOptions::Kind;

TEST(BuiltinOptions, PersonDetectOptionsMatchOperators) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("person_detect.tflite", bytes);
  Model m = testing::MustLoad(bytes);
  int convs = 0, depthwise = 0, pools = 0, softmax = 0;
  for (size_t i = 0; i < m.num_operators(0); ++i) {
    OperatorInfo op;
    BuiltinOptions o;
    ASSERT_TRUE(m.op(0, i, &op).ok());
    ASSERT_TRUE(m.builtin_options(0, i, &o).ok());
    switch (op.builtin_code) {
      case 3:  // CONV_2D
        ASSERT_EQ(o.kind, Kind::kConv);
        EXPECT_GE(o.conv.stride_w, 1);
        EXPECT_EQ(o.conv.dilation_w, 1);
        ++convs;
        break;
      case 4:  // DEPTHWISE_CONV_2D
        ASSERT_EQ(o.kind, Kind::kDepthwiseConv);
        EXPECT_GE(o.depthwise.depth_multiplier, 1);
        ++depthwise;
        break;
      case 1:  // AVERAGE_POOL_2D
        ASSERT_EQ(o.kind, Kind::kPool);
        EXPECT_GE(o.pool.filter_w, 1);
        ++pools;
        break;
      case 25:  // SOFTMAX
        ASSERT_EQ(o.kind, Kind::kSoftmax);
        EXPECT_FLOAT_EQ(o.softmax.beta, 1.0f);
        ++softmax;
        break;
      default:
        break;
    }
  }
  EXPECT_GT(convs, 0);
  EXPECT_GT(depthwise, 0);
  EXPECT_EQ(pools, 1);
  EXPECT_EQ(softmax, 1);
  // person_detect starts with a stride-2 SAME depthwise convolution of the
  // 1-channel input with depth multiplier 8 and a fused RELU6.
  BuiltinOptions first;
  ASSERT_TRUE(m.builtin_options(0, 0, &first).ok());
  ASSERT_EQ(first.kind, Kind::kDepthwiseConv);
  EXPECT_EQ(first.depthwise.stride_w, 2);
  EXPECT_EQ(first.depthwise.depth_multiplier, 8);
  EXPECT_EQ(first.depthwise.padding, Padding::kSame);
  EXPECT_EQ(first.depthwise.activation, Activation::kRelu6);
  BuiltinOptions bad;
  EXPECT_EQ(m.builtin_options(0, 999, &bad).code(), StatusCode::kOutOfRange);
}

}  // namespace
}  // namespace model
}  // namespace tflm_arena
