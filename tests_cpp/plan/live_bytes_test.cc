// ComputeLiveSteps and RecordStepRange on hand-checked cases.
#include "tflm_arena/plan/live_bytes.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace {

using testing::Rec;

Status ComputeOn(const std::vector<UsageRecord>& r, Step from, Step to, LiveSteps* out) {
  return ComputeLiveSteps(r, from, to, out);
}

LiveSteps Live(const std::vector<UsageRecord>& r, Step from, Step to) {
  LiveSteps out;
  Status s = ComputeLiveSteps(r, from, to, &out);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

LiveSteps LiveOverRange(const std::vector<UsageRecord>& r) {
  Step from = 0, to = -1;
  EXPECT_TRUE(RecordStepRange(r, &from, &to));
  return Live(r, from, to);
}

TEST(LiveBytesTest, NoBuffers) {
  Step from = 7, to = 9;
  EXPECT_FALSE(RecordStepRange({}, &from, &to));
  EXPECT_EQ(from, 7);
  EXPECT_EQ(to, 9);
  LiveSteps l = Live({}, 0, -1);
  EXPECT_TRUE(l.bytes.empty());
  EXPECT_TRUE(l.buffers.empty());
  EXPECT_FALSE(l.has_peak);
  l = Live({}, 0, 2);  // a range without buffers: zeros, peak at its start
  EXPECT_EQ(l.bytes, (std::vector<int64_t>{0, 0, 0}));
  EXPECT_TRUE(l.has_peak);
  EXPECT_EQ(l.peak_step, 0);
}

TEST(LiveBytesTest, OneStep) {
  LiveSteps l = LiveOverRange({Rec(16, 3, 3), Rec(32, 3, 3)});
  EXPECT_EQ(l.first_step, 3);
  EXPECT_EQ(l.bytes, (std::vector<int64_t>{48}));
  EXPECT_EQ(l.buffers, (std::vector<int64_t>{2}));
  EXPECT_EQ(l.peak_step, 3);
}

TEST(LiveBytesTest, InclusiveLifetimesAndEarliestPeak) {
  // 16 at 0..1, 32 at 1..2, 48 at 3..3: live 16, 48, 32, 48.
  std::vector<UsageRecord> r = {Rec(16, 0, 1), Rec(32, 1, 2), Rec(48, 3, 3)};
  LiveSteps l = LiveOverRange(r);
  EXPECT_EQ(l.first_step, 0);
  EXPECT_EQ(l.bytes, (std::vector<int64_t>{16, 48, 32, 48}));
  EXPECT_EQ(l.buffers, (std::vector<int64_t>{1, 2, 1, 1}));
  EXPECT_EQ(l.peak_step, 1);  // the earliest of the two maxima
  // Without aliases, the peak's live bytes are the lower bound.
  EXPECT_EQ(l.bytes[1], LowerBound(r));
}

TEST(LiveBytesTest, StepMinusOneAndRangesThatClip) {
  // TFLM plans tensors never produced from step -1.
  std::vector<UsageRecord> r = {Rec(64, -1, -1), Rec(16, -1, 2), Rec(32, 1, 2)};
  LiveSteps l = LiveOverRange(r);
  EXPECT_EQ(l.first_step, -1);
  EXPECT_EQ(l.bytes, (std::vector<int64_t>{80, 16, 48, 48}));
  EXPECT_EQ(l.peak_step, -1);
  l = Live(r, 0, 2);  // from step 0, as the pictures draw
  EXPECT_EQ(l.first_step, 0);
  EXPECT_EQ(l.bytes, (std::vector<int64_t>{16, 48, 48}));
  EXPECT_EQ(l.buffers, (std::vector<int64_t>{1, 2, 2}));
  EXPECT_EQ(l.peak_step, 1);
  l = Live(r, -3, 4);  // wider than the records: zeros around
  EXPECT_EQ(l.bytes, (std::vector<int64_t>{0, 0, 80, 16, 48, 48, 0, 0}));
  EXPECT_EQ(l.peak_step, -1);
}

TEST(LiveBytesTest, ZeroSizedBuffersCountAsBuffers) {
  LiveSteps l = LiveOverRange({Rec(0, 2, 4), Rec(0, 3, 3)});
  EXPECT_EQ(l.bytes, (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(l.buffers, (std::vector<int64_t>{1, 2, 1}));
  EXPECT_EQ(l.peak_step, 2);
}

TEST(LiveBytesTest, AliasedFixedBuffersCountTwice) {
  std::vector<UsageRecord> r = {Rec(32, 0, 1, 0), Rec(32, 0, 1, 0)};
  LiveSteps l = LiveOverRange(r);
  EXPECT_EQ(l.bytes, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(LowerBound(r), 32);  // the lower bound counts shared bytes once
}

TEST(LiveBytesTest, HugeStepsAndSizes) {
  // Far-apart steps with a short range: only the range is listed.
  std::vector<UsageRecord> r = {Rec(16, 0, INT32_MAX), Rec(INT64_MAX - 16, INT32_MIN, 5)};
  LiveSteps l = Live(r, 4, 6);
  EXPECT_EQ(l.bytes, (std::vector<int64_t>{INT64_MAX, INT64_MAX, 16}));
  EXPECT_EQ(l.peak_step, 4);
  // Too many steps to list: an error, not gigabytes.
  Status s = ComputeLiveSteps(r, INT32_MIN, INT32_MAX, &l);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::strstr(s.message(), "4294967296 steps, more than the 16777218"), nullptr)
      << s.message();
  // Sizes that cannot be added up.
  s = ComputeOn({Rec(INT64_MAX, 0, 0), Rec(1, 1, 1)}, 0, 1, &l);
  EXPECT_STREQ(s.message(),
               "buffer 1: the buffers' sizes add up to more than 9223372036854775807 bytes");
}

TEST(LiveBytesTest, BadRecords) {
  LiveSteps l;
  Status s = ComputeOn({Rec(16, 0, 1), Rec(-5, 0, 1)}, 0, 1, &l);
  EXPECT_STREQ(s.message(), "buffer 1: size -5 is negative");
  s = ComputeOn({Rec(16, 2, 1)}, 0, 2, &l);
  EXPECT_STREQ(s.message(), "buffer 0: first step 2 is after last step 1");
}

TEST(LiveBytesTest, PersonDetectionPeakIsTheLowerBound) {
  std::vector<UsageRecord> r = testing::PersonDetectionRecords();
  LiveSteps l = LiveOverRange(r);
  int64_t most = 0;
  for (int64_t b : l.bytes) most = std::max(most, b);
  EXPECT_EQ(most, LowerBound(r));
  EXPECT_EQ(l.bytes[static_cast<size_t>(l.peak_step - l.first_step)], most);
}

}  // namespace
}  // namespace tflm_arena
