// TRANSPOSE: a hand-checked permutation and the prepare checks. Parity with
// TFLM: tests_py/test_kernel_transpose.py.
#include "tflm_arena/runtime/kernels/transpose.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

TEST(TransposeMath, PermutesAxes) {
  // [2, 3, 2] with perm [2, 0, 1] -> [2, 2, 3].
  const int32_t in_shape[3] = {2, 3, 2}, out_shape[3] = {2, 2, 3}, perm[3] = {2, 0, 1};
  ASSERT_TRUE(PrepareTranspose(in_shape, 3, perm, 3, out_shape, 3).ok());
  std::vector<int16_t> in(12);
  for (int i = 0; i < 12; ++i) in[i] = static_cast<int16_t>(i);
  std::vector<int16_t> out(12, -1);
  TransposeCopy(in_shape, 3, perm, 2, reinterpret_cast<const uint8_t*>(in.data()),
                reinterpret_cast<uint8_t*>(out.data()));
  // out[c][a][b] = in[a][b][c] = 6a + 2b + c.
  EXPECT_EQ(out, (std::vector<int16_t>{0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11}));
}

TEST(TransposeMath, PrepareRefusesBadPerms) {
  const int32_t in_shape[2] = {2, 3}, out_shape[2] = {3, 2};
  const int32_t repeat[2] = {0, 0}, square[2] = {2, 2};
  Status st = PrepareTranspose(in_shape, 2, repeat, 2, square, 2);
  EXPECT_NE(std::string(st.message()).find("perm repeats axis 0"), std::string::npos)
      << st.message();
  const int32_t out_of_range[2] = {1, 2};
  st = PrepareTranspose(in_shape, 2, out_of_range, 2, out_shape, 2);
  EXPECT_NE(std::string(st.message()).find("perm[1] = 2 outside [0, 2)"), std::string::npos);
  const int32_t identity[2] = {0, 1};
  st = PrepareTranspose(in_shape, 2, identity, 2, out_shape, 2);
  EXPECT_NE(std::string(st.message()).find("output dimension 0 is 3, input dimension 0 is 2"),
            std::string::npos);
  st = PrepareTranspose(in_shape, 2, identity, 1, out_shape, 2);
  EXPECT_NE(std::string(st.message()).find("perm has 1 entries"), std::string::npos);
}

TEST(TransposePersistent, NothingLikeTflm) {
  EXPECT_EQ(Register_TRANSPOSE().init, nullptr);
  EXPECT_EQ(Register_TRANSPOSE().options.parse, nullptr);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
