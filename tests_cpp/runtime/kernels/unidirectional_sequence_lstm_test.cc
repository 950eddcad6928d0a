// UNIDIRECTIONAL_SEQUENCE_LSTM: the int16 sigmoid / tanh against their real
// values, one float step against the LSTM equations (and the state carried
// into a second step), prepare's refusals, TFLM's OpData size and the options
// parser. Bit-exactness against the real TFLM is
// tests_py/test_kernel_unidirectional_sequence_lstm.py (the golden pipeline
// takes at most three operands; this operator has 24).
#include "tflm_arena/runtime/kernels/unidirectional_sequence_lstm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

TEST(LstmMath, Int16SigmoidAndTanhFollowTheRealFunctions) {
  // Inputs in Q3.12 (4096 = 1.0), outputs in Q0.15 (32768 = 1.0).
  const int16_t in[] = {0, 4096, -4096, 12288, -32768, 32767};
  int16_t sig[6], tanh_out[6];
  LstmSigmoidInt16(6, in, sig);
  LstmTanhInt16(0, 0, 6, in, tanh_out);
  EXPECT_EQ(sig[0], 16384);
  EXPECT_EQ(tanh_out[0], 0);
  for (int i = 1; i < 6; ++i) {
    const double x = in[i] / 4096.0;
    EXPECT_NEAR(sig[i], Sigmoid(x) * 32768.0, 2.0) << x;
    EXPECT_NEAR(tanh_out[i], std::fmin(std::tanh(x) * 32768.0, 32767.0), 3.0) << x;
  }
  // A cell state in Q4.11 (scale 2^-11): the input is doubled first
  // (left shift 1), so 2048 means 1.0.
  const int16_t cell[] = {2048, -6144};
  int16_t t[2];
  LstmTanhInt16(0, 1, 2, cell, t);
  EXPECT_NEAR(t[0], std::tanh(1.0) * 32768.0, 3.0);
  EXPECT_NEAR(t[1], std::tanh(-3.0) * 32768.0, 3.0);
}

TEST(LstmMath, FloatStepFollowsTheEquationsAndCarriesTheState) {
  // One unit, one input: gate = act(w_x * x + w_h * h + b).
  LstmParams p;
  p.batch = p.time_steps = p.input_dim = p.state_dim = 1;
  const float wx[4] = {0.5f, -0.25f, 0.75f, 1.0f};  // input, forget, cell, output
  const float wh[4] = {0.1f, 0.2f, -0.3f, 0.4f};
  const float b[4] = {0.0f, 1.0f, 0.1f, -0.2f};
  float h = 0.0f, c = 0.0f, out = 0.0f, buffers[4][1];
  LstmData<float, float, float, float> d;
  const float x = 2.0f;
  d.input = &x;
  for (int g = 0; g < 4; ++g) {
    d.input_weights[g] = &wx[g];
    d.recurrent_weights[g] = &wh[g];
    d.bias[g] = &b[g];
    d.buffers[g] = buffers[g];
  }
  d.hidden_state = &h;
  d.cell_state = &c;
  d.output = &out;
  double hh = 0.0, cc = 0.0;
  for (int step = 0; step < 2; ++step) {
    const double i = Sigmoid(wx[0] * 2.0 + wh[0] * hh + b[0]);
    const double f = Sigmoid(wx[1] * 2.0 + wh[1] * hh + b[1]);
    const double g = std::tanh(wx[2] * 2.0 + wh[2] * hh + b[2]);
    const double o = Sigmoid(wx[3] * 2.0 + wh[3] * hh + b[3]);
    cc = f * cc + i * g;
    hh = std::tanh(cc) * o;
    LstmFloat(p, d);
    EXPECT_NEAR(c, cc, 1e-6) << step;
    EXPECT_NEAR(h, hh, 1e-6) << step;
    EXPECT_EQ(out, h);
  }
  // cell_clip bounds the cell state.
  p.cell_clip = 0.1f;
  LstmFloat(p, d);
  EXPECT_LE(std::fabs(c), 0.1f);
}

// A valid node's operand infos (batch 1, time 2, input 3, state 4): float,
// or int8 (input scale 0.05, weights 0.01, hidden 2^-7, cell 2^-11).
struct FloatNode {
  std::vector<TestTensor> owned;
  LstmTensorInfos infos;
  explicit FloatNode(bool int8 = false) {
    const TensorType act = int8 ? TensorType::kInt8 : TensorType::kFloat32;
    const TensorType bias = int8 ? TensorType::kInt32 : TensorType::kFloat32;
    const TensorType cell = int8 ? TensorType::kInt16 : TensorType::kFloat32;
    auto q = [int8](float s) { return int8 ? std::vector<float>{s} : std::vector<float>{}; };
    owned.reserve(26);
    owned.emplace_back(act, std::vector<int32_t>{1, 2, 3}, q(0.05f));
    for (int i = 0; i < 4; ++i) owned.emplace_back(act, std::vector<int32_t>{4, 3}, q(0.01f));
    for (int i = 0; i < 4; ++i) owned.emplace_back(act, std::vector<int32_t>{4, 4}, q(0.01f));
    for (int i = 0; i < 4; ++i) owned.emplace_back(bias, std::vector<int32_t>{4}, q(1e-5f));
    owned.emplace_back(act, std::vector<int32_t>{1, 4}, q(0.0078125f));       // hidden
    owned.emplace_back(cell, std::vector<int32_t>{1, 4}, q(0.00048828125f));  // cell
    owned.emplace_back(act, std::vector<int32_t>{1, 2, 4}, q(0.0078125f));    // output
    const int operand_of[15] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15, 18, 19};
    for (int k = 0; k < 15; ++k) infos.operand[operand_of[k]] = &owned[k].info;
    owned[13].info.is_variable = owned[14].info.is_variable = true;
    infos.output = &owned[15].info;
  }
};

TEST(LstmPrepare, Int8MultipliersFollowTflmsExpressions) {
  FloatNode n(/*int8=*/true);
  LstmOptions o;
  o.activation = model::Activation::kTanh;
  o.cell_clip = 3.0f;
  LstmParams p;
  const Status st = PrepareLstm(o, n.infos, &p);
  ASSERT_TRUE(st.ok()) << st.message();
  // double(float(0.05 * 0.01)) / 2^-12 = 1099511680 x 2^2 (the product in
  // double would give 1099511620): TFLM's float product.
  EXPECT_EQ(p.input_fc[kForgetGate].multiplier, 1099511680);
  EXPECT_EQ(p.input_fc[kForgetGate].shift, 2);
  EXPECT_EQ(p.cell_scale_power, -11);
  EXPECT_EQ(p.quantized_cell_clip, 6144);  // 3.0 / 2^-11
  // forget x cell: 2^-15 x c / c = 2^-15 -> 2^30 x 2^-14.
  EXPECT_EQ(p.forget_cell_mul.multiplier, 1 << 30);
  EXPECT_EQ(p.forget_cell_mul.shift, -14);
  EXPECT_EQ(p.output_mul.act_min, -128);
}

TEST(LstmPrepare, RefusesWhatTflmDoesNotRun) {
  LstmOptions o;
  o.activation = model::Activation::kTanh;
  LstmParams p;
  {
    FloatNode n;
    ASSERT_TRUE(PrepareLstm(o, n.infos, &p).ok());
    EXPECT_EQ(p.batch, 1);
    EXPECT_EQ(p.time_steps, 2);
    EXPECT_EQ(p.state_dim, 4);
  }
  {
    FloatNode n;  // the cell state must be a variable
    n.owned[14].info.is_variable = false;
    const Status st = PrepareLstm(o, n.infos, &p);
    EXPECT_NE(std::string(st.message()).find("cell state (operand 19) is not a variable"),
              std::string::npos)
        << st.message();
  }
  {
    FloatNode n;  // CIFG (no input gate) is not run by TFLM
    n.infos.operand[1] = nullptr;
    EXPECT_EQ(PrepareLstm(o, n.infos, &p).code(), StatusCode::kInvalidArgument);
  }
  {
    FloatNode n;  // a peephole operand
    n.infos.operand[10] = &n.owned[9].info;
    EXPECT_EQ(PrepareLstm(o, n.infos, &p).code(), StatusCode::kInvalidArgument);
  }
  {
    FloatNode n;  // recurrent weights of the wrong shape
    n.owned[6].shape[1] = 3;
    n.owned[6].info.shape = Span<const int32_t>(n.owned[6].shape.data(), 2);
    EXPECT_EQ(PrepareLstm(o, n.infos, &p).code(), StatusCode::kInvalidArgument);
  }
  {
    FloatNode n;  // the cell gate activation must be TANH
    LstmOptions relu = o;
    relu.activation = model::Activation::kRelu;
    EXPECT_EQ(PrepareLstm(relu, n.infos, &p).code(), StatusCode::kInvalidArgument);
  }
}

TEST(LstmPersistent, OpDataIsTflms688BytesAndOptionsParse) {
  EXPECT_EQ(sizeof(LstmOpData), 688u);
  const KernelRegistration& r = Register_UNIDIRECTIONAL_SEQUENCE_LSTM();
  EXPECT_EQ(r.builtin_code, model::kBuiltinUnidirectionalSequenceLstm);
  EXPECT_EQ(r.options.table_type, 71);  // UnidirectionalSequenceLSTMOptions
  OptionsTableBuilder b;
  b.Add<uint8_t>(0, 4).Add<float>(1, 2.5f).Add<float>(2, 0.0f).Add<uint8_t>(3, 1);
  model::OptionsTable table = b.Build(71);
  LstmOptions o;
  ASSERT_TRUE(Parse(r, table, &o).ok());
  EXPECT_EQ(o.activation, model::Activation::kTanh);
  EXPECT_EQ(o.cell_clip, 2.5f);
  EXPECT_TRUE(o.time_major);
  EXPECT_FALSE(o.diagonal_recurrent_tensors);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
