// Offline-plan aliases: ForEachOfflineAlias (reports every pair),
// FindOfflineAlias (the runtime's first-pair check) and DescribeOfflineAlias
// agree on which offline tensors share bytes while live.
#include "tflm_arena/model/offline_aliases.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace tflm_arena {
namespace model {
namespace {

AllocationEntry Fixed(int32_t offset, size_t bytes, Step first, Step last) {
  AllocationEntry e;
  e.offline_offset = offset;
  e.bytes = bytes;
  e.first_created = first;
  e.last_used = last;
  e.needs_allocating = true;
  return e;
}

std::vector<std::pair<size_t, size_t>> AllPairs(Span<const AllocationEntry> entries) {
  std::vector<std::pair<size_t, size_t>> pairs;
  EXPECT_TRUE(ForEachOfflineAlias(
                  entries,
                  [](const OfflineAlias& a, void* context) {
                    static_cast<std::vector<std::pair<size_t, size_t>>*>(context)->emplace_back(
                        a.a, a.b);
                    return true;
                  },
                  &pairs)
                  .ok());
  return pairs;
}

TEST(OfflineAliases, FirstPairAndDescriptionMatchTheFullScan) {
  std::vector<AllocationEntry> entries = {
      Fixed(0, 20, 0, 2),   // 0: slot [0, 32)
      Fixed(16, 16, 1, 1),  // 1: [16, 32), live inside 0: aliases 0
      Fixed(32, 16, 0, 5),  // 2: [32, 48): touches 0's slot, shares nothing
      Fixed(0, 64, 3, 4),   // 3: [0, 64) after 0 and 1 died; overlaps 2 live
      Fixed(0, 64, 0, 9),   // 4: overlaps everything, but not planned
  };
  entries[4].needs_allocating = false;  // preallocated: never compared
  const Span<const AllocationEntry> span(entries.data(), entries.size());
  const auto pairs = AllPairs(span);
  ASSERT_EQ(pairs, (std::vector<std::pair<size_t, size_t>>{{0, 1}, {2, 3}}));

  bool found = false;
  size_t a = 9, b = 9;
  ASSERT_TRUE(FindOfflineAlias(span, &found, &a, &b).ok());
  EXPECT_TRUE(found);
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 1u);
  const OfflineAlias d = DescribeOfflineAlias(span, 2, 3);
  EXPECT_EQ(d.overlap_begin, 32);
  EXPECT_EQ(d.overlap_end, 48);
  EXPECT_EQ(d.first_common, 3);
  EXPECT_EQ(d.last_common, 4);
}

TEST(OfflineAliases, NoneFoundWhenApartInTimeOrBytes) {
  std::vector<AllocationEntry> entries = {
      Fixed(0, 16, 0, 1), Fixed(0, 16, 2, 3),   // same bytes, never live together
      Fixed(16, 1, 0, 3), Fixed(-1, 64, 0, 3),  // disjoint; the last is online
  };
  const Span<const AllocationEntry> span(entries.data(), entries.size());
  EXPECT_TRUE(AllPairs(span).empty());
  bool found = true;
  size_t a = 0, b = 0;
  ASSERT_TRUE(FindOfflineAlias(span, &found, &a, &b).ok());
  EXPECT_FALSE(found);
}

TEST(OfflineAliases, TooManyOfflineEntriesAreRefusedNotScanned) {
  // One entry more than the largest count whose pairs fit kMaxAliasChecks
  // is refused by both entry points before any pair is compared. (Scanning
  // the largest accepted count, 23,170 entries, would take seconds under
  // the sanitizers; the small cases above show acceptance.)
  size_t limit = 1;
  while (uint64_t{limit + 1} * limit / 2 <= kMaxAliasChecks) ++limit;
  EXPECT_EQ(limit, 23170u);
  std::vector<AllocationEntry> entries;
  for (size_t i = 0; i <= limit; ++i) {
    entries.push_back(Fixed(static_cast<int32_t>(16 * i), 16, 0, 0));  // disjoint
  }
  entries.push_back(Fixed(0, 16, 0, 0));
  entries.back().needs_allocating = false;  // not counted
  bool found = true;
  size_t a = 0, b = 0;
  const Span<const AllocationEntry> span(entries.data(), entries.size());
  EXPECT_EQ(FindOfflineAlias(span, &found, &a, &b).code(), StatusCode::kUnimplemented);
  EXPECT_FALSE(found);
  EXPECT_EQ(ForEachOfflineAlias(
                span, [](const OfflineAlias&, void*) { return true; }, nullptr)
                .code(),
            StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace model
}  // namespace tflm_arena
