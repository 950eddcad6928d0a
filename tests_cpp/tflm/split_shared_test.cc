// Two buffers and several models in one arena, on hand-written traces: the
// phase rule (each later model prepares on top of the tails already there,
// the plan reserved is the largest so far) and the two-buffer split.
#include <gtest/gtest.h>

#include <vector>

#include "tflm_arena/tflm/arena_replay.h"
#include "tflm_arena/tflm/shared_arena.h"
#include "tflm_arena/tflm/split_arena.h"
#include "tflm_arena/tflm/target_abi.h"
#include "tflm_arena/tflm/tflm_arena_size.h"

namespace tflm_arena {
namespace tflm {
namespace {

Event Ev(EventKind kind, uint64_t size) {
  Event e;
  e.kind = kind;
  e.size = size;
  e.align = 1;
  return e;
}

// Three allocator objects of 16 bytes, the builtin-data allocator (8), the
// scratch-request records (head 12), `tail` bytes of kernel data, `temp`
// bytes of Prepare temp, the head released and set to the plan `head`, then
// `last` bytes of tail (the input/output tensors).
Trace Model(uint64_t tail, uint64_t temp, uint64_t head, uint64_t last) {
  Trace t;
  for (int i = 0; i < 3; ++i) t.events.push_back(Ev(EventKind::kTail, 16));
  t.allocator_events = 3;
  t.events.push_back(Ev(EventKind::kTail, 8));
  t.events.push_back(Ev(EventKind::kResizeHead, 12));
  t.events.push_back(Ev(EventKind::kTail, tail));
  t.events.push_back(Ev(EventKind::kTemp, temp));
  t.events.push_back(Ev(EventKind::kResetTemp, 0));
  t.events.push_back(Ev(EventKind::kResizeHead, 0));
  t.head_plan_event = t.events.size();
  t.events.push_back(Ev(EventKind::kResizeHead, head));
  t.events.push_back(Ev(EventKind::kTail, last));
  t.head_usage = static_cast<int64_t>(head);
  return t;
}

uint64_t Smallest(const Trace& t, ReplayBuffer b = ReplayBuffer::kSingle) {
  uint64_t n = 0;
  EXPECT_TRUE(SmallestWorkingSize(t, b, &n).ok());
  return n;
}

// A: big plan, small temp. B: big temp, small plan.
const Trace kA = Model(/*tail=*/100, /*temp=*/50, /*head=*/200, /*last=*/20);
const Trace kB = Model(/*tail=*/40, /*temp=*/300, /*head=*/60, /*last=*/8);

TEST(SharedArena, EachModelAloneIsItsSingleArenaMinimum) {
  // A: tails 176 below a 200-byte plan; B: 312 bytes of head + temp over 96 of tail.
  EXPECT_EQ(Smallest(kA), 376u);
  EXPECT_EQ(Smallest(kB), 408u);
}

TEST(SharedArena, LaterModelPreparesOnTopOfEarlierTails) {
  SharedArenaPhases p;
  ASSERT_TRUE(SharedArenaPhasesOf({&kA, &kB}, &p).ok());
  // B's temp (12 + 300) above A's 176 tail bytes and B's own 48.
  ASSERT_EQ(p.phase_bytes.size(), 2u);
  EXPECT_EQ(p.phase_bytes[0], 376u);
  EXPECT_EQ(p.phase_bytes[1], 536u);
  EXPECT_EQ(p.min_arena_bytes, 536u);
  EXPECT_EQ(p.limited_by_model, 1u);
  // More than max(head) + sum(tails) = 200 + 176 + 104 = 480.
  EXPECT_GT(p.min_arena_bytes, 480u);
}

TEST(SharedArena, OrderMattersAndThePlanReservedIsTheLargestSoFar) {
  SharedArenaPhases p;
  ASSERT_TRUE(SharedArenaPhasesOf({&kB, &kA}, &p).ok());
  // B alone 408; then A's plan of 200 over both tails (104 + 128) = 432.
  ASSERT_EQ(p.phase_bytes.size(), 2u);
  EXPECT_EQ(p.phase_bytes[0], 408u);
  EXPECT_EQ(p.phase_bytes[1], 432u);
  EXPECT_EQ(p.min_arena_bytes, 432u);
  EXPECT_EQ(p.limited_by_model, 1u);
}

TEST(SharedArena, AllocatorObjectsExistOnceAndHeadIsTheMaximum) {
  Trace shared;
  std::vector<size_t> model_of_event;
  ASSERT_TRUE(SharedTrace({&kB, &kA}, &shared, &model_of_event).ok());
  EXPECT_EQ(shared.events.size(), kB.events.size() + kA.events.size() - 3);
  EXPECT_EQ(model_of_event.size(), shared.events.size());
  EXPECT_EQ(model_of_event.back(), 1u);
  // A's plan reservation stays 200; B's, in the order A then B, becomes 200 too.
  ASSERT_TRUE(SharedTrace({&kA, &kB}, &shared, &model_of_event).ok());
  const size_t b_plan = kA.events.size() + (kB.head_plan_event - 3);
  EXPECT_EQ(shared.events[b_plan].kind, EventKind::kResizeHead);
  EXPECT_EQ(shared.events[b_plan].size, 200u);
}

TEST(SharedArena, RefusesAnEmptyListAndTracesWithoutMarkers) {
  Trace shared;
  std::vector<size_t> model_of_event;
  EXPECT_FALSE(SharedTrace({}, &shared, &model_of_event).ok());
  Trace bad = kA;
  bad.head_plan_event = bad.events.size();
  EXPECT_FALSE(SharedTrace({&kA, &bad}, &shared, &model_of_event).ok());
}

TEST(SplitArena, TailsInThePersistentBufferTheRestInTheOther) {
  const TargetAbi* abi = FindTarget("cortex-m");
  ASSERT_NE(abi, nullptr);
  Trace split;
  ASSERT_TRUE(SplitTrace(kA, *abi, /*recording=*/false, &split).ok());
  EXPECT_EQ(split.events.size(), kA.events.size() + 1);
  EXPECT_EQ(split.head_plan_event, kA.head_plan_event + 1);
  // Persistent: 16 + 32 (the two arena allocators) + 16 + 16 + 8 + 100 + 20
  // = 208 below the end aligned down to 16.
  EXPECT_EQ(Smallest(split, ReplayBuffer::kPersistent), 208u);
  EXPECT_FALSE(Replay(split, 207, ReplayBuffer::kPersistent).ok);
  // Non-persistent: the 200-byte plan (the 62 bytes of records + temp fit).
  EXPECT_EQ(Smallest(split, ReplayBuffer::kNonPersistent), 200u);
  // B: records + temp = 312 decide.
  ASSERT_TRUE(SplitTrace(kB, *abi, false, &split).ok());
  EXPECT_EQ(Smallest(split, ReplayBuffer::kNonPersistent), 312u);
}

TEST(SplitArena, RecordingAllocatorHasNoTwoBufferCreate) {
  Trace split;
  EXPECT_EQ(SplitTrace(kA, *FindTarget("cortex-m"), /*recording=*/true, &split).code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tflm
}  // namespace tflm_arena
