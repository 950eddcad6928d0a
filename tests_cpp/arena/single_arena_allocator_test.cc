#include "tflm_arena/arena/single_arena_allocator.h"

#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"

namespace tflm_arena {
namespace {

TEST(SingleArenaAllocatorTest, AlignedBufferIsUsedWhole) {
  alignas(16) uint8_t buf[256];
  SingleArenaAllocator a(buf, sizeof(buf));
  EXPECT_EQ(a.capacity(), 256u);
  EXPECT_EQ(a.head_start(), buf);
  EXPECT_EQ(a.GetUsedBytes(), 0u);
  EXPECT_EQ(a.GetAvailableMemory(16), 256u);
  EXPECT_TRUE(a.IsAllTempDeallocated());
}

TEST(SingleArenaAllocatorTest, UnalignedBufferStartIsAlignedUp) {
  alignas(16) uint8_t buf[128];
  SingleArenaAllocator a(buf + 3, 100);
  EXPECT_EQ(a.head_start(), buf + 16);
  EXPECT_EQ(a.capacity(), 87u);  // 100 - 13 bytes of slack
  uint8_t* p = nullptr;
  ASSERT_TRUE(a.AllocatePersistent(7, 1, &p).ok());
  EXPECT_EQ(p, buf + 103 - 7);  // the end is not moved
}

TEST(SingleArenaAllocatorTest, TooSmallForAlignmentGivesZeroCapacity) {
  alignas(16) uint8_t buf[32];
  SingleArenaAllocator a(buf + 1, 10);  // aligned start would be buf + 16
  EXPECT_EQ(a.capacity(), 0u);
  uint8_t* p = buf;
  Status s = a.AllocatePersistent(4, 16, &p);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(a.GetAvailableMemory(16), 0u);
  EXPECT_EQ(a.GetUsedBytes(), 0u);
}

TEST(SingleArenaAllocatorTest, ZeroSizeAndNullArenas) {
  alignas(16) uint8_t buf[16];
  SingleArenaAllocator empty(buf, 0);
  SingleArenaAllocator null_arena(nullptr, 1000);
  for (SingleArenaAllocator* a : {&empty, &null_arena}) {
    EXPECT_EQ(a->capacity(), 0u);
    uint8_t* p = nullptr;
    Status s = a->AllocatePersistent(1, 16, &p);
    EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
    EXPECT_STREQ(s.message(), "tail allocation of 1 bytes failed: 0 bytes available (1 missing)");
    EXPECT_EQ(s.needed_bytes(), 1u);
    EXPECT_EQ(a->AllocateTemp(1, 1, &p).code(), StatusCode::kArenaTooSmall);
    EXPECT_EQ(a->ResizeHead(1).code(), StatusCode::kArenaTooSmall);
    EXPECT_TRUE(a->ResizeHead(0).ok());
    EXPECT_EQ(a->GetAvailableMemory(16), 0u);
  }
}

TEST(SingleArenaAllocatorTest, HeadThenTempPlacement) {
  alignas(16) uint8_t buf[512];
  SingleArenaAllocator a(buf, sizeof(buf));
  ASSERT_TRUE(a.ResizeHead(100).ok());
  EXPECT_EQ(a.head_start(), buf);
  EXPECT_EQ(a.head_size(), 100u);
  uint8_t *t1 = nullptr, *t2 = nullptr;
  ASSERT_TRUE(a.AllocateTemp(10, 16, &t1).ok());
  EXPECT_EQ(t1, buf + 112);  // 100 aligned up to 16
  ASSERT_TRUE(a.AllocateTemp(5, 1, &t2).ok());
  EXPECT_EQ(t2, buf + 122);  // chained directly after t1
  EXPECT_EQ(a.GetNonPersistentUsedBytes(), 127u);
  EXPECT_EQ(a.GetAvailableMemory(16), 512u - 128u);
}

TEST(SingleArenaAllocatorTest, TailGrowsDownAligned) {
  alignas(16) uint8_t buf[256];
  SingleArenaAllocator a(buf, sizeof(buf));
  uint8_t* p = nullptr;
  ASSERT_TRUE(a.AllocatePersistent(10, 16, &p).ok());
  EXPECT_EQ(p, buf + 240);  // 246 aligned down
  ASSERT_TRUE(a.AllocatePersistent(4, 4, &p).ok());
  EXPECT_EQ(p, buf + 236);
  EXPECT_EQ(a.GetPersistentUsedBytes(), 20u);
}

TEST(SingleArenaAllocatorTest, TailOfUnalignedEndPadsFirstAllocation) {
  alignas(16) uint8_t buf[256];
  SingleArenaAllocator a(buf, 250);
  uint8_t* p = nullptr;
  ASSERT_TRUE(a.AllocatePersistent(16, 16, &p).ok());
  EXPECT_EQ(p, buf + 224);
  EXPECT_EQ(a.GetPersistentUsedBytes(), 26u);
}

TEST(SingleArenaAllocatorTest, HeadWithLargerAlignment) {
  alignas(64) uint8_t buf[320];
  SingleArenaAllocator a(buf + 16, 240);
  ASSERT_TRUE(a.ResizeHead(32, 64).ok());
  EXPECT_EQ(a.head_start(), buf + 64);
  EXPECT_EQ(a.GetNonPersistentUsedBytes(), 48u + 32u);
  ASSERT_TRUE(a.ResizeHead(32).ok());  // back to 16: starts at the start
  EXPECT_EQ(a.head_start(), buf + 16);
  EXPECT_EQ(a.GetNonPersistentUsedBytes(), 32u);
}

TEST(SingleArenaAllocatorTest, ResizeNeedsResetTemp) {
  alignas(16) uint8_t buf[512];
  SingleArenaAllocator a(buf, sizeof(buf));
  ASSERT_TRUE(a.ResizeHead(64).ok());
  uint8_t* t = nullptr;
  ASSERT_TRUE(a.AllocateTemp(32, 16, &t).ok());
  Status s = a.ResizeHead(128);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(std::strstr(s.message(), "ResetTemp()"), nullptr);
  a.DeallocateTemp(t);
  EXPECT_EQ(a.ResizeHead(128).code(), StatusCode::kFailedPrecondition);  // not reset yet
  ASSERT_TRUE(a.ResetTemp().ok());
  ASSERT_TRUE(a.ResizeHead(128).ok());
  EXPECT_EQ(a.GetNonPersistentUsedBytes(), 128u);
  ASSERT_TRUE(a.ResizeHead(8).ok());  // shrinking is fine
  EXPECT_EQ(a.GetNonPersistentUsedBytes(), 8u);
}

TEST(SingleArenaAllocatorTest, ResetTempWithOutstandingBuffersFails) {
  alignas(16) uint8_t buf[512];
  SingleArenaAllocator a(buf, sizeof(buf));
  uint8_t *t1 = nullptr, *t2 = nullptr;
  ASSERT_TRUE(a.AllocateTemp(16, 16, &t1).ok());
  ASSERT_TRUE(a.AllocateTemp(16, 16, &t2).ok());
  Status s = a.ResetTemp();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_STREQ(s.message(),
               "temp reset refused: number of allocated temp buffers: 2, checksum "
               "passing status: 0; all temp buffers must be freed before calling "
               "ResetTemp()");
  a.DeallocateTemp(t1);
  a.DeallocateTemp(nullptr);  // ignored
  EXPECT_FALSE(a.IsAllTempDeallocated());
  a.DeallocateTemp(t1);  // wrong pointer: count balances, checksum does not
  EXPECT_FALSE(a.IsAllTempDeallocated());
  EXPECT_NE(std::strstr(a.ResetTemp().message(),
                        "number of allocated temp buffers: 0, checksum passing status: 0"),
            nullptr);
}

TEST(SingleArenaAllocatorTest, BalancedTempResets) {
  alignas(16) uint8_t buf[512];
  SingleArenaAllocator a(buf, sizeof(buf));
  ASSERT_TRUE(a.ResizeHead(40).ok());
  uint8_t* t = nullptr;
  ASSERT_TRUE(a.AllocateTemp(100, 16, &t).ok());
  a.DeallocateTemp(t);
  EXPECT_TRUE(a.IsAllTempDeallocated());
  EXPECT_EQ(a.GetNonPersistentUsedBytes(), 148u);
  ASSERT_TRUE(a.ResetTemp().ok());
  EXPECT_EQ(a.GetNonPersistentUsedBytes(), 40u);
  ASSERT_TRUE(a.AllocateTemp(8, 16, &t).ok());
  EXPECT_EQ(t, buf + 48);  // the chain starts over after head
}

TEST(SingleArenaAllocatorTest, TailOverflowMessageAndNeededBytes) {
  alignas(16) uint8_t buf[1024];
  SingleArenaAllocator a(buf, sizeof(buf));
  ASSERT_TRUE(a.ResizeHead(624).ok());
  uint8_t* p = nullptr;
  ASSERT_TRUE(a.AllocatePersistent(200, 8, &p).ok());  // tail at 824
  p = buf;
  Status s = a.AllocatePersistent(448, 16, &p);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_STREQ(s.message(),
               "tail allocation of 448 bytes failed: 200 bytes available (248 missing)");
  EXPECT_EQ(s.needed_bytes(), 1024u + 248u);  // = used 824 + 448
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(a.GetUsedBytes(), 824u);                   // unchanged by the failure
  EXPECT_TRUE(a.AllocatePersistent(200, 8, &p).ok());  // exactly fits
  EXPECT_EQ(p, buf + 624);
  EXPECT_EQ(a.GetAvailableMemory(1), 0u);
}

TEST(SingleArenaAllocatorTest, TempOverflowCountsAlignmentPadding) {
  alignas(16) uint8_t buf[1024];
  SingleArenaAllocator a(buf, sizeof(buf));
  ASSERT_TRUE(a.ResizeHead(100).ok());
  uint8_t* p = nullptr;
  ASSERT_TRUE(a.AllocatePersistent(512, 16, &p).ok());
  Status s = a.AllocateTemp(500, 16, &p);  // would start at 112, tail at 512
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_STREQ(s.message(),
               "temp allocation of 500 bytes failed: 400 bytes available (100 missing)");
  EXPECT_EQ(s.needed_bytes(), 1124u);  // 112 + 500 + 512
  EXPECT_TRUE(a.AllocateTemp(400, 16, &p).ok());
  EXPECT_EQ(p, buf + 112);
}

TEST(SingleArenaAllocatorTest, HeadOverflowMessage) {
  alignas(16) uint8_t buf[4096];
  SingleArenaAllocator a(buf, sizeof(buf));
  uint8_t* p = nullptr;
  ASSERT_TRUE(a.AllocatePersistent(2016, 16, &p).ok());
  Status s = a.ResizeHead(7744);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_STREQ(s.message(),
               "head resize to 7744 bytes failed: 2080 bytes available (5664 missing)");
  EXPECT_EQ(s.needed_bytes(), 4096u + 5664u);
  EXPECT_EQ(a.GetNonPersistentUsedBytes(), 0u);
}

// TFLM lets a tail allocation overwrite live temp data, and the free-space
// arithmetic then underflows (docs/tflm_behaviour.md, section "Tail over
// temp"). Here it fails cleanly.
TEST(SingleArenaAllocatorTest, TailMayNotCrossLiveTemp) {
  alignas(16) uint8_t buf[1024];
  SingleArenaAllocator a(buf, sizeof(buf));
  uint8_t* temp = nullptr;
  ASSERT_TRUE(a.AllocateTemp(600, 16, &temp).ok());
  std::memset(temp, 0xAB, 600);
  uint8_t* p = nullptr;
  ASSERT_TRUE(a.AllocatePersistent(200, 16, &p).ok());
  Status s = a.AllocatePersistent(300, 16, &p);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_STREQ(s.message(),
               "tail allocation of 300 bytes failed: 208 bytes available (92 missing)");
  EXPECT_EQ(s.needed_bytes(), 1024u + 92u);
  EXPECT_EQ(a.GetAvailableMemory(16), 208u);  // 816 - 608, not a wrapped value
  EXPECT_LE(a.GetUsedBytes(), a.capacity());
  for (int i = 0; i < 600; ++i) ASSERT_EQ(temp[i], 0xAB);
  // And temp may not cross tail either.
  EXPECT_EQ(a.AllocateTemp(300, 16, &p).code(), StatusCode::kArenaTooSmall);
  // Fill the gap exactly, then nothing more fits anywhere.
  ASSERT_TRUE(a.AllocatePersistent(208, 16, &p).ok());
  EXPECT_EQ(p, buf + 608);
  EXPECT_EQ(a.GetAvailableMemory(16), 0u);
  EXPECT_EQ(a.GetAvailableMemory(1), 8u);  // 600..608: only unaligned bytes left
  EXPECT_EQ(a.AllocateTemp(1, 16, &p).code(), StatusCode::kArenaTooSmall);
  EXPECT_EQ(a.AllocatePersistent(1, 16, &p).code(), StatusCode::kArenaTooSmall);
  EXPECT_EQ(a.GetUsedBytes(), 1016u);
}

TEST(SingleArenaAllocatorTest, HugeRequestsSaturate) {
  alignas(16) uint8_t buf[256];
  SingleArenaAllocator a(buf, sizeof(buf));
  uint8_t* p = nullptr;
  Status s = a.AllocatePersistent(SIZE_MAX, 16, &p);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_EQ(s.needed_bytes(), SIZE_MAX);
  EXPECT_EQ(a.AllocateTemp(SIZE_MAX, 16, &p).code(), StatusCode::kArenaTooSmall);
  EXPECT_EQ(a.ResizeHead(SIZE_MAX).code(), StatusCode::kArenaTooSmall);
  EXPECT_EQ(a.GetUsedBytes(), 0u);
}

TEST(SingleArenaAllocatorTest, InvalidArguments) {
  alignas(16) uint8_t buf[256];
  SingleArenaAllocator a(buf, sizeof(buf));
  uint8_t* p = nullptr;
  EXPECT_EQ(a.AllocatePersistent(4, 0, &p).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(a.AllocatePersistent(4, 16, nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(a.AllocatePersistent(4, 16, AllocationCategory::kCount, &p).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(a.AllocateTemp(4, 0, &p).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(a.AllocateTemp(4, 16, nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(a.ResizeHead(4, 0).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(a.GetUsedBytes(), 0u);
  EXPECT_EQ(a.GetAvailableMemory(0), 256u);  // treated as 1
}

// A fixed sequence: head 100, temp 200, reset, tail 64, temp 300.
Status RunSequence(SingleArenaAllocator& a) {
  uint8_t* p = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(a.ResizeHead(100));
  TFLM_ARENA_RETURN_IF_ERROR(a.AllocateTemp(200, 16, &p));
  a.DeallocateTemp(p);
  TFLM_ARENA_RETURN_IF_ERROR(a.ResetTemp());
  TFLM_ARENA_RETURN_IF_ERROR(a.AllocatePersistent(64, 16, &p));
  TFLM_ARENA_RETURN_IF_ERROR(a.AllocateTemp(300, 16, &p));
  a.DeallocateTemp(p);
  return a.ResetTemp();
}

TEST(SingleArenaAllocatorTest, HighWaterMarksSizeAnExactArena) {
  alignas(16) uint8_t buf[2048];
  SingleArenaAllocator a(buf, sizeof(buf));
  ASSERT_TRUE(RunSequence(a).ok());
  EXPECT_EQ(a.HighWaterHead(), 412u);  // 112 + 300
  EXPECT_EQ(a.HighWaterTail(), 64u);
  EXPECT_EQ(a.HighWaterTotal(), 476u);  // 412 + 64 at the same time
  EXPECT_EQ(a.GetUsedBytes(), 164u);    // after the run: far less than needed

  // Measured with a 16-aligned end, so the smallest arena with an aligned end
  // is the high-water mark rounded up to 16.
  const size_t exact_size = AlignSizeUp(a.HighWaterTotal(), 16);
  SingleArenaAllocator exact(buf, exact_size);
  EXPECT_TRUE(RunSequence(exact).ok());
  EXPECT_EQ(exact.HighWaterTotal(), a.HighWaterTotal());
  SingleArenaAllocator one_less(buf, exact_size - 1);  // end padding bites
  EXPECT_EQ(RunSequence(one_less).code(), StatusCode::kArenaTooSmall);
  SingleArenaAllocator aligned_less(buf, exact_size - 16);
  Status s = RunSequence(aligned_less);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_EQ(s.needed_bytes(), a.HighWaterTotal());
}

}  // namespace
}  // namespace tflm_arena
