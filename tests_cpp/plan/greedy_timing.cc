// Manual timing check for the greedy planners (not a unit test: timings are
// machine-dependent). Usage: plan_greedy_timing [max_runtime_n] [max_live250_n]
// Realistic input: buffer i lives [i, i+1]; ~5% skip 10..200 steps further;
// sizes are random multiples of 16 in 16..64K. Also two stress shapes.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "tflm_arena/plan/plan.h"

namespace {

using tflm_arena::PlanResult;
using tflm_arena::Status;
using tflm_arena::UsageRecord;

std::vector<UsageRecord> Realistic(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<UsageRecord> records(n);
  for (int i = 0; i < n; ++i) {
    records[i].size = 16 * static_cast<int64_t>(1 + rng() % 4096);
    records[i].first_step = i;
    records[i].last_step = i + 1 + (rng() % 20 == 0 ? static_cast<int>(10 + rng() % 191) : 0);
  }
  return records;
}

std::vector<UsageRecord> AllLive(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<UsageRecord> records(n);
  for (int i = 0; i < n; ++i) {
    records[i].size = 16 * static_cast<int64_t>(1 + rng() % 8);
    records[i].first_step = 0;
    records[i].last_step = 1;
  }
  return records;
}

// Buffer i starts at step i and lives 0..2*live-2 more steps, so about
// `live` buffers are live at every step: the dense-overlap stress shape.
std::vector<UsageRecord> Window(int n, int live, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<UsageRecord> records(n);
  for (int i = 0; i < n; ++i) {
    records[i].size = 16 * static_cast<int64_t>(1 + rng() % 4096);
    records[i].first_step = i;
    records[i].last_step = i + static_cast<int>(rng() % (2 * live - 1));
  }
  return records;
}

// Half the buffers live the whole time, the rest form a chain.
std::vector<UsageRecord> LongLived(int n, uint64_t seed) {
  std::vector<UsageRecord> records = Realistic(n, seed);
  for (int i = 0; i < n; i += 2) {
    records[i].first_step = 0;
    records[i].last_step = n;
    records[i].size = 16;
  }
  return records;
}

template <typename F>
double Millis(F&& f, int repeats) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return best;
}

void Run(const char* shape, const std::vector<UsageRecord>& records, int max_runtime_n) {
  PlanResult fast, runtime;
  Status s;
  const double fast_ms = Millis([&] { s = tflm_arena::PlanTflmGreedy(records, &fast); }, 5);
  if (!s.ok()) std::printf("fast failed: %s\n", s.message());
  std::printf("%-10s n=%7zu  fast %9.2f ms", shape, records.size(), fast_ms);
  if (static_cast<int>(records.size()) <= max_runtime_n) {
    const double runtime_ms =
        Millis([&] { s = tflm_arena::PlanTflmGreedyRuntime(records, &runtime); }, 1);
    std::printf(
        "  runtime %10.2f ms  same=%s", runtime_ms,
        fast.offsets == runtime.offsets && fast.arena_bytes == runtime.arena_bytes ? "yes" : "NO");
  }
  std::printf("  arena=%lld lower_bound=%lld\n", static_cast<long long>(fast.arena_bytes),
              static_cast<long long>(tflm_arena::LowerBound(records)));
}

}  // namespace

int main(int argc, char** argv) {
  const int max_runtime_n = argc > 1 ? std::atoi(argv[1]) : 100000;
  for (int n : {1000, 10000, 100000}) Run("realistic", Realistic(n, n), max_runtime_n);
  for (int n : {1000, 10000}) Run("long-lived", LongLived(n, n), max_runtime_n);
  for (int n : {200, 400, 1000, 10000}) Run("all-live", AllLive(n, n), max_runtime_n);
  const int max_window_n = argc > 2 ? std::atoi(argv[2]) : 1000000;
  for (int n : {10000, 160000, 1000000}) {
    if (n <= max_window_n) Run("live-250", Window(n, 250, n), max_runtime_n);
  }
  return 0;
}
