// ValidateRecords messages and LowerBound on hand-checked cases.
#include <climits>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace {

using testing::Rec;

Status Validate(const std::vector<UsageRecord>& records, int64_t alignment = 0) {
  return ValidateRecords(records, alignment);
}

TEST(ValidateRecordsTest, AcceptsGoodRecords) {
  EXPECT_TRUE(Validate({}).ok());
  EXPECT_TRUE(Validate(testing::PersonDetectionRecords()).ok());
  EXPECT_TRUE(Validate({Rec(0, -1, -1), Rec(16, 0, 0, 0), Rec(16, 0, 0, 16)}, 16).ok());
}

TEST(ValidateRecordsTest, NegativeSize) {
  Status s = Validate({Rec(1, 0, 1), Rec(1, 0, 1), Rec(1, 0, 1), Rec(-5, 0, 1)});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(), "buffer 3: size -5 is negative");
}

TEST(ValidateRecordsTest, FirstAfterLast) {
  EXPECT_STREQ(Validate({Rec(1, 4, 3)}).message(), "buffer 0: first_step 4 is after last_step 3");
}

TEST(ValidateRecordsTest, BadFixedOffsets) {
  EXPECT_STREQ(Validate({Rec(1, 0, 1, -2)}).message(),
               "buffer 0: fixed offset -2 is negative (use -1 to let the planner choose)");
  EXPECT_STREQ(Validate({Rec(1, 0, 1), Rec(1, 0, 1, 24)}, 16).message(),
               "buffer 1: fixed offset 24 is not a multiple of the alignment 16");
  EXPECT_TRUE(Validate({Rec(1, 0, 1, 24)}, 8).ok());
  EXPECT_TRUE(Validate({Rec(1, 0, 1, 24)}, 0).ok());  // 0: no alignment rule
  EXPECT_STREQ(Validate({}, -4).message(), "alignment -4 is negative");
}

TEST(ValidateRecordsTest, OverlappingFixedBuffersAreAliasesNotErrors) {
  // 1 and 3 share bytes 40..49 at step 2; 0 and 2 touch but do not overlap.
  // TFLM accepts such plans (NPU compilers alias on purpose): reported, and
  // a plan keeping them is valid as long as no placed buffer overlaps.
  std::vector<UsageRecord> records = {Rec(32, 0, 1, 0), Rec(20, 2, 3, 30), Rec(8, 0, 1, 32),
                                      Rec(20, 1, 2, 40), Rec(100, 0, 9)};
  EXPECT_TRUE(Validate(records).ok());
  const auto aliases = FixedAliases(records);
  ASSERT_EQ(aliases.size(), 1u);
  EXPECT_EQ(aliases[0], std::make_pair(size_t{1}, size_t{3}));
  std::vector<ByteOffset> offsets = {0, 30, 32, 40, 60};
  EXPECT_TRUE(ValidatePlan(records, offsets, 160).ok());
  offsets[4] = 50;  // the placed buffer now meets fixed buffer 3 at step 1..2
  Status s = ValidatePlan(records, offsets, 160);
  EXPECT_STREQ(s.message(),
               "buffers 3 and 4 overlap: planner-placed buffer 4 holds [50, 150) at steps "
               "0..9, fixed buffer 3 holds [40, 60) at steps 1..2");
}

TEST(ValidateRecordsTest, FixedBuffersAtDifferentTimesMayShareBytes) {
  EXPECT_TRUE(Validate({Rec(32, 0, 1, 0), Rec(32, 2, 3, 0), Rec(0, 0, 3, 10)}).ok());
}

TEST(LowerBoundTest, HandCases) {
  EXPECT_EQ(LowerBound({}), 0);
  // TFLM's TestGreedyMedium: step 1 holds 10 + 20 + 50 = 80.
  std::vector<UsageRecord> gt3 = {Rec(10, 0, 1), Rec(20, 1, 2), Rec(30, 2, 3), Rec(40, 3, 4),
                                  Rec(50, 0, 1)};
  EXPECT_EQ(LowerBound(gt3), 80);
  const auto person = testing::PersonDetectionRecords();
  EXPECT_EQ(LowerBound(person), 64512);  // greedy is optimal on this model
  // Inclusive ends: [0,1] and [1,2] meet at 1; [0,0] and [1,1] never do.
  std::vector<UsageRecord> touch = {Rec(5, 0, 1), Rec(7, 1, 2)};
  EXPECT_EQ(LowerBound(touch), 12);
  std::vector<UsageRecord> apart = {Rec(5, 0, 0), Rec(7, 1, 1)};
  EXPECT_EQ(LowerBound(apart), 7);
}

TEST(LowerBoundTest, IncludesFixedAndIgnoresInvalid) {
  std::vector<UsageRecord> records = {Rec(100, 0, 5, 1000), Rec(10, 3, 3), Rec(-50, 3, 3),
                                      Rec(40, 4, 2)};
  EXPECT_EQ(LowerBound(records), 110);
}

TEST(LowerBoundTest, AliasedFixedBuffersCountOnce) {
  // Two fixed buffers at the same bytes while both live: 64 bytes occupied,
  // not 128; a planner-placed buffer adds its size on top.
  std::vector<UsageRecord> same = {Rec(64, 0, 2, 0), Rec(64, 1, 3, 0), Rec(32, 1, 1)};
  EXPECT_EQ(LowerBound(same), 96);
  // Partial overlap: [0, 48) and [32, 80) cover 80 bytes at steps 1..2.
  std::vector<UsageRecord> partial = {Rec(48, 0, 2, 0), Rec(48, 1, 3, 32)};
  EXPECT_EQ(LowerBound(partial), 80);
  // A chain [0, 32), [16, 48), [32, 64) all live at step 1: 64 bytes; at
  // steps 0 and 2 only one or two are live.
  std::vector<UsageRecord> chain = {Rec(32, 0, 1, 0), Rec(32, 1, 1, 16), Rec(32, 1, 2, 32)};
  EXPECT_EQ(LowerBound(chain), 64);
  // Nested: [0, 96) holds [16, 32); plus a disjoint fixed [200, 216).
  std::vector<UsageRecord> nested = {Rec(96, 0, 0, 0), Rec(16, 0, 0, 16), Rec(16, 0, 0, 200)};
  EXPECT_EQ(LowerBound(nested), 112);
  // Fixed buffers at different times sharing bytes never add up.
  std::vector<UsageRecord> apart = {Rec(64, 0, 1, 0), Rec(64, 2, 3, 0), Rec(16, 0, 3)};
  EXPECT_EQ(LowerBound(apart), 80);
  // Every valid plan of these records needs at least the bound.
  for (const auto* records : {&same, &partial, &chain, &nested, &apart}) {
    PlanResult plan;
    ASSERT_TRUE(PlanTflmGreedy(*records, &plan).ok());
    EXPECT_GE(plan.arena_bytes, LowerBound(*records));
  }
}

TEST(LowerBoundTest, ExtremeStepsAndSizes) {
  std::vector<UsageRecord> records = {Rec(INT64_MAX, INT32_MIN, INT32_MAX),
                                      Rec(INT64_MAX, INT32_MAX, INT32_MAX)};
  EXPECT_EQ(LowerBound(records), INT64_MAX);  // saturates
  records = {Rec(3, INT32_MAX, INT32_MAX), Rec(4, INT32_MIN, INT32_MIN)};
  EXPECT_EQ(LowerBound(records), 4);
}

TEST(FixedAliasesTest, HugeOffsetsDoNotOverflow) {
  // offset + size beyond int64: saturated, still compared correctly.
  const int64_t big = INT64_MAX - 8;
  std::vector<UsageRecord> records = {Rec(100, 0, 1, big), Rec(100, 0, 1, big - 16),
                                      Rec(16, 0, 1, 0)};
  const auto aliases = FixedAliases(records);
  ASSERT_EQ(aliases.size(), 1u);
  EXPECT_EQ(aliases[0], std::make_pair(size_t{0}, size_t{1}));
}

}  // namespace
}  // namespace tflm_arena
