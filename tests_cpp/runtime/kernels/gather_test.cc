// GATHER: hand-checked gathers (axis, batch_dims), the prepare checks and
// the options parser. Parity with TFLM: tests_py/test_kernel_gather.py.
#include "tflm_arena/runtime/kernels/gather.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(GatherMath, GathersRowsAndColumns) {
  // [3, 2] = 0..5; positions [2, 0] on axis 0 -> [2, 2]; on axis 1 -> [3, 2].
  const int32_t in_shape[2] = {3, 2}, pos_shape[1] = {2};
  const int32_t pos[2] = {2, 0};
  const float in[6] = {0, 1, 2, 3, 4, 5};
  GatherGeometry g;
  const int32_t rows_shape[2] = {2, 2};
  ASSERT_TRUE(PrepareGather({0, 0}, in_shape, 2, pos_shape, 1, rows_shape, 2, &g).ok());
  ASSERT_TRUE(CheckGatherPositions(g, pos).ok());
  std::vector<float> out(4);
  GatherCopy(g, 4, reinterpret_cast<const uint8_t*>(in), pos,
             reinterpret_cast<uint8_t*>(out.data()));
  EXPECT_EQ(out, (std::vector<float>{4, 5, 0, 1}));
  const int32_t cols_pos[2] = {1, 1};
  const int32_t cols_shape[2] = {3, 2};
  ASSERT_TRUE(PrepareGather({-1, 0}, in_shape, 2, pos_shape, 1, cols_shape, 2, &g).ok());
  std::vector<float> cols(6);
  GatherCopy(g, 4, reinterpret_cast<const uint8_t*>(in), cols_pos,
             reinterpret_cast<uint8_t*>(cols.data()));
  EXPECT_EQ(cols, (std::vector<float>{1, 1, 3, 3, 5, 5}));
}

TEST(GatherMath, BatchDimsPickPerBatchPositions) {
  // in [2, 3], positions [2, 1] with batch_dims 1, axis 1 -> [2, 1].
  const int32_t in_shape[2] = {2, 3}, pos_shape[2] = {2, 1}, out_shape[2] = {2, 1};
  const int32_t pos[2] = {2, 0};
  const int8_t in[6] = {0, 1, 2, 3, 4, 5};
  GatherGeometry g;
  ASSERT_TRUE(PrepareGather({1, 1}, in_shape, 2, pos_shape, 2, out_shape, 2, &g).ok());
  int8_t out[2] = {};
  GatherCopy(g, 1, reinterpret_cast<const uint8_t*>(in), pos, reinterpret_cast<uint8_t*>(out));
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[1], 3);
}

TEST(GatherMath, RefusesBadAxesShapesAndPositions) {
  const int32_t in_shape[2] = {3, 2}, pos_shape[1] = {2}, out_shape[2] = {2, 2};
  GatherGeometry g;
  Status st = PrepareGather({2, 0}, in_shape, 2, pos_shape, 1, out_shape, 2, &g);
  EXPECT_NE(std::string(st.message()).find("GATHER: axis 2 outside [-2, 2)"), std::string::npos);
  st = PrepareGather({0, 1}, in_shape, 2, pos_shape, 1, out_shape, 2, &g);
  EXPECT_NE(std::string(st.message()).find("batch_dims 1"), std::string::npos);
  const int32_t wrong[2] = {2, 3};
  st = PrepareGather({0, 0}, in_shape, 2, pos_shape, 1, wrong, 2, &g);
  EXPECT_NE(std::string(st.message()).find("output dimension 1 is 3, the gather's 2"),
            std::string::npos);
  ASSERT_TRUE(PrepareGather({0, 0}, in_shape, 2, pos_shape, 1, out_shape, 2, &g).ok());
  const int32_t past[2] = {0, 3}, negative[2] = {-1, 0};
  st = CheckGatherPositions(g, past);
  EXPECT_NE(std::string(st.message()).find("GATHER: position 3 (entry 1) outside [0, 3)"),
            std::string::npos);
  EXPECT_EQ(CheckGatherPositions(g, negative).code(), StatusCode::kOutOfRange);
}

TEST(GatherOptions, ParsesAxisAndBatchDims) {
  OptionsTableBuilder tb;
  tb.Add<int32_t>(0, -1).Add<int32_t>(1, 1);
  model::OptionsTable table = tb.Build(23);
  GatherOptions o;
  ASSERT_TRUE(Parse(Register_GATHER(), table, &o).ok());
  EXPECT_EQ(o.axis, -1);
  EXPECT_EQ(o.batch_dims, 1);
  EXPECT_EQ(Register_GATHER().init, nullptr);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
