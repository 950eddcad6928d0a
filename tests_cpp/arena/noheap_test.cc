// Zero-heap proof for the arena layer. This binary replaces the global
// operator new/delete family (and, on glibc without sanitizers, malloc itself,
// which also catches libc-internal use such as vsnprintf) with versions that
// count calls while a flag is set, then runs every allocator and recorder call,
// error paths included, inside that window. Nothing in the window may call a
// gtest assertion (they allocate); results are collected first, checked after.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "gtest/gtest.h"
#include "tflm_arena/arena/recording_allocator.h"
#include "tflm_arena/arena/single_arena_allocator.h"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<size_t> g_new_calls{0};
std::atomic<size_t> g_malloc_calls{0};

void* CountedNew(size_t n) {
  if (g_counting.load()) g_new_calls.fetch_add(1);
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* CountedAlignedNew(size_t n, std::align_val_t al) {
  if (g_counting.load()) g_new_calls.fetch_add(1);
  const size_t a = static_cast<size_t>(al);
  void* p = std::aligned_alloc(a, (n + a - 1) / a * a);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(size_t n) { return CountedNew(n); }
void* operator new[](size_t n) { return CountedNew(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return std::malloc(n ? n : 1); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return std::malloc(n ? n : 1); }
void* operator new(size_t n, std::align_val_t a) { return CountedAlignedNew(n, a); }
void* operator new[](size_t n, std::align_val_t a) { return CountedAlignedNew(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { std::free(p); }

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFLM_ARENA_NOHEAP_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TFLM_ARENA_NOHEAP_ASAN 1
#endif

#if defined(__GLIBC__) && !defined(TFLM_ARENA_NOHEAP_ASAN)
#define TFLM_ARENA_NOHEAP_MALLOC 1
// glibc supports replacing malloc; forwarding to its own implementation keeps
// one heap, so memory from the unreplaced memalign & co. frees correctly.
extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void __libc_free(void*);
void* malloc(size_t n) noexcept {
  if (g_counting.load()) g_malloc_calls.fetch_add(1);
  return __libc_malloc(n);
}
void* calloc(size_t n, size_t m) noexcept {
  if (g_counting.load()) g_malloc_calls.fetch_add(1);
  return __libc_calloc(n, m);
}
void* realloc(void* p, size_t n) noexcept {
  if (g_counting.load()) g_malloc_calls.fetch_add(1);
  return __libc_realloc(p, n);
}
void free(void* p) noexcept { __libc_free(p); }
}
#endif

namespace tflm_arena {
namespace {

// Results collected inside the counting window (no gtest calls there).
struct Checks {
  int failed_line = 0;
  int count = 0;
  void Expect(bool ok, int line) {
    ++count;
    if (!ok && failed_line == 0) failed_line = line;
  }
};
#define NOHEAP_EXPECT(checks, cond) (checks).Expect((cond), __LINE__)

using C = AllocationCategory;

void FullScenario(Checks& c) {
  alignas(16) static uint8_t buf[4096];
  char text[2048];
  uint8_t* p = nullptr;
  uint8_t* t1 = nullptr;
  uint8_t* t2 = nullptr;

  SingleArenaAllocator plain(buf + 3, 1000);
  NOHEAP_EXPECT(c, plain.ResizeHead(100).ok());
  NOHEAP_EXPECT(c, plain.AllocateTemp(64, 16, &t1).ok());
  NOHEAP_EXPECT(c, !plain.ResizeHead(10).ok());  // temp outstanding
  NOHEAP_EXPECT(c, !plain.ResetTemp().ok());     // message formatted
  plain.DeallocateTemp(t1);
  plain.DeallocateTemp(nullptr);
  NOHEAP_EXPECT(c, plain.IsAllTempDeallocated());
  NOHEAP_EXPECT(c, plain.ResetTemp().ok());
  NOHEAP_EXPECT(c, plain.AllocatePersistent(32, 16, &p).ok());
  NOHEAP_EXPECT(c, plain.AllocateTemp(600, 16, &t2).ok());
  Status s = plain.AllocatePersistent(500, 16, &p);  // TFLM would let it cross temp; must not
  NOHEAP_EXPECT(c, s.code() == StatusCode::kArenaTooSmall && s.needed_bytes() > 0);
  NOHEAP_EXPECT(c, !plain.AllocateTemp(SIZE_MAX, 16, &p).ok());
  NOHEAP_EXPECT(c, !plain.AllocatePersistent(4, 0, &p).ok());
  plain.DeallocateTemp(t2);
  NOHEAP_EXPECT(c, plain.ResetTemp().ok());
  NOHEAP_EXPECT(c, !plain.ResizeHead(5000).ok());
  NOHEAP_EXPECT(c, plain.GetAvailableMemory(16) <= plain.capacity());
  NOHEAP_EXPECT(c, plain.GetUsedBytes() <= plain.HighWaterTotal());
  NOHEAP_EXPECT(c, plain.HighWaterHead() > 0 && plain.HighWaterTail() > 0);

  RecordingArenaAllocator rec(buf, sizeof(buf));
  for (size_t i = 0; i < kAllocationCategoryCount; ++i) {
    NOHEAP_EXPECT(c, rec.AllocatePersistent(10 + i, 16, static_cast<C>(i), &p, 2).ok());
    NOHEAP_EXPECT(c, AllocationCategoryName(static_cast<C>(i))[0] != '\0');
    NOHEAP_EXPECT(c, AllocationCategoryNoun(static_cast<C>(i))[0] != '\0');
  }
  NOHEAP_EXPECT(c, rec.AllocatePersistent(8, 8, &p).ok());
  NOHEAP_EXPECT(c, rec.ResizeHead(256).ok());
  NOHEAP_EXPECT(c, rec.AllocateTemp(16, 16, &t1).ok());
  NOHEAP_EXPECT(c, !rec.AllocatePersistent(8000, 16, C::kOpData, &p).ok());
  NOHEAP_EXPECT(c, !rec.AllocatePersistent(8, 16, C::kCount, &p).ok());
  NOHEAP_EXPECT(c, rec.GetRecordedAllocation(C::kOpData).count == 2);
  NOHEAP_EXPECT(c, rec.recording().allocation_count() == kAllocationCategoryCount + 1);
  const int n = rec.PrintAllocations(text, sizeof(text));
  NOHEAP_EXPECT(c, n > 0 && static_cast<size_t>(n) == std::strlen(text));
  NOHEAP_EXPECT(c, rec.PrintAllocations(text, 10) == n);
  NOHEAP_EXPECT(c, rec.PrintAllocations(nullptr, 0) == n);

  AllocationRecorder recorder;
  plain.set_recorder(&recorder);
  NOHEAP_EXPECT(c, plain.AllocatePersistent(16, 16, C::kVariableBufferData, &p).ok());
  NOHEAP_EXPECT(c, recorder.PrintAllocations(plain, text, sizeof(text)) > 0);
  plain.set_recorder(nullptr);

  SingleArenaAllocator empty(nullptr, 0);
  NOHEAP_EXPECT(c, !empty.AllocatePersistent(1, 16, &p).ok());
  NOHEAP_EXPECT(c, empty.capacity() == 0);
}

TEST(ArenaNoHeapTest, CounterSeesAllocations) {
  static void* volatile sink;
  g_new_calls = 0;
  g_malloc_calls = 0;
  g_counting = true;
  sink = ::operator new(16);
  g_counting = false;
  ::operator delete(sink);
  EXPECT_GE(g_new_calls.load(), 1u);
#ifdef TFLM_ARENA_NOHEAP_MALLOC
  g_counting = true;
  sink = std::malloc(16);
  g_counting = false;
  std::free(sink);
  EXPECT_GE(g_malloc_calls.load(), 1u);  // counts our new's malloc too
#endif
}

TEST(ArenaNoHeapTest, FullScenarioAllocatesNothing) {
  Checks checks;
  g_new_calls = 0;
  g_malloc_calls = 0;
  g_counting = true;
  FullScenario(checks);
  g_counting = false;
  EXPECT_EQ(g_new_calls.load(), 0u);
  EXPECT_EQ(g_malloc_calls.load(), 0u);
  EXPECT_EQ(checks.failed_line, 0) << "first failing check at line " << checks.failed_line;
  EXPECT_GT(checks.count, 40);
}

}  // namespace
}  // namespace tflm_arena
