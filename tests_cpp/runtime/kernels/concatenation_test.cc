// CONCATENATION: a hand-checked join, the shape checks, TFLM's OpData size
// and the options parser. Parity with TFLM: tests_py/test_kernel_concatenation.py.
#include "tflm_arena/runtime/kernels/concatenation.h"

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

TEST(ConcatenationMath, JoinsAlongTheAxis) {
  // [2, 1] and [2, 2] along axis -1 -> [2, 3].
  const int32_t a_shape[2] = {2, 1}, b_shape[2] = {2, 2}, out_shape[2] = {2, 3};
  const int32_t* shapes[2] = {a_shape, b_shape};
  int axis = 0;
  ASSERT_TRUE(PrepareConcatenation(-1, shapes, 2, out_shape, 2, &axis).ok());
  EXPECT_EQ(axis, 1);
  const int32_t a[2] = {1, 2}, b[4] = {3, 4, 5, 6};
  const uint8_t* inputs[2] = {reinterpret_cast<const uint8_t*>(a),
                              reinterpret_cast<const uint8_t*>(b)};
  std::vector<int32_t> out(6, 0);
  ConcatenationCopy(axis, shapes, inputs, 2, out_shape, 2, 4,
                    reinterpret_cast<uint8_t*>(out.data()));
  EXPECT_EQ(out, (std::vector<int32_t>{1, 3, 4, 2, 5, 6}));
}

TEST(ConcatenationMath, PrepareRefusesShapesThatDoNotJoin) {
  const int32_t a_shape[2] = {2, 1}, b_shape[2] = {3, 2}, out_shape[2] = {2, 3};
  const int32_t* shapes[2] = {a_shape, b_shape};
  int axis = 0;
  Status st = PrepareConcatenation(1, shapes, 2, out_shape, 2, &axis);
  EXPECT_NE(std::string(st.message()).find("input 1 has extent 3 on dimension 0, the output 2"),
            std::string::npos);
  const int32_t wide[2] = {2, 4};
  st = PrepareConcatenation(1, shapes, 1, wide, 2, &axis);
  EXPECT_NE(std::string(st.message()).find("inputs sum to 1 along axis 1, the output has 4"),
            std::string::npos);
  st = PrepareConcatenation(2, shapes, 1, out_shape, 2, &axis);
  EXPECT_NE(std::string(st.message()).find("axis 2 outside [-2, 2)"), std::string::npos);
  st = PrepareConcatenation(-3, shapes, 1, out_shape, 2, &axis);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
}

TEST(ConcatenationPersistent, TflmOpDataSize) {
  if (sizeof(void*) == 8) EXPECT_EQ(kConcatenationPersistentBytes, 80u);
  EXPECT_EQ(sizeof(ConcatenationOptions), 8u);
}

TEST(ConcatenationOptions, ParsesAxisAndActivation) {
  OptionsTableBuilder tb;
  tb.Add<int32_t>(0, -2).Add<uint8_t>(1, 3);
  model::OptionsTable table = tb.Build(10);
  ConcatenationOptions o;
  ASSERT_TRUE(Parse(Register_CONCATENATION(), table, &o).ok());
  EXPECT_EQ(o.axis, -2);
  EXPECT_EQ(o.activation, 3);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
