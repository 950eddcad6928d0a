// Manual check (not a test): reorder_timing [time_limit_s]
// ReorderForPeak on randomly wired cells (each operator reads 1-2 of the
// last `window` tensors, sizes 16..4096 bytes), printing peak before/after,
// whether the order is proven optimal, the search used and the time.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "tflm_arena/plan/reorder.h"

namespace {

tflm_arena::ReorderGraph RandomlyWired(size_t n, size_t window, std::mt19937* rng) {
  tflm_arena::ReorderGraph g;
  g.tensor_bytes = {1024};
  g.inputs = {0};
  for (size_t i = 0; i < n; ++i) {
    const size_t avail = g.tensor_bytes.size(), lo = avail > window ? avail - window : 0;
    tflm_arena::ReorderOp op;
    for (size_t j = 0, k = 1 + (*rng)() % 2; j < k; ++j) {
      op.inputs.push_back(static_cast<int32_t>(lo + (*rng)() % (avail - lo)));
    }
    op.outputs = {static_cast<int32_t>(avail)};
    g.tensor_bytes.push_back(16 * (1 + (*rng)() % 256));
    g.ops.push_back(op);
  }
  g.outputs = {static_cast<int32_t>(g.tensor_bytes.size() - 1)};
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  tflm_arena::ReorderOptions options;
  options.time_limit_seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  std::mt19937 rng(5);
  std::printf("%5s %6s %8s %8s %6s %6s %9s %9s\n", "ops", "window", "before", "after", "gain%",
              "exact", "method", "ms");
  for (size_t n : {20, 40, 60, 100, 200, 400, 1000}) {
    for (size_t window : {4, 8, 16}) {
      const tflm_arena::ReorderGraph g = RandomlyWired(n, window, &rng);
      tflm_arena::ReorderResult r;
      const auto t0 = std::chrono::steady_clock::now();
      tflm_arena::Status s = tflm_arena::ReorderForPeak(g, options, &r);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (!s.ok()) {
        std::printf("error: %s\n", s.message());
        return 1;
      }
      std::printf("%5zu %6zu %8lld %8lld %6.1f %6s %9s %9.1f%s\n", n, window,
                  static_cast<long long>(r.peak_before), static_cast<long long>(r.peak_after),
                  100.0 * (r.peak_before - r.peak_after) / r.peak_before, r.exact ? "yes" : "no",
                  r.method, ms, r.timed_out ? " (time limit)" : "");
    }
  }
  return 0;
}
