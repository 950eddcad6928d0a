// ValidatePlan: each kind of broken plan is caught, and the message says
// which buffers and why.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace {

using testing::Rec;

Status Check(const std::vector<UsageRecord>& records, const std::vector<ByteOffset>& offsets,
             int64_t arena_bytes) {
  return ValidatePlan(records, offsets, arena_bytes);
}

const std::vector<UsageRecord> kGt3 = {Rec(10, 0, 1), Rec(20, 1, 2), Rec(30, 2, 3), Rec(40, 3, 4),
                                       Rec(50, 0, 1)};

TEST(ValidatePlanTest, AcceptsTflmPlans) {
  EXPECT_TRUE(Check(kGt3, {50, 70, 40, 0, 0}, 90).ok());
  EXPECT_TRUE(Check(kGt3, {50, 70, 40, 0, 0}, 1000).ok());  // slack is fine
  EXPECT_TRUE(Check({}, {}, 0).ok());
}

TEST(ValidatePlanTest, Overlap) {
  // Buffer 0 moved to 45: it now shares bytes 45..49 with buffer 4 at steps 0..1.
  Status s = Check(kGt3, {45, 70, 40, 0, 0}, 90);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(),
               "buffers 0 and 4 overlap: buffer 0 holds [45, 55) at steps 0..1, "
               "buffer 4 holds [0, 50) at steps 0..1");
}

TEST(ValidatePlanTest, OverlapOnlyAtSharedStep) {
  // Buffer 1 moved to 60: it touches 0 ([50, 60)) and meets 2 at step 2.
  Status s = Check(kGt3, {50, 60, 40, 0, 0}, 90);
  EXPECT_STREQ(s.message(),
               "buffers 1 and 2 overlap: buffer 1 holds [60, 80) at steps 1..2, "
               "buffer 2 holds [40, 70) at steps 2..3");
}

TEST(ValidatePlanTest, SameOffsetOverlaps) {
  Status s = Check({Rec(8, 0, 0), Rec(8, 0, 0)}, {16, 16}, 24);
  EXPECT_STREQ(s.message(),
               "buffers 0 and 1 overlap: buffer 0 holds [16, 24) at steps 0..0, "
               "buffer 1 holds [16, 24) at steps 0..0");
}

TEST(ValidatePlanTest, ZeroSizeNeverOverlaps) {
  EXPECT_TRUE(Check({Rec(100, 0, 5), Rec(0, 0, 5)}, {0, 50}, 100).ok());
}

TEST(ValidatePlanTest, FixedOffsetViolated) {
  Status s = Check({Rec(10, 0, 1), Rec(10, 0, 1, 32)}, {0, 16}, 64);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(), "buffer 1: offset 16 differs from its fixed offset 32");
}

TEST(ValidatePlanTest, OutOfArena) {
  Status s = Check(kGt3, {50, 70, 40, 0, 0}, 89);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(), "buffer 1: ends at 90 (offset 70 + size 20), beyond arena_bytes 89");
  EXPECT_STREQ(Check({Rec(INT64_MAX, 0, 0)}, {1}, INT64_MAX).message(),
               "buffer 0: offset 1 + size 9223372036854775807 overflows int64");
}

TEST(ValidatePlanTest, NegativeOffsetCountAndArena) {
  EXPECT_STREQ(Check(kGt3, {50, 70, -1, 0, 0}, 90).message(), "buffer 2: offset -1 is negative");
  EXPECT_STREQ(Check(kGt3, {50, 70}, 90).message(), "plan has 2 offsets for 5 buffers");
  EXPECT_STREQ(Check({}, {}, -1).message(), "arena_bytes -1 is negative");
  EXPECT_STREQ(Check({Rec(-2, 0, 0)}, {0}, 10).message(), "buffer 0: size -2 is negative");
}

TEST(ValidatePlanTest, LargePlanIsFast) {
  // 200k buffers in a chain, each overlapping its neighbour in time; a
  // quadratic check would take minutes.
  std::vector<UsageRecord> records;
  std::vector<ByteOffset> offsets;
  for (int i = 0; i < 200000; ++i) {
    records.push_back(Rec(64, i, i + 1));
    offsets.push_back((i % 2) * 64);
  }
  EXPECT_TRUE(Check(records, offsets, 128).ok());
  offsets[150000] = 32;
  Status s = Check(records, offsets, 128);
  EXPECT_STREQ(s.message(),
               "buffers 149999 and 150000 overlap: buffer 149999 holds [64, 128) at steps "
               "149999..150000, buffer 150000 holds [32, 96) at steps 150000..150001");
}

TEST(ValidatePlanTest, TwoHalvesReportTheFirstClashOfTheWholeSweep) {
  // 140k buffers (two threads, split at step 70000), three live at a
  // time on three levels; clashes injected before, at and after the split.
  std::vector<UsageRecord> records;
  std::vector<ByteOffset> good;
  for (int i = 0; i < 140000; ++i) {
    records.push_back(Rec(16, i, i + 2));
    good.push_back((i % 3) * 16);
  }
  EXPECT_TRUE(Check(records, good, 48).ok());
  auto clash_at = [&](std::vector<int> at) {
    std::vector<ByteOffset> offsets = good;
    for (int k : at) offsets[k] = offsets[k - 1];  // k meets k - 1 at step k
    return std::string(Check(records, offsets, 48).message());
  };
  auto names = [](int k) {
    return "buffers " + std::to_string(k - 1) + " and " + std::to_string(k) + " overlap";
  };
  for (int k : {1000, 69999, 70000, 70001, 70002, 139000}) {
    SCOPED_TRACE(k);
    EXPECT_EQ(clash_at({k}).rfind(names(k), 0), 0u) << clash_at({k});
  }
  // Two clashes: the earlier one is reported, from either half.
  EXPECT_EQ(clash_at({100000, 1000}).rfind(names(1000), 0), 0u);
  EXPECT_EQ(clash_at({139000, 70001}).rfind(names(70001), 0), 0u);
  // A buffer starting before the split clashes only after it: B sees it.
  std::vector<UsageRecord> long_lived = records;
  long_lived[69999].last_step = 80000;  // level 69999 % 3 = 0 throughout
  const std::string m = Check(long_lived, good, 48).message();
  EXPECT_EQ(m.rfind("buffers 69999 and 70002 overlap", 0), 0u) << m;  // next on level 0
}

}  // namespace
}  // namespace tflm_arena
