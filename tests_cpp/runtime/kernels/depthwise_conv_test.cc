// DEPTHWISE_CONV_2D: hand-checked prepare logic and math, golden vectors
// from the real TFLM and the kernel's options parser.
#include "tflm_arena/runtime/kernels/depthwise_conv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "golden/depthwise_conv_golden.h"
#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/conv_common.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::Activation;
using model::Padding;
using model::TensorInfo;
using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(DepthwiseConv, Int8HandCaseDepthMultiplier2) {
  // 1x1 image, 2 channels, dm 2: output channel c reads input channel c / 2.
  TestTensor input(TensorType::kInt8, {1, 1, 1, 2}, {1.0f});
  TestTensor filter(TensorType::kInt8, {1, 1, 1, 4}, {1.0f, 1.0f, 1.0f, 1.0f}, {}, 3);
  TestTensor bias(TensorType::kInt32, {4}, {1.0f});
  TestTensor output(TensorType::kInt8, {1, 1, 1, 4}, {1.0f});
  DepthwiseConvOptions options;
  options.stride_w = options.stride_h = 1;
  options.depth_multiplier = 2;
  ConvParams params;
  ASSERT_TRUE(
      PrepareDepthwiseConv(options, input.info, filter.info, &bias.info, output.info, &params)
          .ok());
  EXPECT_EQ(params.depth_multiplier, 2);
  int32_t m[4], s[4];
  DepthwiseConvMultipliers(input.info, filter.info, output.info, m, s);
  const int8_t in[] = {3, -5};
  const int8_t f[] = {2, -1, 4, 7};
  const int32_t b[] = {1, 0, 0, 100};
  int8_t out[4];
  DepthwiseConvPerChannelInt8(params, m, s, {1, 1, 1, 2}, in, {1, 1, 1, 4}, f, b, {1, 1, 1, 4},
                              out);
  EXPECT_EQ(out[0], 7);    // 3 * 2 + 1
  EXPECT_EQ(out[1], -3);   // 3 * -1
  EXPECT_EQ(out[2], -20);  // -5 * 4
  EXPECT_EQ(out[3], 65);   // -5 * 7 + 100
}

// TFLM runs the option's depth_multiplier verbatim (an inconsistent value
// leaves outputs undefined there); we always use Cout / Cin.
TEST(DepthwiseConv, InconsistentDepthMultiplierUsesChannels) {
  TestTensor input(TensorType::kFloat32, {1, 2, 2, 2});
  TestTensor filter(TensorType::kFloat32, {1, 1, 1, 6});
  TestTensor output(TensorType::kFloat32, {1, 2, 2, 6});
  DepthwiseConvOptions options;
  options.stride_w = options.stride_h = 1;
  for (int32_t written : {0, 1, 3, 7}) {
    options.depth_multiplier = written;
    ConvParams params;
    ASSERT_TRUE(
        PrepareDepthwiseConv(options, input.info, filter.info, nullptr, output.info, &params).ok());
    EXPECT_EQ(params.depth_multiplier, 3);
  }
  TestTensor bad_output(TensorType::kFloat32, {1, 2, 2, 5});
  TestTensor bad_filter(TensorType::kFloat32, {1, 1, 1, 5});
  ConvParams params;
  EXPECT_EQ(
      PrepareDepthwiseConv(options, input.info, bad_filter.info, nullptr, bad_output.info, &params)
          .code(),
      StatusCode::kInvalidArgument);
}

// --- golden vectors from TFLM (golden/depthwise_conv_cases.py) ------------------

using DepthwiseConvGolden = GoldenTest;

TEST_P(DepthwiseConvGolden, MatchesTflm) {
  const golden::Case& c = GetParam();
  const TensorInfo input = ToInfo(c.input), weights = ToInfo(c.input2), output = ToInfo(c.output);
  TensorInfo bias_info;
  const TensorInfo* bias = OptionalInfo(c.bias, &bias_info);
  DepthwiseConvOptions o;
  SetConvOptions(c.options, &o);
  o.depth_multiplier = c.options.depth_multiplier;
  ConvParams params;
  const Status st = PrepareDepthwiseConv(o, input, weights, bias, output, &params);
  ASSERT_TRUE(st.ok()) << st.message();
  const Shape4 in_s = MakeShape4(c.input.shape), f_s = MakeShape4(c.input2.shape),
               out_s = MakeShape4(c.output.shape);
  const size_t n = Count(c.output);
  if (Is(c.output, TensorType::kFloat32)) {
    std::vector<float> out(n);
    DepthwiseConvFloat(params, in_s, DataOf<float>(c.input), f_s, DataOf<float>(c.input2),
                       DataOf<float>(c.bias), out_s, out.data());
    return ExpectMatchesTflm(c, out);
  }
  std::vector<int32_t> m(static_cast<size_t>(DepthwiseOutputChannels(weights))), s(m.size());
  DepthwiseConvMultipliers(input, weights, output, m.data(), s.data());
  std::vector<int8_t> out(n);
  DepthwiseConvPerChannelInt8(params, m.data(), s.data(), in_s, DataOf<int8_t>(c.input), f_s,
                              DataOf<int8_t>(c.input2), DataOf<int32_t>(c.bias), out_s, out.data());
  ExpectMatchesTflm(c, out);
}

INSTANTIATE_TEST_SUITE_P(Tflm, DepthwiseConvGolden,
                         ::testing::ValuesIn(golden::depthwise_conv::kCases), GoldenName);

// --- options parsing (DepthwiseConv2DOptions) ------------------------------------

TEST(DepthwiseConvOptions, ParsesEveryFieldAndDefaults) {
  OptionsTableBuilder full;
  full.Add<int8_t>(0, 1).Add<int32_t>(1, 2).Add<int32_t>(2, 3).Add<int32_t>(3, 8);
  full.Add<int8_t>(4, 1).Add<int32_t>(5, 2).Add<int32_t>(6, 3);
  model::OptionsTable table = full.Build(2);
  DepthwiseConvOptions o;
  ASSERT_TRUE(Parse(Register_DEPTHWISE_CONV_2D(), table, &o).ok());
  EXPECT_EQ(o.padding, Padding::kValid);
  EXPECT_EQ(o.stride_w, 2);
  EXPECT_EQ(o.stride_h, 3);
  EXPECT_EQ(o.depth_multiplier, 8);
  EXPECT_EQ(o.activation, Activation::kRelu);
  EXPECT_EQ(o.dilation_w, 2);
  EXPECT_EQ(o.dilation_h, 3);
  OptionsTableBuilder empty;
  model::OptionsTable none = empty.Build(2);
  DepthwiseConvOptions d;
  ASSERT_TRUE(Parse(Register_DEPTHWISE_CONV_2D(), none, &d).ok());
  EXPECT_EQ(d.depth_multiplier, 0);
  EXPECT_EQ(d.dilation_w, 1);
  EXPECT_EQ(d.dilation_h, 1);
  EXPECT_EQ(Register_DEPTHWISE_CONV_2D().options.table_type, 2);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
