// TileStage on the chain model of rewrite_test_models.h: the tilings it
// refuses (with the fault named), and one 2 x 2 tiling worked by hand (the
// halo the convolution recomputes, the joins, the written model).
#include "tflm_arena/rewrite/tiled_stage.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rewrite_test_models.h"
#include "test_builder.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/graph_edit_writer.h"
#include "tflm_arena/rewrite/rewrite.h"

namespace tflm_arena {
namespace rewrite {
namespace {

using testing::BuildAndLoad;
using testing::Loaded;

std::string Refusal(const model::Model& m, const Stage& s, const Tiling& t) {
  TiledStage out;
  const Status st = TileStage(m, s, t, &out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << t.length << " " << t.rows << "x" << t.cols;
  return st.message();
}

TEST(TileStage, RefusesTilingsThatDoNotFit) {
  const Loaded l = BuildAndLoad(testing::ResidualModel());
  Stage s;
  ASSERT_TRUE(FindStage(l.model, &s).ok());
  ASSERT_EQ(s.cuts, (std::vector<int32_t>{1, 3}));
  // Length 2 is not a cut (t3 is still read by the ADD); 0 and 4 are no
  // stage lengths at all.
  for (int32_t length : {0, 2, 4}) {
    EXPECT_EQ(Refusal(l.model, s, {length, 2, 2}),
              "the stage cannot end after " + std::to_string(length) +
                  " operators (no single tensor carries it to the rest of the model there)");
  }
  // The cut tensor is 6 x 6.
  EXPECT_EQ(Refusal(l.model, s, {3, 0, 2}),
            "0 x 2 tiles do not fit a 6 x 6 stage output (1 to min(extent, 10) per axis)");
  EXPECT_EQ(Refusal(l.model, s, {3, 2, -1}),
            "2 x -1 tiles do not fit a 6 x 6 stage output (1 to min(extent, 10) per axis)");
  EXPECT_EQ(Refusal(l.model, s, {3, 7, 1}),
            "7 x 1 tiles do not fit a 6 x 6 stage output (1 to min(extent, 10) per axis)");
  EXPECT_EQ(Refusal(l.model, s, {1, 1, 1}), "1 x 1 tiles is the original model");
  TiledStage out;
  EXPECT_TRUE(TileStage(l.model, s, {3, 6, 6}, &out).ok());
}

TEST(TileStage, AtMostTenTilesPerAxis) {
  // An input of 24 x 24 (stride-1 convolution: a 24 x 24 cut tensor).
  testing::TModel m = testing::ResidualModel();
  for (int32_t t : {0, 3, 4, 5})
    m.subgraphs[0].tensors[static_cast<size_t>(t)].shape = {1, 24, 24, 2};
  m.subgraphs[0].tensors[7].shape = {1, 24 * 24 * 2};
  const Loaded l = BuildAndLoad(m);
  Stage s;
  ASSERT_TRUE(FindStage(l.model, &s).ok());
  EXPECT_EQ(Refusal(l.model, s, {1, 11, 1}),
            "11 x 1 tiles do not fit a 24 x 24 stage output (1 to min(extent, 10) per axis)");
  TiledStage out;
  EXPECT_TRUE(TileStage(l.model, s, {1, 10, 10}, &out).ok());
}

// 2 x 2 tiles of t6 (4 x 4, the DEPTHWISE output). Depthwise 3x3 stride 2
// with no padding before: output rows [0, 2) read rows [0, 5) of t3, rows
// [2, 4) read [4, 9), of which [4, 8) exist. So the CONV_2D is computed on
// 5 + 4 = 9 rows and 9 columns instead of 8: 81 pixels, 72 MACs each.
TEST(TileStage, TwoByTwoByHand) {
  const Loaded l = BuildAndLoad(testing::ChainModel());
  Stage s;
  ASSERT_TRUE(FindStage(l.model, &s).ok());
  TiledStage t;
  ASSERT_TRUE(TileStage(l.model, s, {2, 2, 2}, &t).ok());
  EXPECT_EQ(t.stage_macs, 8 * 8 * 72 + 4 * 4 * 36);
  EXPECT_EQ(t.tiled_macs, 9 * 9 * 72 + 4 * 4 * 36);
  EXPECT_EQ(t.new_operators, static_cast<int32_t>(t.edit.operators.size()));

  // The order: the new operators, then the rest of the model unchanged.
  ASSERT_GE(t.edit.order.size(), 2u);
  const model::OperatorRef& last = t.edit.order.back();
  const model::OperatorRef& before = t.edit.order[t.edit.order.size() - 2];
  EXPECT_FALSE(last.is_new);
  EXPECT_EQ(last.index, 3);
  EXPECT_FALSE(before.is_new);
  EXPECT_EQ(before.index, 2);
  for (size_t i = 0; i + 2 < t.edit.order.size(); ++i) EXPECT_TRUE(t.edit.order[i].is_new) << i;
  EXPECT_EQ(t.edit.order.size(), static_cast<size_t>(t.new_operators) + 2);

  // Per tile one CONV_2D and one DEPTHWISE_CONV_2D (VALID), with the
  // original filters and biases; joined by 2 CONCATENATIONs along width and
  // one along height into t6 itself.
  int convs = 0, depthwise = 0, concats = 0;
  for (const model::NewOperator& op : t.edit.operators) {
    if (op.builtin_code == model::kBuiltinConv2D) {
      ++convs;
      ASSERT_EQ(op.inputs.size(), 3u);
      EXPECT_EQ(op.inputs[1], 1);
      EXPECT_EQ(op.inputs[2], 2);
    } else if (op.builtin_code == model::kBuiltinDepthwiseConv2D) {
      ++depthwise;
      EXPECT_EQ(op.inputs[1], 4);
    } else if (op.builtin_code == model::kBuiltinConcatenation) {
      ++concats;
    }
    for (const model::OptionField& f : op.options) {
      if ((op.builtin_code == model::kBuiltinConv2D ||
           op.builtin_code == model::kBuiltinDepthwiseConv2D) &&
          f.id == 0) {
        EXPECT_EQ(f.value, static_cast<int32_t>(model::Padding::kValid));
      }
    }
  }
  EXPECT_EQ(convs, 4);
  EXPECT_EQ(depthwise, 4);
  EXPECT_EQ(concats, 3);
  ASSERT_EQ(t.edit.operators[static_cast<size_t>(t.edit.order[t.new_operators - 1].index)].outputs,
            (std::vector<int32_t>{6}));
  // t3, the convolution's whole output, is replaced by tiles.
  EXPECT_EQ(t.edit.emptied, (std::vector<int32_t>{3}));

  // The edit writes a model that loads and has the stage's new shape.
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(model::WriteGraphEdit(l.bytes.data(), l.bytes.size(), t.edit, &bytes).ok());
  const model::Model written = testing::MustLoad(bytes);
  model::SubgraphInfo sg;
  ASSERT_TRUE(written.subgraph(0, &sg).ok());
  EXPECT_EQ(sg.num_operators, t.edit.order.size());
  model::TensorInfo t3;
  ASSERT_TRUE(written.tensor(0, 3, &t3).ok());
  ASSERT_EQ(t3.shape.size(), 1u);
  EXPECT_EQ(t3.shape[0], 0);
}

// A stage split in two: the CONV_2D in 2 x 2 tiles, then, from its joined
// output held whole, DEPTHWISE_CONV_2D and ADD in 2 x 1 tiles.
TEST(WriteTilings, TwoStagesOneAfterTheOther) {
  const Loaded l = BuildAndLoad(testing::ChainModel());
  std::vector<uint8_t> one, two;
  ASSERT_TRUE(WriteTiling(l.model.data(), l.model.size(), {1, 2, 2}, &one).ok());
  ASSERT_TRUE(WriteTilings(l.model.data(), l.model.size(), {1, 2, 2}, {2, 2, 1}, &two).ok());
  std::vector<uint8_t> copy1(one), copy2(two);  // vectors' storage is 16-byte aligned here
  model::Model m1, m2;
  ASSERT_TRUE(model::Model::FromBuffer(copy1.data(), copy1.size(), &m1).ok());
  ASSERT_TRUE(model::Model::FromBuffer(copy2.data(), copy2.size(), &m2).ok());
  // After the first part: its tiles and join, then ops 1..3 unchanged.
  const size_t start = m1.num_operators(0) - 3;
  Stage b;
  ASSERT_TRUE(FindStageFrom(m1, static_cast<int32_t>(start), 3, &b).ok());
  EXPECT_EQ(b.start_op, static_cast<int32_t>(start));
  ASSERT_EQ(b.ops.size(), 2u);
  EXPECT_EQ(b.ops[0].code, model::kBuiltinDepthwiseConv2D);
  EXPECT_EQ(b.cuts, (std::vector<int32_t>{1, 2}));
  // The second part keeps the first part's operators and the final RESHAPE.
  model::OperatorInfo last;
  ASSERT_TRUE(m2.op(0, m2.num_operators(0) - 1, &last).ok());
  EXPECT_EQ(last.builtin_code, model::kBuiltinReshape);
  model::OperatorInfo first1, first2;
  ASSERT_TRUE(m1.op(0, 0, &first1).ok());
  ASSERT_TRUE(m2.op(0, 0, &first2).ok());
  EXPECT_EQ(first1.builtin_code, first2.builtin_code);
  EXPECT_GT(m2.num_operators(0), m1.num_operators(0));
  // t6, inside the second part, is emptied; t3, its whole input, is not.
  model::TensorInfo t3, t6;
  ASSERT_TRUE(m2.tensor(0, 3, &t3).ok());
  ASSERT_TRUE(m2.tensor(0, 6, &t6).ok());
  EXPECT_EQ(t3.num_elements, 8u * 8u * 4u);
  EXPECT_EQ(t6.num_elements, 0u);
  // A second part that cannot end there is refused by name.
  const Status s = WriteTilings(l.model.data(), l.model.size(), {1, 2, 2}, {3, 2, 1}, &two);
  EXPECT_FALSE(s.ok());
}

}  // namespace
}  // namespace rewrite
}  // namespace tflm_arena
