// Tile geometry: ranges, the input window of an output range on hand-worked
// convolutions (TFLM's SAME padding puts total / 2 before, the rest after),
// the SAME / VALID output extents and the even split of an axis.
#include "tflm_arena/rewrite/tile_geometry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tflm_arena {
namespace rewrite {
namespace {

TEST(Range, SizeAndEmpty) {
  EXPECT_EQ((Range{2, 5}).size(), 3);
  EXPECT_FALSE((Range{2, 5}).empty());
  EXPECT_EQ((Range{5, 5}).size(), 0);
  EXPECT_TRUE((Range{5, 5}).empty());
  EXPECT_EQ((Range{6, 2}).size(), 0);  // reversed: empty, never negative
  EXPECT_TRUE((Range{6, 2}).empty());
  EXPECT_EQ((Range{-1, 3}).size(), 4);  // ranges before clipping start below 0
  EXPECT_TRUE((Range{1, 2}) == (Range{1, 2}));
  EXPECT_TRUE((Range{1, 2}) != (Range{1, 3}));
}

TEST(Range, Hull) {
  EXPECT_EQ(Hull({2, 5}, {7, 9}), (Range{2, 9}));  // a gap between them is covered
  EXPECT_EQ(Hull({7, 9}, {2, 5}), (Range{2, 9}));
  EXPECT_EQ(Hull({0, 10}, {3, 4}), (Range{0, 10}));
  EXPECT_EQ(Hull({-2, 1}, {0, 3}), (Range{-2, 3}));
  // An empty range holds nothing, wherever it sits.
  EXPECT_EQ(Hull({}, {3, 4}), (Range{3, 4}));
  EXPECT_EQ(Hull({3, 4}, {20, 20}), (Range{3, 4}));
  EXPECT_EQ(Hull({9, 1}, {3, 4}), (Range{3, 4}));
  EXPECT_TRUE(Hull({}, {}).empty());
}

TEST(Range, Intersect) {
  EXPECT_EQ(Intersect({2, 5}, {4, 9}), (Range{4, 5}));
  EXPECT_EQ(Intersect({-1, 7}, {0, 6}), (Range{0, 6}));  // clipping a halo to the image
  EXPECT_EQ(Intersect({0, 6}, {2, 3}), (Range{2, 3}));
  // Disjoint or touching: the canonical empty range.
  EXPECT_EQ(Intersect({0, 3}, {5, 8}), (Range{}));
  EXPECT_EQ(Intersect({0, 3}, {3, 8}), (Range{}));
  EXPECT_EQ(Intersect({}, {0, 8}), (Range{}));
}

// 3x3, stride 1, padding 1 (SAME on any input): output o reads [o - 1, o + 2).
TEST(InputRange, ThreeByThreeStrideOnePadOne) {
  const Window w{3, 1, 1};
  EXPECT_EQ(InputRange(w, {0, 1}), (Range{-1, 2}));
  EXPECT_EQ(InputRange(w, {0, 4}), (Range{-1, 5}));
  EXPECT_EQ(InputRange(w, {2, 3}), (Range{1, 4}));
  EXPECT_EQ(InputRange(w, {3, 8}), (Range{2, 9}));
  // Two tiles of an 8-row output: each reads one halo row across the cut.
  EXPECT_EQ(InputRange(w, {0, 4}), (Range{-1, 5}));
  EXPECT_EQ(InputRange(w, {4, 8}), (Range{3, 9}));
  EXPECT_TRUE(InputRange(w, {4, 4}).empty());
}

// 3x3 stride 2 SAME on an even input (8): output 4, total padding
// (4 - 1) * 2 + 3 - 8 = 1, all of it after (1 / 2 = 0 before).
TEST(InputRange, ThreeByThreeStrideTwoSameEvenInput) {
  ASSERT_EQ(SameOutput(8, 2), 4);
  ASSERT_EQ(SamePadBefore(8, 3, 2), 0);
  const Window w{3, 2, SamePadBefore(8, 3, 2)};
  EXPECT_EQ(InputRange(w, {0, 4}), (Range{0, 9}));  // index 8: the one padding row after
  EXPECT_EQ(InputRange(w, {0, 1}), (Range{0, 3}));
  EXPECT_EQ(InputRange(w, {1, 2}), (Range{2, 5}));
  EXPECT_EQ(InputRange(w, {2, 4}), (Range{4, 9}));
  EXPECT_EQ(InputRange(w, {3, 4}), (Range{6, 9}));
}

// 3x3 stride 2 SAME on an odd input (7): output 4, total padding
// (4 - 1) * 2 + 3 - 7 = 2, one before and one after.
TEST(InputRange, ThreeByThreeStrideTwoSameOddInput) {
  ASSERT_EQ(SameOutput(7, 2), 4);
  ASSERT_EQ(SamePadBefore(7, 3, 2), 1);
  const Window w{3, 2, SamePadBefore(7, 3, 2)};
  EXPECT_EQ(InputRange(w, {0, 4}), (Range{-1, 8}));  // -1 and 7: one padding row each side
  EXPECT_EQ(InputRange(w, {0, 1}), (Range{-1, 2}));
  EXPECT_EQ(InputRange(w, {1, 3}), (Range{1, 6}));
  EXPECT_EQ(InputRange(w, {3, 4}), (Range{5, 8}));
}

TEST(InputRange, PointwiseAndValid) {
  // The identity window of a pointwise operator.
  const Window id;
  EXPECT_EQ(InputRange(id, {3, 7}), (Range{3, 7}));
  // 5x5 VALID stride 1 on 12 rows: output 8, output o reads [o, o + 5).
  ASSERT_EQ(ValidOutput(12, 5, 1), 8);
  EXPECT_EQ(InputRange({5, 1, 0}, {0, 8}), (Range{0, 12}));
  EXPECT_EQ(InputRange({5, 1, 0}, {6, 8}), (Range{6, 12}));
  // 2x2 pool stride 2 VALID: no overlap between outputs.
  EXPECT_EQ(InputRange({2, 2, 0}, {1, 3}), (Range{2, 6}));
}

TEST(Padding, SamePadBefore) {
  EXPECT_EQ(SamePadBefore(10, 3, 1), 1);  // total 2
  EXPECT_EQ(SamePadBefore(10, 5, 1), 2);  // total 4
  EXPECT_EQ(SamePadBefore(10, 4, 1), 1);  // total 3: 1 before, 2 after
  EXPECT_EQ(SamePadBefore(9, 3, 2), 1);   // output 5, total 2
  EXPECT_EQ(SamePadBefore(2, 5, 2), 1);   // output 1, total 3
  EXPECT_EQ(SamePadBefore(8, 1, 2), 0);   // total (4 - 1) * 2 + 1 - 8 < 0: none
  EXPECT_EQ(SamePadBefore(8, 1, 1), 0);
  EXPECT_EQ(SamePadBefore(224, 3, 2), 0);  // MobileNet's first convolution: total 1
  EXPECT_EQ(SamePadBefore(96, 3, 2), 0);
  EXPECT_EQ(SamePadBefore(97, 3, 2), 1);
}

TEST(Padding, OutputSizes) {
  EXPECT_EQ(SameOutput(7, 2), 4);
  EXPECT_EQ(SameOutput(8, 2), 4);
  EXPECT_EQ(SameOutput(1, 2), 1);
  EXPECT_EQ(SameOutput(5, 1), 5);
  EXPECT_EQ(SameOutput(224, 2), 112);
  EXPECT_EQ(SameOutput(10, 3), 4);
  EXPECT_EQ(ValidOutput(8, 3, 2), 3);
  EXPECT_EQ(ValidOutput(7, 3, 2), 3);
  EXPECT_EQ(ValidOutput(3, 3, 1), 1);
  EXPECT_EQ(ValidOutput(2, 3, 1), 0);  // the kernel does not fit
  EXPECT_EQ(ValidOutput(10, 3, 1), 8);
  EXPECT_EQ(ValidOutput(10, 1, 3), 4);
}

TEST(SplitEvenly, HandWorked) {
  EXPECT_EQ(SplitEvenly(10, 3), (std::vector<Range>{{0, 4}, {4, 7}, {7, 10}}));
  EXPECT_EQ(SplitEvenly(8, 2), (std::vector<Range>{{0, 4}, {4, 8}}));
  EXPECT_EQ(SplitEvenly(7, 1), (std::vector<Range>{{0, 7}}));
  EXPECT_EQ(SplitEvenly(3, 3), (std::vector<Range>{{0, 1}, {1, 2}, {2, 3}}));
  EXPECT_EQ(SplitEvenly(112, 10).front(), (Range{0, 12}));  // 2 of 12, then 8 of 11
  EXPECT_EQ(SplitEvenly(112, 10)[2], (Range{24, 35}));
}

TEST(SplitEvenly, RefusesPartsOutOfRange) {
  EXPECT_TRUE(SplitEvenly(10, 0).empty());
  EXPECT_TRUE(SplitEvenly(10, -1).empty());
  EXPECT_TRUE(SplitEvenly(3, 4).empty());
  EXPECT_TRUE(SplitEvenly(0, 1).empty());
}

// Every valid split covers [0, extent) with consecutive non-empty ranges
// whose sizes differ by at most one, larger ones first.
TEST(SplitEvenly, CoversTheExtentWithSizesWithinOne) {
  for (int32_t extent = 1; extent <= 40; ++extent) {
    for (int32_t parts = 1; parts <= extent; ++parts) {
      const std::vector<Range> split = SplitEvenly(extent, parts);
      ASSERT_EQ(static_cast<int32_t>(split.size()), parts) << extent << "/" << parts;
      int32_t at = 0, smallest = extent, largest = 0;
      for (size_t i = 0; i < split.size(); ++i) {
        EXPECT_EQ(split[i].begin, at) << extent << "/" << parts;
        EXPECT_GE(split[i].size(), 1);
        if (i > 0) EXPECT_LE(split[i].size(), split[i - 1].size());
        smallest = std::min(smallest, split[i].size());
        largest = std::max(largest, split[i].size());
        at = split[i].end;
      }
      EXPECT_EQ(at, extent) << extent << "/" << parts;
      EXPECT_LE(largest - smallest, 1) << extent << "/" << parts;
    }
  }
}

}  // namespace
}  // namespace rewrite
}  // namespace tflm_arena
