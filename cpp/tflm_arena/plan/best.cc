// PlanBest (strategies.h): strategy "best", every strategy the registry
// marks tried_by_best, on worker threads.
//
// Tasks: one per entry, except that "optimal" is chained behind
// "tflm_greedy" (one task, one thread) and starts from its plan. Workers take
// tasks from one queue in list order, even-numbered workers from its front
// and odd-numbered ones from its back: the slowest strategies on large inputs
// sit at both ends (TFLM's greedy with optimal, and the GPU delegate's
// offset planner at the front; its shared-object planners at the back), so
// two threads start on two slow ones and finish the short ones last.
// Results are kept per entry and compared in list order once every task has
// ended, so scheduling never changes which plan wins.
//
// The calling thread starts the workers and polls the caller's cancel hook
// while they run (Python's signal handlers run only on the main thread); the
// workers' own hooks read flags it sets. If no worker thread can be started,
// the calling thread runs every task itself, polling the caller's hook.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "tflm_arena/plan/maybe_thread.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/strategies.h"

namespace tflm_arena {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(10);

// One entry's run.
struct Entry {
  const StrategyInfo* info = nullptr;
  Status status;
  PlanResult plan;
  bool ran = false;
  bool proven = false;  // optimal proved its plan optimal
};

class BestRun {
 public:
  BestRun(Span<const UsageRecord> records, const OptimalOptions& options)
      : records_(records), options_(options), lower_bound_(LowerBound(records)) {
    for (const StrategyInfo& s : Strategies()) {
      if (!s.tried_by_best) continue;
      Entry e;
      e.info = &s;
      entries_.push_back(e);
    }
    for (size_t i = 0; i < entries_.size(); ++i) {
      if (std::strcmp(entries_[i].info->name, "tflm_greedy") == 0) greedy_ = i;
    }
    for (size_t i = 0; i < entries_.size(); ++i) {
      const bool optimal = std::strcmp(entries_[i].info->name, "optimal") == 0;
      if (optimal && greedy_ != kNone) {
        optimal_after_greedy_ = i;
        continue;
      }
      queue_.push_back(i);
    }
  }

  size_t tasks() const { return queue_.size(); }

  // Runs every task on `threads` workers (at least one; the calling thread
  // runs them all if no worker can be started).
  void Run(size_t threads) {
    std::vector<std::thread> workers;
    for (size_t w = 0; w < threads; ++w) {
      try {
        workers.emplace_back([this, w] {
          const plan_internal::SharedWorkerScope shared;  // no helper threads of their own
          Work(w % 2 == 1, false);
        });
      } catch (const std::system_error&) {
        break;  // no more threads: the ones started (or this one) do the rest
      }
    }
    if (workers.empty()) {
      Work(false, true);
    } else {
      for (;;) {
        {
          std::unique_lock<std::mutex> lock(mutex_);
          if (running_ + queue_.size() == 0) break;
          done_.wait_for(lock, kPollInterval);
          if (running_ + queue_.size() == 0) break;
        }
        // Not under mutex_: the hook may wait for Python's lock, which a
        // worker holds while it reports progress.
        if (!cancelled_ && CallerStops()) cancelled_ = true;
      }
      for (std::thread& t : workers) t.join();
    }
  }

  bool cancelled() const { return cancelled_; }

  // The smallest plan in list order, or the error when none planned.
  Status Result(PlanResult* out, BestStats* stats) {
    Entry* best = nullptr;
    std::string refused;
    size_t skipped = 0;
    for (size_t i = 0; i < entries_.size(); ++i) {
      Entry& e = entries_[i];
      if (!e.ran) {  // skipped: an earlier entry reached the bound
        ++skipped;
        continue;
      }
      if (!e.status.ok()) {
        if (i > reached_bound_) {  // stopped for that, not a refusal
          ++skipped;
          continue;
        }
        const std::string line = std::string(e.info->name) + ": " + e.status.message();
        if (stats != nullptr) stats->refused.push_back(line);
        refused += (refused.empty() ? "" : "; ") + line;
        continue;
      }
      if (best == nullptr || e.plan.arena_bytes < best->plan.arena_bytes) best = &e;
    }
    if (best == nullptr) {
      return Status::Error(StatusCode::kInternal, "no strategy planned these records: %s",
                           refused.c_str());
    }
    bool proven = best->plan.arena_bytes <= lower_bound_;
    for (const Entry& e : entries_) {
      if (e.ran && e.status.ok() && e.proven && e.plan.arena_bytes == best->plan.arena_bytes) {
        proven = true;
      }
    }
    if (stats != nullptr) {
      stats->strategy = best->info->name;
      stats->proven_optimal = proven;
      stats->skipped = skipped;
    }
    *out = std::move(best->plan);
    return Status::Ok();
  }

 private:
  // What a running strategy's cancel hook sees.
  struct Hook {
    BestRun* run;
    size_t entry;
    bool caller_thread;  // the calling thread itself runs tasks
  };

  static bool Stop(void* context) {
    const Hook* hook = static_cast<const Hook*>(context);
    BestRun* run = hook->run;
    if (hook->caller_thread && !run->cancelled_ && run->CallerStops()) run->cancelled_ = true;
    return run->cancelled_ || hook->entry > run->reached_bound_;
  }

  bool CallerStops() {
    return options_.cancel.stop != nullptr && options_.cancel.stop(options_.cancel.context);
  }

  void Work(bool from_back, bool caller_thread) {
    for (;;) {
      size_t task;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (queue_.empty()) return;
        if (from_back) {
          task = queue_.back();
          queue_.pop_back();
        } else {
          task = queue_.front();
          queue_.pop_front();
        }
        ++running_;
      }
      RunEntry(task, caller_thread);
      if (task == greedy_ && optimal_after_greedy_ != kNone) {
        RunEntry(optimal_after_greedy_, caller_thread);
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        --running_;
      }
      done_.notify_all();
    }
  }

  void RunEntry(size_t i, bool caller_thread) {
    Entry& e = entries_[i];
    Hook hook{this, i, caller_thread};
    if (cancelled_ || i > reached_bound_) return;  // not run
    e.ran = true;
    PlanCancel cancel;
    cancel.stop = &BestRun::Stop;
    cancel.context = &hook;
    if (e.info->plan != nullptr) {
      e.status = e.info->plan(records_, &e.plan, cancel);
    } else {  // "optimal", after tflm_greedy when both are tried
      OptimalOptions options = options_;
      options.cancel = cancel;
      // tflm_greedy ran just before, on this thread (Work).
      const Entry* greedy = greedy_ != kNone ? &entries_[greedy_] : nullptr;
      const bool have = greedy != nullptr && greedy->ran && greedy->status.ok();
      options.tflm_greedy_plan = have ? &greedy->plan : nullptr;
      OptimalStats stats;
      e.status = PlanOptimal(records_, options, &e.plan, &stats);
      e.proven = stats.proven_optimal;
    }
    if (e.status.ok() && e.plan.arena_bytes <= lower_bound_) {
      // Entries after this one can only tie: stop them (atomic minimum).
      size_t seen = reached_bound_.load();
      while (i < seen && !reached_bound_.compare_exchange_weak(seen, i)) {
      }
    }
  }

  Span<const UsageRecord> records_;
  const OptimalOptions& options_;
  const int64_t lower_bound_;
  std::vector<Entry> entries_;  // list order
  std::deque<size_t> queue_;    // entries not started, in list order
  static constexpr size_t kNone = SIZE_MAX;
  size_t greedy_ = kNone;                // tflm_greedy's entry
  size_t optimal_after_greedy_ = kNone;  // optimal's entry, run after it
  std::atomic<bool> cancelled_{false};
  std::atomic<size_t> reached_bound_{SIZE_MAX};  // first entry at the lower bound
  std::mutex mutex_;
  std::condition_variable done_;
  size_t running_ = 0;  // tasks being run (mutex_)
};

}  // namespace

Status PlanBest(Span<const UsageRecord> records, const OptimalOptions& options, int threads,
                PlanResult* out, BestStats* stats) {
  *out = PlanResult();
  if (stats != nullptr) *stats = BestStats();
  TFLM_ARENA_RETURN_IF_ERROR(ValidateRecords(records, options.alignment));
  if (options.capacity != 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "capacity is for strategy optimal, not best");
  }
  if (threads < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "threads %d is negative", threads);
  }
  const auto start = std::chrono::steady_clock::now();
  BestRun run(records, options);
  size_t want = threads > 0 ? static_cast<size_t>(threads) : std::thread::hardware_concurrency();
  want = std::max<size_t>(1, std::min(want, run.tasks()));
  run.Run(want);
  if (run.cancelled()) {
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    return Status::Error(StatusCode::kFailedPrecondition, "planning cancelled after %lld ms",
                         static_cast<long long>(took.count()));
  }
  return run.Result(out, stats);
}

}  // namespace tflm_arena
