// TFLM's PrintMemoryPlan text: GreedyPlanner::PrintMemoryPlan and the host
// RenderAscii must both produce it exactly (format: plan_text.h; expected
// text measured with TFLM's own PrintMemoryPlan).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/greedy_planner.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/plan_text.h"

namespace tflm_arena {
namespace {

using testing::Rec;

const char kGt3Text[] =
    "0 (id=0): size=10, offset=50, first_used=0 last_used=1\n"
    "1 (id=1): size=20, offset=70, first_used=1 last_used=2\n"
    "2 (id=2): size=30, offset=40, first_used=2 last_used=3\n"
    "3 (id=3): size=40, offset=0, first_used=3 last_used=4\n"
    "4 (id=4): size=50, offset=0, first_used=0 last_used=1\n"
    "   0: 44444444444444444444444444444444444444444444000000000........................... (1k)\n"
    "   1: 44444444444444444444444444444444444444444444000000000.........111111111111111111 (1k)\n"
    "   2: ...................................222222222222222222222222222111111111111111111 (1k)\n"
    "   3: 33333333333333333333333333333333333222222222222222222222222222.................. (1k)\n"
    "   4: 33333333333333333333333333333333333............................................. (1k)\n";

std::vector<UsageRecord> Gt3() {
  return {Rec(10, 0, 1), Rec(20, 1, 2), Rec(30, 2, 3), Rec(40, 3, 4), Rec(50, 0, 1)};
}

std::string RuntimeText(const std::vector<UsageRecord>& records) {
  std::vector<uint8_t> scratch(GreedyPlanner::kBytesPerBuffer * records.size());
  GreedyPlanner planner;
  EXPECT_TRUE(planner.Init(scratch.data(), scratch.size()).ok());
  for (const auto& r : records) {
    EXPECT_TRUE(planner
                    .AddBuffer(static_cast<int>(r.size), r.first_step, r.last_step,
                               static_cast<int>(r.fixed_offset))
                    .ok());
  }
  const int length = planner.PrintMemoryPlan(nullptr, 0);
  std::string text(static_cast<size_t>(length) + 1, '\0');
  EXPECT_EQ(planner.PrintMemoryPlan(&text[0], text.size()), length);
  text.resize(static_cast<size_t>(length));
  return text;
}

std::string HostText(const std::vector<UsageRecord>& records) {
  PlanResult plan;
  EXPECT_TRUE(PlanTflmGreedy(records, &plan).ok());
  return RenderAscii(records, plan.offsets);
}

TEST(PrintPlanTest, GT3ExactTextRuntime) { EXPECT_EQ(RuntimeText(Gt3()), kGt3Text); }

TEST(PrintPlanTest, GT3ExactTextHost) { EXPECT_EQ(HostText(Gt3()), kGt3Text); }

TEST(PrintPlanTest, GT2Rows) {
  const std::vector<UsageRecord> records = {Rec(10, 0, 1), Rec(20, 2, 3)};
  const std::string row01 = std::string(10, '0') + std::string(70, '.');
  const std::string row23 = std::string(20, '1') + std::string(60, '.');
  const std::string expected =
      "0 (id=0): size=10, offset=0, first_used=0 last_used=1\n"
      "1 (id=1): size=20, offset=0, first_used=2 last_used=3\n"
      "   0: " +
      row01 + " (1k)\n" + "   1: " + row01 + " (1k)\n" + "   2: " + row23 + " (1k)\n" +
      "   3: " + row23 + " (1k)\n";
  EXPECT_EQ(RuntimeText(records), expected);
  EXPECT_EQ(HostText(records), expected);
}

TEST(PrintPlanTest, GT4PeakRowSays63k) {
  const std::string text = HostText(testing::PersonDetectionRecords());
  const size_t row2 = text.find("\n   2: ");
  ASSERT_NE(row2, std::string::npos);
  EXPECT_EQ(text.substr(text.find('\n', row2 + 1) - 6, 6), " (63k)");
  EXPECT_EQ(RuntimeText(testing::PersonDetectionRecords()), text);
}

TEST(PrintPlanTest, OneStepBuffersUseStarAndCollisionsUseBang) {
  // Buffer 1 lives one step ('*'); buffers 0 and 2 share bytes 0..9 at step 1.
  const std::vector<UsageRecord> records = {Rec(20, 0, 1), Rec(10, 2, 2), Rec(10, 1, 3)};
  const std::vector<ByteOffset> offsets = {0, 70, 0};
  const std::string text = RenderAscii(records, offsets);
  EXPECT_NE(text.find("* (id=1): size=10, offset=70, first_used=2 last_used=2\n"),
            std::string::npos);
  EXPECT_NE(text.find("   1: " + std::string(10, '!') + std::string(10, '0') +
                      std::string(60, '.') + " (1k)\n"),
            std::string::npos);
  EXPECT_NE(text.find("   2: " + std::string(10, '2') + std::string(60, '.') +
                      std::string(10, '*') + " (1k)\n"),
            std::string::npos);
}

TEST(PrintPlanTest, OrdinalCharsWrapEvery62) {
  EXPECT_EQ(plan_internal::OrdinalChar(0), '0');
  EXPECT_EQ(plan_internal::OrdinalChar(9), '9');
  EXPECT_EQ(plan_internal::OrdinalChar(10), 'a');
  EXPECT_EQ(plan_internal::OrdinalChar(35), 'z');
  EXPECT_EQ(plan_internal::OrdinalChar(36), 'A');
  EXPECT_EQ(plan_internal::OrdinalChar(61), 'Z');
  EXPECT_EQ(plan_internal::OrdinalChar(62), '0');
  EXPECT_EQ(plan_internal::OrdinalChar(75), 'd');
}

TEST(PrintPlanTest, EmptyPlanPrintsOneEmptyRow) {
  const std::string expected = "   0: " + std::string(80, '.') + " (0k)\n";
  EXPECT_EQ(RenderAscii({}, {}), expected);
  GreedyPlanner planner;
  char out[128];
  EXPECT_EQ(planner.PrintMemoryPlan(out, sizeof(out)), static_cast<int>(expected.size()));
  EXPECT_EQ(std::string(out), expected);
}

TEST(PrintPlanTest, TruncatesIntoSmallBufferAndReportsFullLength) {
  std::vector<uint8_t> scratch(GreedyPlanner::kBytesPerBuffer * 5);
  GreedyPlanner planner;
  ASSERT_TRUE(planner.Init(scratch.data(), scratch.size()).ok());
  for (const auto& r : Gt3()) {
    ASSERT_TRUE(planner.AddBuffer(static_cast<int>(r.size), r.first_step, r.last_step).ok());
  }
  char out[11];
  EXPECT_EQ(planner.PrintMemoryPlan(out, sizeof(out)), static_cast<int>(sizeof(kGt3Text) - 1));
  EXPECT_STREQ(out, "0 (id=0): ");
}

TEST(PrintPlanTest, UnplannedAndNonsenseOffsetsDoNotCrash) {
  const std::vector<UsageRecord> records = {Rec(10, 0, 1), Rec(10, 0, 1), Rec(-10, 0, 0),
                                            Rec(INT64_MAX, 0, 0)};
  const std::vector<ByteOffset> offsets = {-1, -50, INT64_MAX, INT64_MAX};
  const std::string text = RenderAscii(records, offsets);
  EXPECT_NE(text.find("0 (id=0): size=10, offset=-1, first_used=0 last_used=1\n"),
            std::string::npos);
  // Missing offsets count as -1 (unplanned).
  EXPECT_NE(RenderAscii(records, {}).find("offset=-1"), std::string::npos);
}

TEST(PrintPlanTest, HostAndRuntimeAgreeOnPersonDetection) {
  auto records = testing::PersonDetectionRecords();
  EXPECT_EQ(RuntimeText(records), HostText(records));
}

}  // namespace
}  // namespace tflm_arena
