// PAD / PADV2: a hand-checked padding, the prepare checks, TFLM's OpData
// size. Parity with TFLM over many cases: tests_py/test_kernel_pad.py.
#include "tflm_arena/runtime/kernels/pad.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

TEST(PadMath, PadsEveryAxis) {
  // [2, 2] -> [3, 5]: one row above, one column left, two right.
  const int32_t in_shape[2] = {2, 2}, out_shape[2] = {3, 5};
  const int32_t paddings[4] = {1, 0, 1, 2};
  PadOpData data;
  ASSERT_TRUE(PreparePad("PAD", in_shape, 2, out_shape, 2, paddings, 4, &data).ok());
  EXPECT_EQ(data.resizing_category, 2);
  const int16_t in[4] = {1, 2, 3, 4};
  const int16_t pad = -7;
  std::vector<int16_t> out(15, 0);
  PadCopy(data, in_shape, 2, 2, reinterpret_cast<const uint8_t*>(in), &pad,
          reinterpret_cast<uint8_t*>(out.data()));
  EXPECT_EQ(out, (std::vector<int16_t>{-7, -7, -7, -7, -7, -7, 1, 2, -7, -7, -7, 3, 4, -7, -7}));
}

TEST(PadMath, UnpaddedTrailingDimensionsJoinTheRow) {
  // [2, 1, 2] padded (1, 1) on axis 1 only: rows of 2 become one run.
  const int32_t in_shape[3] = {2, 1, 2}, out_shape[3] = {2, 3, 2};
  const int32_t paddings[6] = {0, 0, 1, 1, 0, 0};
  PadOpData data;
  ASSERT_TRUE(PreparePad("PAD", in_shape, 3, out_shape, 3, paddings, 6, &data).ok());
  const int8_t in[4] = {1, 2, 3, 4};
  const int8_t pad = 9;
  std::vector<int8_t> out(12, 0);
  PadCopy(data, in_shape, 3, 1, reinterpret_cast<const uint8_t*>(in), &pad,
          reinterpret_cast<uint8_t*>(out.data()));
  EXPECT_EQ(out, (std::vector<int8_t>{9, 9, 1, 2, 9, 9, 9, 9, 3, 4, 9, 9}));
  // Nothing padded at all: a plain copy.
  const int32_t none[6] = {0, 0, 0, 0, 0, 0};
  ASSERT_TRUE(PreparePad("PAD", in_shape, 3, in_shape, 3, none, 6, &data).ok());
  std::vector<int8_t> same(4, 0);
  PadCopy(data, in_shape, 3, 1, reinterpret_cast<const uint8_t*>(in), &pad,
          reinterpret_cast<uint8_t*>(same.data()));
  EXPECT_EQ(same, (std::vector<int8_t>{1, 2, 3, 4}));
}

TEST(PadMath, PrepareRefusesBadPaddings) {
  const int32_t in_shape[2] = {2, 2}, out_shape[2] = {3, 5};
  PadOpData data;
  const int32_t wrong[4] = {1, 0, 1, 1};
  Status st = PreparePad("PAD", in_shape, 2, out_shape, 2, wrong, 4, &data);
  EXPECT_NE(std::string(st.message()).find("output dimension 1 is 5, input + paddings make 4"),
            std::string::npos);
  const int32_t negative[4] = {1, 0, -1, 4};
  st = PreparePad("PADV2", in_shape, 2, out_shape, 2, negative, 4, &data);
  EXPECT_NE(std::string(st.message()).find("PADV2: negative padding (-1, 4) on dimension 1"),
            std::string::npos);
  st = PreparePad("PAD", in_shape, 2, out_shape, 2, negative, 3, &data);
  EXPECT_NE(std::string(st.message()).find("paddings has 3 entries, needs 4"), std::string::npos);
  // Image style: 4D, no batch or channel padding.
  const int32_t in4[4] = {1, 2, 2, 3}, out4[4] = {1, 4, 3, 3};
  const int32_t image[8] = {0, 0, 1, 1, 0, 1, 0, 0};
  ASSERT_TRUE(PreparePad("PAD", in4, 4, out4, 4, image, 8, &data).ok());
  EXPECT_EQ(data.resizing_category, 1);
}

TEST(PadPersistent, TflmOpDataSize) {
  EXPECT_EQ(kPadPersistentBytes, 56u);
  EXPECT_NE(Register_PAD().init, nullptr);
  EXPECT_NE(Register_PADV2().init, nullptr);
  EXPECT_EQ(Register_PAD().options.parse, nullptr);  // TFLM's parser allocates nothing
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
