// KeepLive and KeepPlaced: the scalar and the vector forms keep exactly the
// keys a plain filter keeps, in order, for every length 0..40 (whole vectors
// and every tail) and every threshold, and write nothing past the slack.
#include "tflm_arena/plan/key_filter.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace tflm_arena {
namespace plan_internal {
namespace {

constexpr uint64_t kGuard = 0x5a5a5a5a5a5a5a5a;

struct KeyRun {
  std::vector<uint64_t> keys;
  std::vector<int32_t> last;
};

KeyRun RandomRun(size_t n, std::mt19937& rng) {
  KeyRun run;
  std::uniform_int_distribution<int32_t> last(-1, 9);
  for (size_t i = 0; i < n; ++i) {
    const int32_t l = last(rng);
    run.last.push_back(l);
    // Unplaced slots (last -1) hold the empty key, as in IntervalIndex.
    run.keys.push_back(l < 0 ? kEmptyKey : (uint64_t{i} << 32 | static_cast<uint32_t>(l)));
  }
  return run;
}

// out: `at` guard keys already there, then room for n keys and the slack,
// then guards the filter must not reach.
std::vector<uint64_t> Room(size_t at, size_t n) {
  return std::vector<uint64_t>(at + n + kFilterSlack + 8, kGuard);
}

void ExpectKept(const std::vector<uint64_t>& out, size_t at, size_t end,
                const std::vector<uint64_t>& want, size_t n) {
  ASSERT_EQ(end, at + want.size());
  for (size_t i = 0; i < at; ++i) EXPECT_EQ(out[i], kGuard) << "before the start, at " << i;
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(out[at + i], want[i]) << "key " << i;
  for (size_t i = at + n + kFilterSlack; i < out.size(); ++i) {
    EXPECT_EQ(out[i], kGuard) << "past the slack, at " << i;
  }
}

TEST(KeyFilterTest, KeepLiveMatchesAPlainFilter) {
  std::mt19937 rng(7);
  for (size_t n = 0; n <= 40; ++n) {
    const KeyRun run = RandomRun(n, rng);
    for (int32_t live_at = 0; live_at <= 10; ++live_at) {
      std::vector<uint64_t> want;
      for (size_t i = 0; i < n; ++i) {
        if (run.last[i] >= live_at) want.push_back(run.keys[i]);
      }
      // The vector form only where the CPU has AVX-512 (it is compiled in
      // whenever the compiler can, and would fault elsewhere).
      for (auto* filter :
           {&KeepLiveScalar, Avx512() ? &KeepLiveVector : &KeepLiveScalar, &KeepLive}) {
        const size_t at = n % 3;
        std::vector<uint64_t> out = Room(at, n);
        const size_t end = filter(run.keys.data(), run.last.data(), n, live_at, out.data(), at);
        ExpectKept(out, at, end, want, n);
      }
    }
  }
}

TEST(KeyFilterTest, KeepPlacedMatchesAPlainFilter) {
  std::mt19937 rng(11);
  for (size_t n = 0; n <= 40; ++n) {
    const KeyRun run = RandomRun(n, rng);
    std::vector<uint64_t> want;
    for (uint64_t key : run.keys) {
      if (key != kEmptyKey) want.push_back(key);
    }
    for (auto* filter :
         {&KeepPlacedScalar, Avx512() ? &KeepPlacedVector : &KeepPlacedScalar, &KeepPlaced}) {
      const size_t at = n % 3;
      std::vector<uint64_t> out = Room(at, n);
      const size_t end = filter(run.keys.data(), n, out.data(), at);
      ExpectKept(out, at, end, want, n);
    }
  }
}

// The vector form is what runs on a machine with AVX-512; say so
// when it does not (the tests above then ran the scalar form twice).
TEST(KeyFilterTest, VectorFormIsTestedHere) {
  if (!Avx512()) GTEST_SKIP() << "no AVX-512 here: only the scalar filters were tested";
  SUCCEED();
}

}  // namespace
}  // namespace plan_internal
}  // namespace tflm_arena
