// PlanOptimal: heuristic incumbents, then the capacity search (plan.h).
//
// Capacity search: `lo` is proven (nothing smaller fits), `hi` is the best
// plan's arena. Each round bisects [lo, hi - 1] with a node budget per probe,
// trying every rank heuristic at a probe before giving up on it (a probe that
// runs out of budget says nothing: the round moves up past it). A probe that
// fits lowers `hi` to the arena it found; a complete search that fails raises
// `lo` (the proof does not depend on the heuristic). Rounds double the budget
// until lo == hi (proven) or time runs out (the first budget is 2n nodes, as
// MiniMalloc's first round). Each round starts with a probe at
// `lo` itself, because real models usually reach their lower bound. Orders
// tried at a probe: the best plan's own (buffers by offset, so the search
// retraces it and backtracks near its top; tried last) and the static ones of
// RankBuffers. Each order is searched three ways (a portfolio: which one
// finds a plan first varies a lot from instance to instance): sections
// weighted by the failures of every earlier search of this problem, so the
// search decides first where it failed before; the best-ranked candidate
// alone; unweighted sections on the order randomly perturbed after the first
// round (fixed seed: the same input gives the same plan for the same amount
// of search).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tflm_arena/plan/optimal_search.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/shared_objects.h"

namespace tflm_arena {
namespace {

using Clock = std::chrono::steady_clock;
using plan_internal::SearchLimits;
using plan_internal::SearchOutcome;
using plan_internal::SearchProblem;
using plan_internal::SearchResult;

constexpr size_t kMaxGreedyBySizeBuffers = 5000;  // it is O(n^2) and not cancellable
constexpr int64_t kMaxTotalBytes = int64_t{1} << 62;
constexpr double kNoise = 0.05;  // rank perturbation, in units of n
// Searches per order at a probe: sections weighted by past failures, the
// best-ranked candidate, and unweighted sections on a perturbed order.
constexpr size_t kGuides = 3;

int64_t AlignUp(int64_t v, int64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

int64_t ArenaOf(Span<const UsageRecord> records, const std::vector<ByteOffset>& offsets) {
  int64_t end = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    end = std::max(end, offsets[i] + records[i].size);
  }
  return end;
}

class Optimizer {
 public:
  Optimizer(Span<const UsageRecord> records, const OptimalOptions& options)
      : records_(records), options_(options), start_(Clock::now()) {
    const double limit = std::min(options.time_limit_seconds, 1e7);
    deadline_ =
        start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit));
    alignment_ = options.alignment <= 1 ? 1 : options.alignment;
  }

  Status Run(PlanResult* out, OptimalStats* stats) {
    // The bound first, so every progress report has it.
    const bool searchable = plan_internal::BuildSearchProblem(records_, alignment_, &problem_);
    lower_ = searchable ? problem_.lower_bound : FallbackLowerBound();
    Stacked();
    TFLM_ARENA_RETURN_IF_ERROR(TflmGreedy());
    if (!Decided()) GreedyBySize();
    if (searchable && !Decided()) {
      for (int h = 0; h < plan_internal::kNumRankHeuristics; ++h) {
        ranks_.push_back(plan_internal::RankBuffers(problem_, h));
      }
      if (options_.capacity == 0) LowestFirst();
      CapacitySearch();
    }
    if (cancelled_) {
      return Status::Error(StatusCode::kFailedPrecondition,
                           "planning cancelled after %lld ms (best so far %lld bytes)",
                           static_cast<long long>(Elapsed() * 1000),
                           static_cast<long long>(best_.arena_bytes));
    }
    // Offer checked every plan but the stacked one, valid by construction;
    // check that one too rather than trust the construction.
    Status valid =
        best_checked_
            ? Status::Ok()
            : ValidatePlan(records_,
                           Span<const ByteOffset>(best_.offsets.data(), best_.offsets.size()),
                           best_.arena_bytes);
    if (!valid.ok()) {
      return Status::Error(StatusCode::kInternal, "optimal planner made an invalid plan (%s): %s",
                           source_.c_str(), valid.message());
    }
    Report(true);
    *out = best_;
    if (stats != nullptr) {
      stats->proven_optimal = best_.arena_bytes <= lower_;
      stats->lower_bound = std::min(lower_, best_.arena_bytes);
      stats->nodes = nodes_;
      stats->seconds = Elapsed();
      stats->incumbent_source = source_;
    }
    return Status::Ok();
  }

 private:
  // The decision form is answered: a plan fits, or none can.
  bool Decided() const {
    return options_.capacity > 0 &&
           (best_.arena_bytes <= options_.capacity || lower_ > options_.capacity);
  }

  double Elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  bool TimeLeft() const { return !cancelled_ && Clock::now() < deadline_; }

  void Report(bool force) {
    if (options_.progress == nullptr) return;
    const auto now = Clock::now();
    if (!force && now - last_report_ < std::chrono::milliseconds(100)) return;
    last_report_ = now;
    options_.progress(options_.progress_context, best_.arena_bytes,
                      std::min(lower_, best_.arena_bytes), Elapsed());
  }

  // Keeps `candidate` if it is valid, aligned and smaller than the best.
  // `checked`: ValidatePlan it now (else Run checks it if it is kept: on a
  // million buffers a check takes ~0.2 s).
  void Offer(PlanResult candidate, const char* source, bool checked = true) {
    for (size_t i = 0; i < records_.size(); ++i) {
      if (records_[i].fixed_offset < 0 && candidate.offsets[i] % alignment_ != 0) return;
    }
    candidate.arena_bytes = ArenaOf(records_, candidate.offsets);
    if (have_best_ && candidate.arena_bytes >= best_.arena_bytes) return;
    if (checked &&
        !ValidatePlan(records_,
                      Span<const ByteOffset>(candidate.offsets.data(), candidate.offsets.size()),
                      candidate.arena_bytes)
             .ok()) {
      return;
    }
    best_ = std::move(candidate);
    best_checked_ = checked;
    have_best_ = true;
    source_ = source;
    Report(false);
  }

  // Always valid: planner buffers end to end above every fixed buffer.
  void Stacked() {
    PlanResult plan;
    plan.offsets.assign(records_.size(), 0);
    int64_t top = 0;
    for (const UsageRecord& r : records_) {
      if (r.fixed_offset >= 0) top = std::max(top, r.fixed_offset + r.size);
    }
    for (size_t i = 0; i < records_.size(); ++i) {
      const UsageRecord& r = records_[i];
      if (r.fixed_offset >= 0) {
        plan.offsets[i] = r.fixed_offset;
      } else if (r.size > 0) {
        top = AlignUp(top, alignment_);
        plan.offsets[i] = top;
        top += r.size;
      }
    }
    Offer(std::move(plan), "stacked", /*checked=*/false);
  }

  // Not bounded by the deadline (see plan.h), only by the caller's cancel.
  Status TflmGreedy() {
    if (options_.tflm_greedy_plan != nullptr &&
        options_.tflm_greedy_plan->offsets.size() == records_.size()) {
      Offer(*options_.tflm_greedy_plan, "tflm_greedy");
      return Status::Ok();
    }
    PlanResult plan;
    Status s = PlanTflmGreedy(records_, &plan, options_.cancel);
    if (s.ok()) {
      Offer(std::move(plan), "tflm_greedy");
      return Status::Ok();
    }
    // Its own limits (int32 sizes) only mean no incumbent from it; a cancel
    // is the caller's.
    if (s.code() == StatusCode::kFailedPrecondition) return s;
    return Status::Ok();
  }

  void GreedyBySize() {
    if (records_.size() > kMaxGreedyBySizeBuffers || !TimeLeft()) return;
    for (const UsageRecord& r : records_) {
      if (r.fixed_offset >= 0) return;  // it does not take fixed offsets
    }
    PlanResult plan;
    if (PlanOffsetsGreedyBySize(records_, alignment_, &plan).ok()) {
      Offer(std::move(plan), "greedy_by_size");
    }
  }

  int64_t FallbackLowerBound() const {
    // Not searched (too large): fixed buffers may alias, so count only the
    // planner-placed ones live together, and the highest fixed end.
    std::vector<UsageRecord> placed;
    int64_t fixed_end = 0;
    for (const UsageRecord& r : records_) {
      if (r.fixed_offset >= 0) {
        fixed_end = std::max(fixed_end, r.fixed_offset + r.size);
      } else {
        placed.push_back(r);
      }
    }
    return std::max(fixed_end, LowerBound(placed));
  }

  PlanResult ToPlan(const SearchResult& r) const {
    PlanResult plan;
    plan.offsets.assign(records_.size(), 0);
    for (size_t i = 0; i < records_.size(); ++i) {
      if (records_[i].fixed_offset >= 0) plan.offsets[i] = records_[i].fixed_offset;
    }
    for (size_t a = 0; a < problem_.ids.size(); ++a) plan.offsets[problem_.ids[a]] = r.offsets[a];
    plan.arena_bytes = r.arena_bytes;
    return plan;
  }

  // A rank close to `base`: random restarts explore other tie orders.
  std::vector<int32_t> Perturbed(const std::vector<int32_t>& base) {
    const size_t m = base.size();
    std::vector<double> key(m);
    std::normal_distribution<double> noise(0.0, kNoise * static_cast<double>(m));
    for (size_t a = 0; a < m; ++a) key[a] = base[a] + noise(rng_);
    std::vector<int32_t> order(m);
    for (size_t a = 0; a < m; ++a) order[a] = static_cast<int32_t>(a);
    std::sort(order.begin(), order.end(), [&](int32_t x, int32_t y) { return key[x] < key[y]; });
    std::vector<int32_t> rank(m);
    for (size_t r = 0; r < m; ++r) rank[order[r]] = static_cast<int32_t>(r);
    return rank;
  }

  // Search buffers ranked by their offset in the best plan (then size).
  std::vector<int32_t> IncumbentRank() const {
    const size_t m = problem_.ids.size();
    std::vector<int32_t> order(m);
    for (size_t a = 0; a < m; ++a) order[a] = static_cast<int32_t>(a);
    std::sort(order.begin(), order.end(), [&](int32_t x, int32_t y) {
      const int64_t ox = best_.offsets[problem_.ids[x]], oy = best_.offsets[problem_.ids[y]];
      return ox != oy ? ox < oy : problem_.size[x] > problem_.size[y];
    });
    std::vector<int32_t> rank(m);
    for (size_t r = 0; r < m; ++r) rank[order[r]] = static_cast<int32_t>(r);
    return rank;
  }

  SearchResult Probe(const std::vector<int32_t>& rank, int64_t capacity, int64_t budget,
                     const plan_internal::SearchGuide& guide = plan_internal::SearchGuide()) {
    SearchLimits limits;
    limits.deadline = deadline_;
    limits.node_budget = budget;
    limits.cancel = options_.cancel;
    limits.cancelled = &cancelled_;
    SearchResult r = plan_internal::SearchAtCapacity(problem_, rank, capacity, limits, guide);
    nodes_ += r.nodes;
    Report(false);
    return r;
  }

  // The search's first dive with no capacity limit never backtracks: it puts
  // the lowest-placeable buffer next, a cheap and often good plan. Not in
  // the decision form, whose first probes at the capacity find a plan in
  // about the time these dives take (on generated hard instances, a few
  // ms), when one is found quickly at all.
  void LowestFirst() {
    const int64_t unlimited = kMaxTotalBytes;
    for (size_t h = 0; h < ranks_.size() && TimeLeft(); ++h) {
      SearchResult r =
          Probe(ranks_[h], unlimited, 64 * static_cast<int64_t>(problem_.ids.size()) + 64);
      if (r.outcome == SearchOutcome::kFound) Offer(ToPlan(r), "lowest_first");
    }
  }

  // Bisection over capacities between the bound and the best plan, each
  // probe a depth-first search with a node budget that doubles every round.
  // The decision form starts every round at its capacity instead of the
  // bound and stops once Decided(); its probes above the capacity still
  // improve the best plan, whose offsets order the next round's search.
  void CapacitySearch() {
    int64_t budget = std::max<int64_t>(256, 2 * static_cast<int64_t>(problem_.ids.size()));
    int round = 0;
    while (lower_ < best_.arena_bytes && TimeLeft() && !Decided()) {
      int64_t a = std::max(lower_, options_.capacity), b = best_.arena_bytes - 1;
      bool first = true;
      while (a <= b && TimeLeft() && !Decided()) {
        const int64_t mid = first ? a : a + (b - a) / 2;
        first = false;
        bool decided = false;
        // The base orders, then one led by the best plan so far (its
        // buffers by offset: the search retraces it and backtracks near its
        // top).
        for (size_t k = 0; k < kGuides * (ranks_.size() + 1) && TimeLeft() && !decided; ++k) {
          const size_t h = k / kGuides, g = k % kGuides;
          std::vector<int32_t> rank = h < ranks_.size() ? ranks_[h] : IncumbentRank();
          plan_internal::SearchGuide guide;
          guide.branching =
              g == 1 ? plan_internal::Branching::kRanked : plan_internal::Branching::kSection;
          guide.weights = g == 2 ? nullptr : &weights_;
          if (round > 0 && g == 2) rank = Perturbed(rank);
          SearchResult r = Probe(rank, mid, budget, guide);
          if (r.outcome == SearchOutcome::kFound) {
            Offer(ToPlan(r), "search");
            b = std::min(b, best_.arena_bytes - 1);
            decided = true;
          } else if (r.outcome == SearchOutcome::kInfeasible) {
            lower_ = std::max(lower_, mid + 1);
            a = std::max(a, mid + 1);
            decided = true;
          }
        }
        if (!decided) a = mid + 1;
      }
      budget = budget > (int64_t{1} << 40) ? budget : budget * 2;
      ++round;
    }
  }

  Span<const UsageRecord> records_;
  const OptimalOptions& options_;
  Clock::time_point start_, deadline_, last_report_;
  int64_t alignment_ = 1;
  PlanResult best_;
  bool have_best_ = false;
  bool best_checked_ = false;  // best_ passed ValidatePlan in Offer
  std::string source_;
  SearchProblem problem_;
  std::vector<std::vector<int32_t>> ranks_;
  std::vector<int64_t> weights_;  // failures per section, across probes
  int64_t lower_ = 0;
  int64_t nodes_ = 0;
  bool cancelled_ = false;
  std::mt19937 rng_{20261123};  // fixed seed: same input, same plan
};

}  // namespace

Status PlanOptimal(Span<const UsageRecord> records, const OptimalOptions& options, PlanResult* out,
                   OptimalStats* stats) {
  TFLM_ARENA_RETURN_IF_ERROR(ValidateRecords(records, options.alignment));
  if (options.alignment > (int64_t{1} << 32)) {
    return Status::Error(StatusCode::kInvalidArgument, "alignment %lld is over 2^32",
                         static_cast<long long>(options.alignment));
  }
  if (options.capacity < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "capacity %lld bytes is negative",
                         static_cast<long long>(options.capacity));
  }
  if (!(options.time_limit_seconds >= 0)) {  // also NaN
    return Status::Error(StatusCode::kInvalidArgument, "time limit %g s is not >= 0",
                         options.time_limit_seconds);
  }
  // Sums stay far from overflow: every size and fixed end, and their total.
  int64_t total = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const UsageRecord& r = records[i];
    const int64_t base = r.fixed_offset >= 0 ? r.fixed_offset : 0;
    if (r.size > kMaxTotalBytes - base || (r.size + base) > kMaxTotalBytes - total) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: sizes and fixed offsets up to here add up to more than "
                           "2^62 bytes",
                           i);
    }
    total += r.size + base;
  }
  Optimizer optimizer(records, options);
  return optimizer.Run(out, stats);
}

}  // namespace tflm_arena
