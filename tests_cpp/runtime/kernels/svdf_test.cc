// SVDF: hand-checked state shift, feature / time products and reduction for
// float32 and int8 (int16 state), two invocations so the carried state
// matters; prepare's refusals; TFLM's OpData size and the options parser.
// Bit-exactness against the real TFLM is tests_py/test_kernel_svdf.py (the
// golden pipeline takes at most three operands; SVDF has five).
#include "tflm_arena/runtime/kernels/svdf.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

SvdfDims Dims(int32_t rank) {
  SvdfDims d;
  d.batch = 1;
  d.input_size = 2;
  d.filters = 2;
  d.rank = rank;
  d.units = 2 / rank;
  d.memory = 2;
  return d;
}

TEST(SvdfMath, FloatShiftsTheStateAndCarriesItOver) {
  // Identity feature weights; time weights [[1, 2], [3, 4]]; bias [0.5, -10].
  const float wf[] = {1, 0, 0, 1}, wt[] = {1, 2, 3, 4}, bias[] = {0.5f, -10.0f};
  float state[4] = {0, 0, 0, 0}, scratch[2], out[2];
  const float x1[] = {1, 2};
  SvdfFloat(Dims(1), model::Activation::kRelu, x1, wf, wt, bias, state, scratch, out);
  // state [0, 1 | 0, 2]; time 2, 8; + bias 2.5, -2; RELU.
  EXPECT_EQ(state[1], 1.0f);
  EXPECT_EQ(state[3], 2.0f);
  EXPECT_EQ(out[0], 2.5f);
  EXPECT_EQ(out[1], 0.0f);
  const float x2[] = {3, 4};
  SvdfFloat(Dims(1), model::Activation::kNone, x2, wf, wt, bias, state, scratch, out);
  // The whole buffer shifts left ([1, 0, 2, 2]), then the newest column is
  // written: [1, 3 | 2, 4]; time 7, 22.
  EXPECT_EQ(state[0], 1.0f);
  EXPECT_EQ(state[2], 2.0f);
  EXPECT_EQ(out[0], 7.5f);
  EXPECT_EQ(out[1], 12.0f);
}

TEST(SvdfMath, FloatRankSumsFiltersIntoUnits) {
  const float wf[] = {1, 0, 0, 1}, wt[] = {1, 2, 3, 4}, bias[] = {0.5f};
  float state[4] = {0, 0, 0, 0}, scratch[2], out[1];
  const float x[] = {1, 2};
  SvdfFloat(Dims(2), model::Activation::kNone, x, wf, wt, bias, state, scratch, out);
  EXPECT_EQ(out[0], 10.5f);  // 0.5 + 2 + 8
  SvdfFloat(Dims(2), model::Activation::kNone, x, wf, wt, nullptr, state, scratch, out);
  EXPECT_EQ(out[0], 17.0f);  // state [1, 1 | 2, 2]: 3 + 14, no bias
}

TEST(SvdfMath, Int8WithInt16StateUsesZeroPointsAndScales) {
  // All scales 1 (multipliers 1), input zero point 1, output zero point 5:
  // the float case above in integers.
  TestTensor in(TensorType::kInt8, {1, 2}, {1.0f}, {1}), wf(TensorType::kInt8, {2, 2}, {1.0f});
  TestTensor wt(TensorType::kInt16, {2, 2}, {1.0f}), bias(TensorType::kInt32, {2}, {1.0f});
  TestTensor state(TensorType::kInt16, {1, 4}, {1.0f}), out(TensorType::kInt8, {1, 2}, {1.0f}, {5});
  state.info.is_variable = true;
  SvdfTensors t{&in.info, &wf.info, &wt.info, &bias.info, &state.info, &out.info};
  SvdfOptions o;
  o.rank = 1;
  SvdfDims d;
  SvdfOpData data;
  ASSERT_TRUE(PrepareSvdf(o, t, &d, &data).ok());
  EXPECT_EQ(d.units, 2);
  EXPECT_EQ(d.memory, 2);
  EXPECT_EQ(data.input_zero_point, 1);
  const int8_t x[] = {2, 3}, w[] = {1, 0, 0, 1};
  const int16_t wtime[] = {1, 2, 3, 4};
  const int32_t b[] = {1, -10};
  int16_t s[4] = {0, 0, 0, 0};
  int32_t scratch[2], scratch_out[2];
  int8_t y[2];
  SvdfInt16State(d, data, x, w, wtime, b, s, scratch, scratch_out, y);
  EXPECT_EQ(s[1], 1);
  EXPECT_EQ(s[3], 2);
  EXPECT_EQ(y[0], 8);  // 2 + 1 + 5
  EXPECT_EQ(y[1], 3);  // 8 - 10 + 5
}

TEST(SvdfPrepare, EffectiveScalesAreComputedInFloatAsTflmWrites) {
  // TFLM: double(in_scale * wf_scale / state_scale) with float operands.
  // For 0.05 x 0.01 / 0.003 that is 1431655808 x 2^-2 (in double it would
  // be 1431655742): the wheel cannot tell them apart on int8 outputs (about
  // one rounding flip in 10^5 values), so this pins TFLM's source.
  TestTensor in(TensorType::kInt8, {1, 2}, {0.05f}), wf(TensorType::kInt8, {2, 2}, {0.01f});
  TestTensor wt(TensorType::kInt16, {2, 2}, {0.1f}), state(TensorType::kInt16, {1, 4}, {0.003f});
  TestTensor out(TensorType::kInt8, {1, 2}, {0.7f});
  state.info.is_variable = true;
  SvdfTensors t{&in.info, &wf.info, &wt.info, nullptr, &state.info, &out.info};
  SvdfOptions o;
  o.rank = 1;
  SvdfDims d;
  SvdfOpData data;
  ASSERT_TRUE(PrepareSvdf(o, t, &d, &data).ok());
  EXPECT_EQ(data.effective_scale_1_a, 1431655808);
  EXPECT_EQ(data.effective_scale_1_b, -2);
}

TEST(SvdfPrepare, RefusesWhatInvokeCouldNotRun) {
  TestTensor in(TensorType::kFloat32, {1, 2}), wf(TensorType::kFloat32, {2, 2});
  TestTensor wt(TensorType::kFloat32, {2, 2}), state(TensorType::kFloat32, {1, 4});
  TestTensor out(TensorType::kFloat32, {1, 2}), out_bad(TensorType::kFloat32, {1, 3});
  SvdfTensors t{&in.info, &wf.info, &wt.info, nullptr, &state.info, &out.info};
  SvdfOptions o;
  o.rank = 1;
  SvdfDims d;
  SvdfOpData data;
  // The state must be a variable tensor.
  Status st = PrepareSvdf(o, t, &d, &data);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(st.message()).find("not a variable"), std::string::npos);
  state.info.is_variable = true;
  EXPECT_TRUE(PrepareSvdf(o, t, &d, &data).ok());
  o.rank = 0;  // would divide by zero
  EXPECT_EQ(PrepareSvdf(o, t, &d, &data).code(), StatusCode::kInvalidArgument);
  o.rank = 1;
  t.output = &out_bad.info;
  EXPECT_EQ(PrepareSvdf(o, t, &d, &data).code(), StatusCode::kInvalidArgument);
  // int8 with a bias whose scale is not state x time scale: TFLM refuses it.
  TestTensor qin(TensorType::kInt8, {1, 2}, {1.0f}), qwf(TensorType::kInt8, {2, 2}, {1.0f});
  TestTensor qwt(TensorType::kInt16, {2, 2}, {0.5f}), qb(TensorType::kInt32, {2}, {1.0f});
  TestTensor qs(TensorType::kInt16, {1, 4}, {1.0f}), qout(TensorType::kInt8, {1, 2}, {1.0f});
  qs.info.is_variable = true;
  SvdfTensors q{&qin.info, &qwf.info, &qwt.info, &qb.info, &qs.info, &qout.info};
  st = PrepareSvdf(o, q, &d, &data);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(st.message()).find("bias scale"), std::string::npos);
  // An int8 state with int16 time weights: TFLM would read it as int16.
  TestTensor qs8(TensorType::kInt8, {1, 4}, {1.0f});
  qs8.info.is_variable = true;
  qb.scale[0] = 0.5f;
  q.state = &qs8.info;
  EXPECT_EQ(PrepareSvdf(o, q, &d, &data).code(), StatusCode::kUnimplemented);
}

TEST(SvdfPersistent, OpDataIsTflms36BytesAndOptionsParse) {
  EXPECT_EQ(sizeof(SvdfOpData), 36u);
  EXPECT_EQ(Register_SVDF().builtin_code, model::kBuiltinSvdf);
  EXPECT_EQ(Register_SVDF().options.table_type, 6);  // SVDFOptions
  OptionsTableBuilder b;
  b.Add<int32_t>(0, 3).Add<uint8_t>(1, 4).Add<uint8_t>(2, 1);
  model::OptionsTable table = b.Build(6);
  SvdfOptions o;
  ASSERT_TRUE(Parse(Register_SVDF(), table, &o).ok());
  EXPECT_EQ(o.rank, 3);
  EXPECT_EQ(o.activation, model::Activation::kTanh);
  EXPECT_TRUE(o.asymmetric_quantize_inputs);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
