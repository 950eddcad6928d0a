// PACK / UNPACK: hand-checked stacking both ways, the shape check and the
// options parsers. Parity with TFLM: tests_py/test_kernel_pack.py.
#include "tflm_arena/runtime/kernels/pack.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/unpack.h"

namespace tflm_arena {
namespace runtime {
namespace {

using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(PackMath, StacksAndUnstacksAlongTheAxis) {
  // Two [2] pieces stacked on axis 1 -> [2, 2].
  const int32_t piece[1] = {2}, stacked_shape[2] = {2, 2};
  int axis = -1;
  ASSERT_TRUE(CheckStackedShape("PACK", -1, 2, piece, 1, stacked_shape, 2, &axis).ok());
  EXPECT_EQ(axis, 1);
  const int32_t a[2] = {1, 2}, b[2] = {3, 4};
  const uint8_t* pieces[2] = {reinterpret_cast<const uint8_t*>(a),
                              reinterpret_cast<const uint8_t*>(b)};
  int32_t stacked[4] = {};
  StackCopy(2, 4, 2, pieces, reinterpret_cast<uint8_t*>(stacked));
  EXPECT_EQ(std::vector<int32_t>(stacked, stacked + 4), (std::vector<int32_t>{1, 3, 2, 4}));
  int32_t c[2] = {}, d[2] = {};
  uint8_t* outs[2] = {reinterpret_cast<uint8_t*>(c), reinterpret_cast<uint8_t*>(d)};
  UnstackCopy(2, 4, 2, reinterpret_cast<const uint8_t*>(stacked), outs);
  EXPECT_EQ(c[0], 1);
  EXPECT_EQ(c[1], 2);
  EXPECT_EQ(d[0], 3);
  EXPECT_EQ(d[1], 4);
}

TEST(PackMath, RefusesShapesThatDoNotStack) {
  const int32_t piece[1] = {2}, stacked_shape[2] = {3, 2};
  int axis = 0;
  Status st = CheckStackedShape("PACK", 0, 2, piece, 1, stacked_shape, 2, &axis);
  EXPECT_NE(std::string(st.message()).find("PACK: stacked dimension 0 is 3, needs 2"),
            std::string::npos);
  st = CheckStackedShape("UNPACK", 2, 3, piece, 1, stacked_shape, 2, &axis);
  EXPECT_NE(std::string(st.message()).find("UNPACK: axis 2 outside [-2, 2)"), std::string::npos);
  st = CheckStackedShape("PACK", 0, 3, piece, 1, piece, 1, &axis);
  EXPECT_NE(std::string(st.message()).find("has rank 1, the pieces 1"), std::string::npos);
}

TEST(PackOptions, ParsesCountAndAxis) {
  OptionsTableBuilder tb;
  tb.Add<int32_t>(0, 3).Add<int32_t>(1, -1);
  model::OptionsTable table = tb.Build(59);
  PackOptions o;
  ASSERT_TRUE(Parse(Register_PACK(), table, &o).ok());
  EXPECT_EQ(o.values_count, 3);
  EXPECT_EQ(o.axis, -1);
  OptionsTableBuilder ub;
  ub.Add<int32_t>(0, 4).Add<int32_t>(1, 2);
  model::OptionsTable utable = ub.Build(64);
  UnpackOptions u;
  ASSERT_TRUE(Parse(Register_UNPACK(), utable, &u).ok());
  EXPECT_EQ(u.num, 4);
  EXPECT_EQ(u.axis, 2);
  EXPECT_EQ(Register_PACK().init, nullptr);
  EXPECT_EQ(Register_UNPACK().init, nullptr);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
