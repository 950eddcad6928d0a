// EXPAND_DIMS: TFLM's output shape check. Parity with TFLM:
// tests_py/test_kernel_expand_dims.py.
#include "tflm_arena/runtime/kernels/expand_dims.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

TEST(ExpandDimsMath, ChecksTheInsertedDimension) {
  const int32_t in[2] = {3, 4};
  const int32_t front[3] = {1, 3, 4}, middle[3] = {3, 1, 4}, back[3] = {3, 4, 1};
  EXPECT_TRUE(CheckExpandDims(0, in, 2, front, 3).ok());
  EXPECT_TRUE(CheckExpandDims(1, in, 2, middle, 3).ok());
  EXPECT_TRUE(CheckExpandDims(-1, in, 2, back, 3).ok());
  EXPECT_TRUE(CheckExpandDims(-3, in, 2, front, 3).ok());
  Status st = CheckExpandDims(0, in, 2, middle, 3);
  EXPECT_NE(std::string(st.message()).find("EXPAND_DIMS: output dimension 0 is 3, needs 1"),
            std::string::npos);
  st = CheckExpandDims(3, in, 2, back, 3);
  EXPECT_NE(std::string(st.message()).find("axis 3 outside [-3, 2]"), std::string::npos);
  st = CheckExpandDims(0, in, 2, in, 2);
  EXPECT_NE(std::string(st.message()).find("output rank 2, needs 3"), std::string::npos);
  EXPECT_EQ(Register_EXPAND_DIMS().init, nullptr);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
