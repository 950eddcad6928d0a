// FULLY_CONNECTED: hand-checked prepare logic and math, golden vectors from
// the real TFLM and the kernel's options parser.
#include "tflm_arena/runtime/kernels/fully_connected.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "golden/fully_connected_golden.h"
#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::Activation;
using model::Padding;
using model::TensorInfo;
using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(FullyConnected, Int8HandCaseRoundingAndOffsets) {
  // M = 0.5 exactly: TFLite's doubling high multiply rounds ties upward
  // (3 * 0.5 -> 2, -3 * 0.5 -> -1).
  TestTensor input(TensorType::kInt8, {1, 3}, {1.0f}, {-1});
  TestTensor weights(TensorType::kInt8, {2, 3}, {0.5f});
  TestTensor output(TensorType::kInt8, {1, 2}, {1.0f}, {5});
  FullyConnectedOptions options;
  FullyConnectedParams params;
  ASSERT_TRUE(
      PrepareFullyConnected(options, input.info, weights.info, nullptr, output.info, &params).ok());
  EXPECT_EQ(params.batches, 1);
  EXPECT_EQ(params.accum_depth, 3);
  EXPECT_EQ(params.input_offset, 1);
  EXPECT_EQ(params.output_multiplier, 1 << 30);
  EXPECT_EQ(params.output_shift, 0);
  const int8_t x[] = {0, 1, 0};             // + offset 1 -> 1, 2, 1
  const int8_t w[] = {1, 1, 0, -1, 0, -2};  // acc 3, -3
  int8_t out[2];
  FullyConnectedInt8(params, x, w, nullptr, out);
  EXPECT_EQ(out[0], 2 + 5);
  EXPECT_EQ(out[1], -1 + 5);
}

TEST(FullyConnected, WeightsZeroPointAndKeepNumDimsShape) {
  // Output [2, 2, 2] (keep_num_dims) of input [2, 2, 3]: 4 batches.
  TestTensor input(TensorType::kInt8, {2, 2, 3}, {1.0f});
  TestTensor weights(TensorType::kInt8, {2, 3}, {1.0f}, {1});
  TestTensor output(TensorType::kInt8, {2, 2, 2}, {1.0f});
  FullyConnectedOptions options;
  options.keep_num_dims = true;
  FullyConnectedParams params;
  ASSERT_TRUE(
      PrepareFullyConnected(options, input.info, weights.info, nullptr, output.info, &params).ok());
  EXPECT_EQ(params.batches, 4);
  EXPECT_EQ(params.weights_offset, -1);
  int8_t x[12];
  for (int i = 0; i < 12; ++i) x[i] = static_cast<int8_t>(i);
  const int8_t w[] = {2, 1, 1, 1, 1, 1};  // minus zp 1: (1, 0, 0), (0, 0, 0)
  int8_t out[8];
  FullyConnectedInt8(params, x, w, nullptr, out);
  for (int b = 0; b < 4; ++b) {
    EXPECT_EQ(out[2 * b], 3 * b);  // first input of each batch
    EXPECT_EQ(out[2 * b + 1], 0);
  }
  // Input elements must be batches x accum_depth.
  TestTensor short_input(TensorType::kInt8, {2, 2, 2}, {1.0f});
  EXPECT_EQ(
      PrepareFullyConnected(options, short_input.info, weights.info, nullptr, output.info, &params)
          .code(),
      StatusCode::kInvalidArgument);
}

TEST(FullyConnected, PerTensorBiasScaleMustMatch) {
  TestTensor input(TensorType::kInt8, {1, 4}, {0.5f});
  TestTensor weights(TensorType::kInt8, {3, 4}, {0.25f});
  TestTensor good_bias(TensorType::kInt32, {3}, {0.125f});
  TestTensor bad_bias(TensorType::kInt32, {3}, {0.2f});
  TestTensor output(TensorType::kInt8, {1, 3}, {1.0f});
  FullyConnectedOptions options;
  FullyConnectedParams params;
  EXPECT_TRUE(PrepareFullyConnected(options, input.info, weights.info, &good_bias.info, output.info,
                                    &params)
                  .ok());
  // |0.125 - 0.2| / 1.0 = 0.075 > 0.02, as TFLM rejects.
  EXPECT_EQ(
      PrepareFullyConnected(options, input.info, weights.info, &bad_bias.info, output.info, &params)
          .code(),
      StatusCode::kInvalidArgument);
  options.weights_format = 1;
  EXPECT_EQ(PrepareFullyConnected(options, input.info, weights.info, nullptr, output.info, &params)
                .code(),
            StatusCode::kUnimplemented);
}

TEST(FullyConnected, MultiplierRoundsTheScaleProductToFloatFirst) {
  // TFLM computes double(float(a * b)) / double(c) for per-tensor FC.
  const float a = 0.0123456789f, b = 0.00987654321f, c = 0.0333333f;
  int32_t m = 0, s = 0;
  FullyConnectedMultiplier(a, b, c, &m, &s);
  int32_t want_m = 0;
  int want_s = 0;
  QuantizeMultiplier(static_cast<double>(a * b) / static_cast<double>(c), &want_m, &want_s);
  EXPECT_EQ(m, want_m);
  EXPECT_EQ(s, want_s);
}

// --- golden vectors from TFLM (golden/fully_connected_cases.py) -----------------

using FullyConnectedGolden = GoldenTest;

TEST_P(FullyConnectedGolden, MatchesTflm) {
  const golden::Case& c = GetParam();
  const TensorInfo input = ToInfo(c.input), weights = ToInfo(c.input2), output = ToInfo(c.output);
  TensorInfo bias_info;
  const TensorInfo* bias = OptionalInfo(c.bias, &bias_info);
  FullyConnectedOptions o;
  o.activation = static_cast<Activation>(c.options.activation);
  o.keep_num_dims = c.options.keep_num_dims;
  FullyConnectedParams params;
  const Status st = PrepareFullyConnected(o, input, weights, bias, output, &params);
  ASSERT_TRUE(st.ok()) << st.message();
  const size_t n = Count(c.output);
  if (Is(c.output, TensorType::kFloat32)) {
    std::vector<float> out(n);
    FullyConnectedFloat(params, DataOf<float>(c.input), DataOf<float>(c.input2),
                        DataOf<float>(c.bias), out.data());
    return ExpectMatchesTflm(c, out);
  }
  std::vector<int8_t> out(n);
  if (params.per_channel) {
    std::vector<int32_t> m(static_cast<size_t>(params.output_depth)), s(m.size());
    FullyConnectedPerChannelMultipliers(input, weights, output, params.output_depth, m.data(),
                                        s.data());
    FullyConnectedPerChannelInt8(params, m.data(), s.data(), DataOf<int8_t>(c.input),
                                 DataOf<int8_t>(c.input2), DataOf<int32_t>(c.bias), out.data());
  } else {
    FullyConnectedInt8(params, DataOf<int8_t>(c.input), DataOf<int8_t>(c.input2),
                       DataOf<int32_t>(c.bias), out.data());
  }
  ExpectMatchesTflm(c, out);
}

INSTANTIATE_TEST_SUITE_P(Tflm, FullyConnectedGolden,
                         ::testing::ValuesIn(golden::fully_connected::kCases), GoldenName);

// --- options parsing (FullyConnectedOptions) -------------------------------------

TEST(FullyConnectedOptions, ParsesEveryFieldAndDefaults) {
  OptionsTableBuilder full;
  full.Add<int8_t>(0, 1).Add<int8_t>(1, 0).Add<uint8_t>(2, 1);
  model::OptionsTable table = full.Build(8);
  FullyConnectedOptions o;
  ASSERT_TRUE(Parse(Register_FULLY_CONNECTED(), table, &o).ok());
  EXPECT_EQ(o.activation, Activation::kRelu);
  EXPECT_EQ(o.weights_format, 0);
  EXPECT_TRUE(o.keep_num_dims);
  OptionsTableBuilder empty;
  model::OptionsTable none = empty.Build(8);
  FullyConnectedOptions d;
  ASSERT_TRUE(Parse(Register_FULLY_CONNECTED(), none, &d).ok());
  EXPECT_EQ(d.activation, Activation::kNone);
  EXPECT_FALSE(d.keep_num_dims);
  EXPECT_EQ(Register_FULLY_CONNECTED().options.table_type, 8);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
