// ADD: hand-checked prepare logic and math, golden vectors from the real
// TFLM and the kernel's options parser.
#include "tflm_arena/runtime/kernels/add.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "golden/add_golden.h"
#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::Activation;
using model::Padding;
using model::TensorInfo;
using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(Add, Int8EqualScalesIsExactSum) {
  // All scales 0.5, zero points 0: the fixed-point path reproduces a + b.
  AddParams p;
  ASSERT_TRUE(QuantizedAddParams(TensorType::kInt8, 0.5f, 0, 0.5f, 0, 0.5f, 0, &p).ok());
  EXPECT_EQ(p.input1_multiplier, 1 << 30);
  EXPECT_EQ(p.input1_shift, 0);
  EXPECT_EQ(p.output_shift, -18);
  const int8_t a[] = {1, -7, 100, -100};
  const int8_t b[] = {2, 3, 100, -100};
  int8_t out[4];
  AddInt8(p, 4, a, b, out);
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], -4);
  EXPECT_EQ(out[2], 127);  // clamped
  EXPECT_EQ(out[3], -128);
  EXPECT_EQ(QuantizedAddParams(TensorType::kInt8, 0.5f, 0, 0.5f, 0, 1e-9f, 0, &p).code(),
            StatusCode::kInvalidArgument);  // output multiplier >= 1
}

TEST(Add, FloatBroadcastOuterSum) {
  const int32_t s1[] = {2, 1};
  const int32_t s2[] = {3};
  const int32_t so[] = {2, 3};
  BroadcastDims dims;
  ASSERT_TRUE(MakeBroadcastDims(Span<const int32_t>(s1, 2), Span<const int32_t>(s2, 1),
                                Span<const int32_t>(so, 2), &dims)
                  .ok());
  AddParams p;
  FloatActivationRange(Activation::kNone, &p.float_activation_min, &p.float_activation_max);
  const float a[] = {10, 20};
  const float b[] = {1, 2, 3};
  float out[6];
  BroadcastAddFloat(p, dims, a, b, out);
  const float want[] = {11, 12, 13, 21, 22, 23};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], want[i]);
}

TEST(Add, BroadcastValidation) {
  BroadcastDims dims;
  const int32_t a[] = {2, 3};
  const int32_t b[] = {4};
  const int32_t out[] = {2, 3};
  EXPECT_EQ(MakeBroadcastDims(Span<const int32_t>(a, 2), Span<const int32_t>(b, 1),
                              Span<const int32_t>(out, 2), &dims)
                .code(),
            StatusCode::kInvalidArgument);
  const int32_t ones[] = {1, 1};
  const int32_t big[] = {1, 4};
  EXPECT_EQ(MakeBroadcastDims(Span<const int32_t>(ones, 2), Span<const int32_t>(ones, 2),
                              Span<const int32_t>(big, 2), &dims)
                .code(),
            StatusCode::kInvalidArgument);  // output larger than both inputs
  const int32_t r7[] = {1, 1, 1, 1, 1, 1, 2};
  EXPECT_EQ(MakeBroadcastDims(Span<const int32_t>(r7, 7), Span<const int32_t>(b, 1),
                              Span<const int32_t>(r7, 7), &dims)
                .code(),
            StatusCode::kUnimplemented);
}

TEST(Add, PrepareRejectsMixedTypes) {
  TestTensor a(TensorType::kInt8, {4}, {1.0f});
  TestTensor b(TensorType::kInt16, {4}, {1.0f});
  AddParams p;
  const Status st = PrepareAdd(AddOptions(), a.info, b.info, a.info, &p);
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_NE(std::string(st.message()).find("ADD"), std::string::npos);
  TestTensor i64(TensorType::kInt64, {4});
  EXPECT_EQ(PrepareAdd(AddOptions(), i64.info, i64.info, i64.info, &p).code(),
            StatusCode::kUnimplemented);
  TestTensor quantized32(TensorType::kInt32, {4}, {1.0f});
  EXPECT_EQ(
      PrepareAdd(AddOptions(), quantized32.info, quantized32.info, quantized32.info, &p).code(),
      StatusCode::kUnimplemented);
}

TEST(Add, Int32WrapsAndIgnoresActivation) {
  TestTensor t(TensorType::kInt32, {3});
  AddOptions options;
  options.activation = Activation::kRelu;  // TFLM applies none to int32
  AddParams p;
  ASSERT_TRUE(PrepareAdd(options, t.info, t.info, t.info, &p).ok());
  const int32_t a[] = {-5, 7, std::numeric_limits<int32_t>::max()};
  const int32_t b[] = {2, -9, 1};
  int32_t out[3];
  AddInt32(3, a, b, out);
  EXPECT_EQ(out[0], -3);
  EXPECT_EQ(out[1], -2);
  EXPECT_EQ(out[2], std::numeric_limits<int32_t>::min());
}
// --- golden vectors from TFLM (golden/add_cases.py) ------------------------------

using AddGolden = GoldenTest;

TEST_P(AddGolden, MatchesTflm) {
  const golden::Case& c = GetParam();
  const TensorInfo input1 = ToInfo(c.input), input2 = ToInfo(c.input2), output = ToInfo(c.output);
  AddOptions o;
  o.activation = static_cast<Activation>(c.options.activation);
  AddParams params;
  const Status st = PrepareAdd(o, input1, input2, output, &params);
  ASSERT_TRUE(st.ok()) << st.message();
  BroadcastDims dims;
  if (params.requires_broadcast) {
    ASSERT_TRUE(MakeBroadcastDims(input1.shape, input2.shape, output.shape, &dims).ok());
  }
  const size_t n = Count(c.output);
  const bool b = params.requires_broadcast;
  const int8_t* i8a = DataOf<int8_t>(c.input);
  const int8_t* i8b = DataOf<int8_t>(c.input2);
  switch (output.type) {
    case TensorType::kInt8: {
      std::vector<int8_t> out(n);
      if (b) {
        BroadcastAddInt8(params, dims, i8a, i8b, out.data());
      } else {
        AddInt8(params, n, i8a, i8b, out.data());
      }
      return ExpectMatchesTflm(c, out);
    }
    case TensorType::kInt16: {
      std::vector<int16_t> out(n);
      if (b) {
        BroadcastAddInt16(params, dims, DataOf<int16_t>(c.input), DataOf<int16_t>(c.input2),
                          out.data());
      } else {
        AddInt16(params, n, DataOf<int16_t>(c.input), DataOf<int16_t>(c.input2), out.data());
      }
      return ExpectMatchesTflm(c, out);
    }
    case TensorType::kInt32: {
      std::vector<int32_t> out(n);
      if (b) {
        BroadcastAddInt32(dims, DataOf<int32_t>(c.input), DataOf<int32_t>(c.input2), out.data());
      } else {
        AddInt32(n, DataOf<int32_t>(c.input), DataOf<int32_t>(c.input2), out.data());
      }
      return ExpectMatchesTflm(c, out);
    }
    default: {
      std::vector<float> out(n);
      if (b) {
        BroadcastAddFloat(params, dims, DataOf<float>(c.input), DataOf<float>(c.input2),
                          out.data());
      } else {
        AddFloat(params, n, DataOf<float>(c.input), DataOf<float>(c.input2), out.data());
      }
      return ExpectMatchesTflm(c, out);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Tflm, AddGolden, ::testing::ValuesIn(golden::add::kCases), GoldenName);

// --- options parsing (AddOptions) -------------------------------------------------

TEST(AddOptions, ParsesActivation) {
  OptionsTableBuilder full;
  full.Add<int8_t>(0, 3).Add<uint8_t>(1, 0);
  model::OptionsTable table = full.Build(11);
  AddOptions o;
  ASSERT_TRUE(Parse(Register_ADD(), table, &o).ok());
  EXPECT_EQ(o.activation, Activation::kRelu6);
  EXPECT_EQ(Register_ADD().options.table_type, 11);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
