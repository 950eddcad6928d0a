#include "tflm_arena/core/align.h"

#include <cstdint>

#include "gtest/gtest.h"

namespace tflm_arena {
namespace {

TEST(AlignTest, SizeUpDown) {
  EXPECT_EQ(AlignSizeUp(0, 16), 0u);
  EXPECT_EQ(AlignSizeUp(1, 16), 16u);
  EXPECT_EQ(AlignSizeUp(16, 16), 16u);
  EXPECT_EQ(AlignSizeUp(17, 16), 32u);
  EXPECT_EQ(AlignSizeUp(5, 3), 6u);
  EXPECT_EQ(AlignSizeDown(31, 16), 16u);
}

TEST(AlignTest, Pointers) {
  alignas(16) uint8_t buf[64];
  EXPECT_EQ(AlignPointerUp(buf + 1, 16), buf + 16);
  EXPECT_EQ(AlignPointerUp(buf, 16), buf);
  EXPECT_EQ(AlignPointerDown(buf + 31, 16), buf + 16);
}

}  // namespace
}  // namespace tflm_arena
