// ConvPadding (kernel_shapes.h) against TFLM's padding.h arithmetic, worked
// out by hand: out = ceil(in / stride) (SAME) or ceil((in - effective + 1) /
// stride) (VALID); padding = max((out - 1) * stride + effective - in, 0) / 2.
#include "tflm_arena/tflm/kernel_shapes.h"

#include <gtest/gtest.h>

namespace tflm_arena {
namespace tflm {
namespace {

constexpr model::Padding kSame = model::Padding::kSame;
constexpr model::Padding kValid = model::Padding::kValid;

TEST(ConvPadding, Same) {
  EXPECT_EQ(ConvPadding(kSame, 1, 1, 8, 3), 1);  // out 8: (7 + 3 - 8) / 2
  EXPECT_EQ(ConvPadding(kSame, 2, 1, 7, 3), 1);  // out 4: (6 + 3 - 7) / 2
  EXPECT_EQ(ConvPadding(kSame, 2, 1, 8, 3), 0);  // out 4: (6 + 3 - 8) / 2, rounded down
  EXPECT_EQ(ConvPadding(kSame, 1, 2, 8, 3), 2);  // effective 5, out 8: (7 + 5 - 8) / 2
}

TEST(ConvPadding, ValidNeedsNone) {
  EXPECT_EQ(ConvPadding(kValid, 1, 1, 8, 3), 0);
  EXPECT_EQ(ConvPadding(kValid, 2, 2, 9, 3), 0);
}

TEST(ConvPadding, ArgumentsTflmRejectGiveZero) {
  EXPECT_EQ(ConvPadding(kSame, 0, 1, 8, 3), 0);
  EXPECT_EQ(ConvPadding(kSame, 1, 0, 8, 3), 0);
  EXPECT_EQ(ConvPadding(kSame, 1, 1, 8, 0), 0);
  EXPECT_EQ(ConvPadding(kSame, 1, 1, -1, 3), 0);
  EXPECT_EQ(ConvPadding(kValid, 1, 1, 2, 5), 0);  // filter wider than the input: out < 0
}

// A padding value the schema lacks: TFLM's parser gives
// kTfLitePaddingUnknown, ComputeOutSize 0, and the padding follows from
// that output size: max(-stride + effective - in, 0) / 2.
TEST(ConvPadding, UnknownPaddingIsComputedFromAnOutputOfZero) {
  const model::Padding unknown = static_cast<model::Padding>(7);
  EXPECT_EQ(ConvPadding(unknown, 1, 1, 8, 3), 0);   // -1 + 3 - 8 < 0
  EXPECT_EQ(ConvPadding(unknown, 1, 1, 8, 12), 1);  // (-1 + 12 - 8) / 2
  EXPECT_EQ(ConvPadding(unknown, 2, 2, 4, 6), 2);   // effective 11: (-2 + 11 - 4) / 2
}

}  // namespace
}  // namespace tflm
}  // namespace tflm_arena
