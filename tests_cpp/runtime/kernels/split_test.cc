// SPLIT: a hand-checked split, the shape checks and the options parser.
// Parity with TFLM: tests_py/test_kernel_split.py.
#include "tflm_arena/runtime/kernels/split.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(SplitMath, SplitsAlongTheAxis) {
  // [2, 4] into two [2, 2] along axis -1.
  const int32_t in_shape[2] = {2, 4}, out_shape[2] = {2, 2};
  int axis = 0;
  ASSERT_TRUE(CheckSplitOutput(-1, 2, in_shape, 2, out_shape, 2, &axis).ok());
  EXPECT_EQ(axis, 1);
  const int8_t in[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  int8_t a[4] = {}, b[4] = {};
  uint8_t* outs[2] = {reinterpret_cast<uint8_t*>(a), reinterpret_cast<uint8_t*>(b)};
  SplitCopy(2, 2, 2, reinterpret_cast<const uint8_t*>(in), outs);
  EXPECT_EQ(a[0], 0);
  EXPECT_EQ(a[2], 4);
  EXPECT_EQ(b[1], 3);
  EXPECT_EQ(b[3], 7);
}

TEST(SplitMath, RefusesUnevenOrWrongShapes) {
  const int32_t in_shape[2] = {2, 5}, out_shape[2] = {2, 2};
  int axis = 0;
  Status st = CheckSplitOutput(1, 2, in_shape, 2, out_shape, 2, &axis);
  EXPECT_NE(std::string(st.message()).find("SPLIT: axis extent 5 does not split into 2"),
            std::string::npos);
  st = CheckSplitOutput(2, 2, in_shape, 2, out_shape, 2, &axis);
  EXPECT_NE(std::string(st.message()).find("axis 2 outside [-2, 2)"), std::string::npos);
  const int32_t even[2] = {2, 4}, wrong[2] = {1, 2};
  st = CheckSplitOutput(1, 2, even, 2, wrong, 2, &axis);
  EXPECT_NE(std::string(st.message()).find("output dimension 0 is 1, needs 2"), std::string::npos);
}

TEST(SplitOptions, ParsesNumSplits) {
  OptionsTableBuilder tb;
  tb.Add<int32_t>(0, 3);
  model::OptionsTable table = tb.Build(35);
  SplitOptions o;
  ASSERT_TRUE(Parse(Register_SPLIT(), table, &o).ok());
  EXPECT_EQ(o.num_splits, 3);
  EXPECT_EQ(Register_SPLIT().init, nullptr);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
