// Replay of hand-written traces: TFLM's pointer arithmetic, one rule each.
#include "tflm_arena/tflm/arena_replay.h"

#include <gtest/gtest.h>

namespace tflm_arena {
namespace tflm {
namespace {

Event TailEvent(uint64_t size, uint32_t align, Category c = Category::kOther) {
  Event e;
  e.kind = EventKind::kTail;
  e.size = size;
  e.align = align;
  e.category = c;
  return e;
}
Event TempEvent(uint64_t size, uint32_t align) {
  Event e;
  e.kind = EventKind::kTemp;
  e.size = size;
  e.align = align;
  return e;
}
Event HeadEvent(uint64_t size) {
  Event e;
  e.kind = EventKind::kResizeHead;
  e.size = size;
  return e;
}

TEST(ArenaReplay, TailAlignsDownSoAnOddSizeCanFitEightBelowSixteen) {
  Trace t;
  t.events = {TailEvent(72, 8), TailEvent(16, 16)};
  // 88 bytes: 72 at [16, 88), then 16 at [0, 16).
  EXPECT_TRUE(Replay(t, 88).ok);
  // 87: 72 lands at 8 (8-aligned down from 15), 16 would start below 0.
  EXPECT_FALSE(Replay(t, 87).ok);
  const ReplayResult r = Replay(t, 88);
  EXPECT_EQ(r.tail, 88u);
}

TEST(ArenaReplay, CategoryUsedCountsAlignmentPadding) {
  Trace t;
  t.events = {TailEvent(8, 8), TailEvent(72, 16, Category::kPersistentBufferData)};
  const ReplayResult r = Replay(t, 1000);  // tail 992 -> 72 at 912 (pad 8)
  ASSERT_TRUE(r.ok);
  const CategoryFigures& c = r.categories[static_cast<size_t>(Category::kPersistentBufferData)];
  EXPECT_EQ(c.requested, 72u);
  EXPECT_EQ(c.used, 80u);
  EXPECT_EQ(c.count, 1u);
}

TEST(ArenaReplay, TempIsCheckedAgainstTheTailAndPeakIsRecorded) {
  Trace t;
  t.events = {HeadEvent(192), TempEvent(64, 8), TempEvent(24, 8)};
  // head 192 + temp 88 = 280.
  EXPECT_TRUE(Replay(t, 280).ok);
  EXPECT_FALSE(Replay(t, 279).ok);
  EXPECT_EQ(Replay(t, 280).temp_peak, 88u);
}

// Regression: TFLM only compares a tail allocation with the head, but one
// that lands on live temp memory corrupts it (int16 SOFTMAX's LUTs over its
// temp tensors: the wheel then fails its temp checksum and crashes). The
// replay used to accept it and was 16 bytes short on that model.
TEST(ArenaReplay, TailAllocationIntoLiveTempFails) {
  Trace t;
  t.events = {HeadEvent(192), TempEvent(64, 8), TempEvent(24, 8), TailEvent(16, 16)};
  // Temp ends at 280; the 16-byte, 16-aligned tail allocation must start at
  // or above it: at 288, so 304 bytes.
  EXPECT_TRUE(Replay(t, 304).ok);
  EXPECT_FALSE(Replay(t, 303).ok);  // would land at 272, inside the temp
  EXPECT_FALSE(Replay(t, 296).ok);
  // Bytes nobody reads again (a temp tensor's zero-point array) may be
  // covered, as in TFLM: only the first 8 of the last 24 are kept here.
  t.events[2].protect = 8;          // temp [256, 280): keep [256, 264)
  EXPECT_TRUE(Replay(t, 288).ok);   // tail at 272 >= 264
  EXPECT_FALSE(Replay(t, 287).ok);  // tail at 256 < 264
}

TEST(ArenaReplay, GreedyPlannerNeedsFortyBytesPerBuffer) {
  Trace t;
  t.planner = PlannerKind::kGreedy;
  Event p;
  p.kind = EventKind::kPlannerScratch;
  p.size = 3;  // buffers
  t.events = {TempEvent(8, 8), p};
  // Temp 8 -> scratch from 16; 3 x 40 = 120 bytes must end at or below
  // AlignDown(size, 16): 144 works, 143 (AlignDown 128, room for 2) fails.
  EXPECT_TRUE(Replay(t, 144).ok);
  EXPECT_FALSE(Replay(t, 143).ok);
  t.planner = PlannerKind::kLinear;
  EXPECT_TRUE(Replay(t, 16).ok);
}

}  // namespace
}  // namespace tflm
}  // namespace tflm_arena
