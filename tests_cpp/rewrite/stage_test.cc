// FindStage on small models built in C++: the operators of the stage, their
// windows and tile options, the cuts, why the stage ends, and the models the
// rewrite refuses outright; ModelMacs by hand.
#include "tflm_arena/rewrite/stage.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "rewrite_test_models.h"
#include "test_builder.h"
#include "tflm_arena/model/builtin_options.h"

namespace tflm_arena {
namespace rewrite {
namespace {

using testing::BuildAndLoad;
using testing::Loaded;
using testing::TModel;
using testing::TOptions;

int32_t Field(const StageOp& op, uint16_t id) {
  for (const model::OptionField& f : op.options)
    if (f.id == id) return f.value;
  return -1000;
}

TEST(FindStage, ChainOfConvDepthwiseAdd) {
  const Loaded l = BuildAndLoad(testing::ChainModel());
  Stage s;
  ASSERT_TRUE(FindStage(l.model, &s).ok());
  EXPECT_EQ(s.input, 0);
  ASSERT_EQ(s.ops.size(), 3u);
  EXPECT_EQ(s.ops[0].kind, StageOpKind::kConv);
  EXPECT_EQ(s.ops[1].kind, StageOpKind::kDepthwise);
  EXPECT_EQ(s.ops[2].kind, StageOpKind::kPointwise);
  EXPECT_EQ(s.ops[2].code, model::kBuiltinAdd);
  EXPECT_EQ(s.ops[0].output, 3);
  EXPECT_EQ(s.ops[1].output, 6);
  EXPECT_EQ(s.ops[2].output, 8);
  // The ADD reads one stage tensor and one constant.
  EXPECT_EQ(s.ops[2].is_activation, (std::vector<bool>{true, false}));
  EXPECT_EQ(s.ops[0].is_activation, (std::vector<bool>{true, false, false}));

  // 3x3 stride 1 SAME on 8: one row of padding before. 3x3 stride 2 SAME on
  // 8: total padding 1, none before.
  EXPECT_EQ(s.ops[0].h.kernel, 3);
  EXPECT_EQ(s.ops[0].h.stride, 1);
  EXPECT_EQ(s.ops[0].h.pad_before, 1);
  EXPECT_EQ(s.ops[0].w.pad_before, 1);
  EXPECT_EQ(s.ops[1].h.stride, 2);
  EXPECT_EQ(s.ops[1].h.pad_before, 0);
  EXPECT_EQ(s.ops[1].w.pad_before, 0);
  EXPECT_EQ(s.ops[2].h.kernel, 1);  // pointwise: the identity window
  EXPECT_EQ(s.ops[2].h.stride, 1);

  // Tile operators run VALID (padding field 0); the rest of the options kept.
  const int32_t valid = static_cast<int32_t>(model::Padding::kValid);
  EXPECT_EQ(Field(s.ops[0], 0), valid);
  EXPECT_EQ(Field(s.ops[0], 1), 1);  // stride_w
  EXPECT_EQ(Field(s.ops[1], 0), valid);
  EXPECT_EQ(Field(s.ops[1], 1), 2);
  EXPECT_EQ(Field(s.ops[1], 3), 1);  // depth_multiplier
  EXPECT_EQ(s.ops[0].options_type, model::kConv2DOptions);

  // Conv: 3 * 3 * 2 per output channel, 4 channels; depthwise: 3 * 3 * 4.
  EXPECT_EQ(s.ops[0].macs_per_output_pixel, 72);
  EXPECT_EQ(s.ops[1].macs_per_output_pixel, 36);

  // Every operator's output is read only by the next one: each is a cut.
  EXPECT_EQ(s.cuts, (std::vector<int32_t>{1, 2, 3}));
  ASSERT_EQ(s.dims.size(), 4u);
  EXPECT_EQ(s.dims.at(0).h, 8);
  EXPECT_EQ(s.dims.at(0).c, 2);
  EXPECT_EQ(s.dims.at(3).c, 4);
  EXPECT_EQ(s.dims.at(6).h, 4);
  EXPECT_EQ(s.dims.at(6).w, 4);
  EXPECT_EQ(s.end_reason, "operator 3 (RESHAPE): not an operator the rewrite tiles");
}

TEST(FindStage, ABranchThatIsReadLaterIsNotACut) {
  const Loaded l = BuildAndLoad(testing::ResidualModel());
  Stage s;
  ASSERT_TRUE(FindStage(l.model, &s).ok());
  ASSERT_EQ(s.ops.size(), 3u);
  // After op 1, t3 is still read by the ADD: the stage cannot end there.
  EXPECT_EQ(s.cuts, (std::vector<int32_t>{1, 3}));
  EXPECT_EQ(s.ops[2].is_activation, (std::vector<bool>{true, true}));
}

TEST(FindStage, DilationEndsTheStage) {
  TModel m = testing::ChainModel();
  m.subgraphs[0].ops[1].dilation = 2;
  const Loaded l = BuildAndLoad(m);
  Stage s;
  ASSERT_TRUE(FindStage(l.model, &s).ok());
  EXPECT_EQ(s.ops.size(), 1u);
  EXPECT_EQ(s.cuts, (std::vector<int32_t>{1}));
  EXPECT_EQ(s.end_reason, "operator 1 (DEPTHWISE_CONV_2D): dilation is not 1");
}

TEST(FindStage, PaddedPoolingEndsTheStage) {
  // MAX_POOL_2D 3x3 stride 2 SAME on 8 x 8: padding after the last row.
  TModel m = testing::ChainModel();
  testing::TOp pool = testing::Window(4, TOptions::kPool2D, {3}, 6, 2);
  pool.filter = 3;
  m.subgraphs[0].tensors[6].shape = {1, 4, 4, 4};
  m.subgraphs[0].ops[1] = pool;
  Stage s;
  {
    const Loaded l = BuildAndLoad(m);
    ASSERT_TRUE(FindStage(l.model, &s).ok());
    EXPECT_EQ(s.ops.size(), 1u);
    EXPECT_NE(s.end_reason.find("operator 1 (MAX_POOL_2D): pooling with padding"),
              std::string::npos)
        << s.end_reason;
  }
  // 2x2 stride 2 VALID: no padding anywhere, the pool joins the stage.
  m.subgraphs[0].ops[1].filter = 2;
  m.subgraphs[0].ops[1].padding = 1;
  const Loaded l = BuildAndLoad(m);
  ASSERT_TRUE(FindStage(l.model, &s).ok());
  ASSERT_EQ(s.ops.size(), 3u);
  EXPECT_EQ(s.ops[1].kind, StageOpKind::kPool);
  EXPECT_EQ(s.ops[1].h.kernel, 2);
  EXPECT_EQ(s.ops[1].h.pad_before, 0);
}

TEST(FindStage, ModelsWithoutOneImageInputHaveNoStage) {
  Stage s;
  {
    TModel m = testing::ChainModel();
    m.subgraphs[0].inputs = {0, 7};
    const Loaded l = BuildAndLoad(m);
    ASSERT_TRUE(FindStage(l.model, &s).ok());
    EXPECT_TRUE(s.ops.empty() && s.cuts.empty());
    EXPECT_EQ(s.end_reason,
              "the model has 2 inputs; the rewrite tiles a model with one image input");
  }
  {
    TModel m = testing::ChainModel();
    m.subgraphs[0].tensors[0].shape = {8, 8, 2};
    const Loaded l = BuildAndLoad(m);
    ASSERT_TRUE(FindStage(l.model, &s).ok());
    EXPECT_TRUE(s.ops.empty() && s.cuts.empty());
    EXPECT_EQ(s.end_reason, "the model input: tensor 0 is not [1, H, W, C]");
  }
}

TEST(FindStage, ModelsTheRewriteRefuses) {
  Stage s;
  {
    TModel m = testing::ChainModel();
    m.subgraphs.push_back(m.subgraphs[0]);
    const Loaded l = BuildAndLoad(m);
    const Status st = FindStage(l.model, &s);
    EXPECT_EQ(st.code(), StatusCode::kFailedPrecondition);
    EXPECT_NE(std::string(st.message()).find("2 subgraphs"), std::string::npos) << st.message();
  }
  {
    TModel m = testing::ChainModel();
    testing::AddOfflinePlan(&m, std::vector<int32_t>(11, -1));
    const Loaded l = BuildAndLoad(m);
    const Status st = FindStage(l.model, &s);
    EXPECT_EQ(st.code(), StatusCode::kFailedPrecondition);
    EXPECT_NE(std::string(st.message()).find("OfflineMemoryAllocation"), std::string::npos)
        << st.message();
  }
}

TEST(ModelMacs, ConvolutionsByHand) {
  const Loaded l = BuildAndLoad(testing::ChainModel());
  // CONV_2D: 8 * 8 * 4 outputs * (3 * 3 * 2); DEPTHWISE: 4 * 4 * 4 * (3 * 3).
  EXPECT_EQ(ModelMacs(l.model), 8 * 8 * 4 * 18 + 4 * 4 * 4 * 9);
}

TEST(SaturatingArithmetic, ClampsAtInt64sEnds) {
  EXPECT_EQ(MulSat(3, 4), 12);
  EXPECT_EQ(MulSat(INT64_MAX / 2, 3), INT64_MAX);
  EXPECT_EQ(MulSat(INT64_MAX / 2, -3), INT64_MIN);
  EXPECT_EQ(AddSat(INT64_MAX, 1), INT64_MAX);
  EXPECT_EQ(AddSat(INT64_MIN, -1), INT64_MIN);
  EXPECT_EQ(AddSat(-5, 7), 2);
}

// A valid model may claim a [0, 2^31-1, 2^31-1, 2^31-1] constant filter
// (zero elements, one inline byte): its MAC count saturates instead of
// overflowing int64 (undefined behaviour, UBSan in the sanitizer pass), and
// the stage stops at its kernel size.
TEST(ModelMacs, AHugeEmptyFilterSaturates) {
  TModel m = testing::ChainModel();
  testing::TTensor& filter = m.subgraphs[0].tensors[1];
  filter.shape = {0, INT32_MAX, INT32_MAX, INT32_MAX};
  filter.buffer = testing::AddConstBuffer(&m, 1);
  const Loaded l = BuildAndLoad(m);
  EXPECT_EQ(ModelMacs(l.model), INT64_MAX);
  Stage s;
  ASSERT_TRUE(FindStage(l.model, &s).ok());
  EXPECT_TRUE(s.ops.empty());
  EXPECT_EQ(s.end_reason, "operator 0 (CONV_2D): a stride or kernel size above 2^24");
}

// PAD t0 [1, 3, 4, 2] by constant paddings t1 -> t2 [1, 1, 4, 2]: paddings
// of 2^31-1 before and after the rows wrap int32 to the output's height
// (3 + 2 * (2^31 - 1) = 1 mod 2^32), which used to make the stage take them.
TEST(FindStage, PaddingsAbove2To24EndTheStage) {
  TModel m;
  m.opcodes = {testing::Builtin(model::kBuiltinPad)};
  testing::TSubgraph sg;
  testing::TTensor paddings;
  paddings.shape = {4, 2};
  paddings.type = testing::kInt32;
  const std::vector<int32_t> pads = {0, 0, INT32_MAX, INT32_MAX, 0, 0, 0, 0};
  testing::TBuffer b;
  b.data.resize(sizeof(int32_t) * pads.size());
  std::memcpy(b.data.data(), pads.data(), b.data.size());
  m.buffers.push_back(b);
  paddings.buffer = static_cast<uint32_t>(m.buffers.size() - 1);
  sg.tensors = {testing::Activation({1, 3, 4, 2}), paddings, testing::Activation({1, 1, 4, 2})};
  sg.inputs = {0};
  sg.outputs = {2};
  sg.ops = {{0, {0, 1}, {2}}};
  m.subgraphs = {sg};
  const Loaded l = BuildAndLoad(m);
  Stage s;
  ASSERT_TRUE(FindStage(l.model, &s).ok());
  EXPECT_TRUE(s.ops.empty());
  EXPECT_EQ(s.end_reason, "operator 0 (PAD): a padding above 2^24");
}

}  // namespace
}  // namespace rewrite
}  // namespace tflm_arena
