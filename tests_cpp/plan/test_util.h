// Helpers shared by the plan tests.
#ifndef TFLM_ARENA_TESTS_CPP_PLAN_TEST_UTIL_H_
#define TFLM_ARENA_TESTS_CPP_PLAN_TEST_UTIL_H_

#include <vector>

#include "person_detection.h"
#include "tflm_arena/core/usage_record.h"

namespace tflm_arena {
namespace testing {

inline UsageRecord Rec(int64_t size, Step first, Step last, ByteOffset fixed = kOnlineOffset) {
  UsageRecord r;
  r.size = size;
  r.first_step = first;
  r.last_step = last;
  r.fixed_offset = fixed;
  return r;
}

inline std::vector<UsageRecord> PersonDetectionRecords() {
  std::vector<UsageRecord> records;
  for (const TestBuffer& b : kPersonDetection) records.push_back(Rec(b.size, b.first, b.last));
  return records;
}

}  // namespace testing
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TESTS_CPP_PLAN_TEST_UTIL_H_
