// Counts heap allocations made through global operator new / new[] (every
// form: plain, nothrow, aligned). heap_counter.cc replaces those operators
// for the whole test binary, so link it into a dedicated binary
// (plan_noheap_tests) and never into a library.
//
// Use: HeapCounter counter; ...code under test...; EXPECT_EQ(counter.count(), 0);
// Keep gtest assertions outside the measured region (they may allocate).
#ifndef TFLM_ARENA_TESTS_CPP_PLAN_HEAP_COUNTER_H_
#define TFLM_ARENA_TESTS_CPP_PLAN_HEAP_COUNTER_H_

#include <cstdint>

namespace tflm_arena {
namespace testing {

// Total operator-new calls since the binary started.
int64_t HeapAllocationsSoFar();

class HeapCounter {
 public:
  HeapCounter() : start_(HeapAllocationsSoFar()) {}
  int64_t count() const { return HeapAllocationsSoFar() - start_; }

 private:
  int64_t start_;
};

}  // namespace testing
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TESTS_CPP_PLAN_HEAP_COUNTER_H_
