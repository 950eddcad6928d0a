// SortByOffset (the fast greedy's radix sort) must order keys by their high
// half exactly, whichever bits of the offsets differ, and lose no key.
#include "tflm_arena/plan/offset_sort.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace tflm_arena {
namespace plan_internal {
namespace {

// Sorts a copy with SortByOffset and checks it against std::sort.
void ExpectSorted(std::vector<uint64_t> keys) {
  std::vector<uint64_t> work = keys;
  std::vector<uint64_t> tmp(keys.size());
  const uint64_t* sorted = SortByOffset(work.data(), tmp.data(), work.size());
  std::vector<uint64_t> got(sorted, sorted + keys.size());
  for (size_t i = 1; i < got.size(); ++i) {
    ASSERT_LE(got[i - 1] >> 32, got[i] >> 32) << "at " << i << " of " << got.size();
  }
  std::sort(got.begin(), got.end());  // same keys, none lost or doubled
  std::sort(keys.begin(), keys.end());
  ASSERT_EQ(got, keys);
}

uint64_t Key(uint32_t offset, uint32_t end) { return uint64_t{offset} << 32 | end; }

TEST(OffsetSortTest, SmallAndEmpty) {
  ExpectSorted({});
  ExpectSorted({Key(5, 6)});
  ExpectSorted({Key(5, 6), Key(1, 9), Key(5, 5), Key(0, 0)});
}

TEST(OffsetSortTest, EveryBitPatternOfOffsets) {
  std::mt19937_64 rng(1);
  for (size_t count : {63, 64, 65, 100, 257, 3000}) {
    // Which offset bits vary: one low bit only, 16-aligned 20 bits, the top
    // bits only, all 32 bits, and a random run of bits.
    for (int pattern = 0; pattern < 6; ++pattern) {
      const int low = pattern == 0 ? 0 : pattern == 1 ? 4 : pattern == 2 ? 29 : 0;
      const int width = pattern == 0 ? 1 : pattern == 1 ? 20 : pattern == 2 ? 3 : 32;
      const int random_low = static_cast<int>(rng() % 32);
      const int random_width = 1 + static_cast<int>(rng() % (32 - random_low));
      const int l = pattern >= 4 ? random_low : low;
      const int w = pattern >= 4 ? random_width : width;
      const uint32_t base =
          static_cast<uint32_t>(rng()) & ~(((w == 32 ? ~0u : (1u << w) - 1)) << l);
      std::vector<uint64_t> keys;
      for (size_t i = 0; i < count; ++i) {
        const uint32_t bits = static_cast<uint32_t>(rng()) & (w == 32 ? ~0u : (1u << w) - 1);
        keys.push_back(Key(base | bits << l, static_cast<uint32_t>(rng())));
      }
      ExpectSorted(keys);
    }
  }
}

TEST(OffsetSortTest, AllEqualOrOneDifferent) {
  std::vector<uint64_t> keys;
  for (int i = 0; i < 200; ++i) keys.push_back(Key(4096, 200 - i));
  ExpectSorted(keys);
  keys[117] = Key(4095, 7);  // one key below, in the middle
  ExpectSorted(keys);
  keys[117] = Key(0x80000000u, 7);  // one key far above
  ExpectSorted(keys);
}

TEST(OffsetSortTest, ResultMayBeInEitherBuffer) {
  // An odd and an even number of passes both come back sorted.
  for (uint32_t spread : {0xffu, 0xffffu, 0xffffffu}) {
    std::vector<uint64_t> keys;
    for (uint32_t i = 0; i < 100; ++i) keys.push_back(Key((i * 2654435761u) & spread, i));
    ExpectSorted(keys);
  }
}

}  // namespace
}  // namespace plan_internal
}  // namespace tflm_arena
