// The fixed-capacity search behind PlanOptimal; see optimal_search.h.
#include "tflm_arena/plan/optimal_search.h"

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>
#include <utility>

namespace tflm_arena {
namespace plan_internal {
namespace {

constexpr int64_t kInf = std::numeric_limits<int64_t>::max();
constexpr int kMaxDepth = 16384;  // recursion (placements + lifts on one path)

int64_t AlignUp(int64_t v, int64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

// Sorts [lo, hi) intervals by lo and merges touching ones, in place.
void MergeIntervals(std::vector<std::pair<int64_t, int64_t>>* v) {
  std::sort(v->begin(), v->end());
  size_t k = 0;
  for (size_t i = 0; i < v->size(); ++i) {
    if (k > 0 && (*v)[i].first <= (*v)[k - 1].second) {
      (*v)[k - 1].second = std::max((*v)[k - 1].second, (*v)[i].second);
    } else {
      (*v)[k++] = (*v)[i];
    }
  }
  v->resize(k);
}

}  // namespace

bool BuildSearchProblem(Span<const UsageRecord> records, int64_t alignment, SearchProblem* p) {
  *p = SearchProblem();
  p->alignment = alignment <= 1 ? 1 : alignment;
  std::vector<int64_t> bounds;
  std::vector<size_t> fixed;
  for (size_t i = 0; i < records.size(); ++i) {
    const UsageRecord& r = records[i];
    if (r.size <= 0) continue;
    bounds.push_back(r.first_step);
    bounds.push_back(static_cast<int64_t>(r.last_step) + 1);
    if (r.fixed_offset >= 0) {
      fixed.push_back(i);
      p->fixed_end = std::max(p->fixed_end, r.fixed_offset + r.size);
    } else {
      p->ids.push_back(i);
    }
  }
  const size_t m = p->ids.size();
  if (m > kMaxSearchBuffers) return false;
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  const size_t S = bounds.empty() ? 0 : bounds.size() - 1;
  auto section_of = [&](int64_t step) {
    return static_cast<int32_t>(std::lower_bound(bounds.begin(), bounds.end(), step) -
                                bounds.begin());
  };
  int64_t entries = 0;
  for (size_t i : p->ids) {
    const UsageRecord& r = records[i];
    p->size.push_back(r.size);
    p->first.push_back(r.first_step);
    p->last.push_back(r.last_step);
    p->sec_lo.push_back(section_of(r.first_step));
    p->sec_hi.push_back(section_of(static_cast<int64_t>(r.last_step) + 1) - 1);
    entries += p->sec_hi.back() - p->sec_lo.back() + 1;
  }
  std::vector<int32_t> f_lo, f_hi;
  for (size_t i : fixed) {
    f_lo.push_back(section_of(records[i].first_step));
    f_hi.push_back(section_of(static_cast<int64_t>(records[i].last_step) + 1) - 1);
    entries += f_hi.back() - f_lo.back() + 1;
  }
  if (entries > kMaxSearchEntries) return false;

  // Overlaps: count first so memory is checked before it is taken.
  auto meet = [&](size_t a, size_t b) {
    return p->sec_lo[a] <= p->sec_hi[b] && p->sec_lo[b] <= p->sec_hi[a];
  };
  int64_t pairs = 0;
  for (size_t a = 0; a < m; ++a) {
    for (size_t b = a + 1; b < m; ++b) pairs += meet(a, b) ? 2 : 0;
  }
  int64_t obstacle_pairs = 0;
  for (size_t a = 0; a < m; ++a) {
    for (size_t k = 0; k < fixed.size(); ++k) {
      if (f_lo[k] <= p->sec_hi[a] && p->sec_lo[a] <= f_hi[k]) ++obstacle_pairs;
    }
  }
  if (entries + pairs + obstacle_pairs > kMaxSearchEntries) return false;

  p->ov_begin.assign(m + 1, 0);
  std::vector<std::vector<int32_t>> ov(m);
  for (size_t a = 0; a < m; ++a) {
    for (size_t b = a + 1; b < m; ++b) {
      if (!meet(a, b)) continue;
      ov[a].push_back(static_cast<int32_t>(b));
      ov[b].push_back(static_cast<int32_t>(a));
    }
  }
  for (size_t a = 0; a < m; ++a) {
    p->ov_begin[a + 1] = p->ov_begin[a] + static_cast<int32_t>(ov[a].size());
    p->ov.insert(p->ov.end(), ov[a].begin(), ov[a].end());
    std::vector<int32_t>().swap(ov[a]);
  }

  // Fixed obstacles per buffer, tops aligned up (a buffer can only start at
  // an aligned offset at or above a fixed buffer's end).
  p->obs_begin.assign(m + 1, 0);
  std::vector<std::pair<int64_t, int64_t>> iv;
  for (size_t a = 0; a < m; ++a) {
    iv.clear();
    for (size_t k = 0; k < fixed.size(); ++k) {
      if (!(f_lo[k] <= p->sec_hi[a] && p->sec_lo[a] <= f_hi[k])) continue;
      const UsageRecord& r = records[fixed[k]];
      iv.emplace_back(r.fixed_offset, AlignUp(r.fixed_offset + r.size, p->alignment));
    }
    MergeIntervals(&iv);
    for (auto& x : iv) {
      p->obs_lo.push_back(x.first);
      p->obs_hi.push_back(x.second);
    }
    p->obs_begin[a + 1] = static_cast<int32_t>(p->obs_lo.size());
  }

  // Members and fixed bytes per section, and the lower bound: in every
  // section the fixed bytes (union: aliases counted once) plus the sizes of
  // the buffers to place.
  std::vector<std::vector<int32_t>> mem(S);
  std::vector<int64_t> sum(S, 0);
  for (size_t a = 0; a < m; ++a) {
    for (int32_t s = p->sec_lo[a]; s <= p->sec_hi[a]; ++s) {
      mem[s].push_back(static_cast<int32_t>(a));
      sum[s] += p->size[a];
    }
  }
  std::vector<std::vector<std::pair<int64_t, int64_t>>> fx(S);
  for (size_t k = 0; k < fixed.size(); ++k) {
    const UsageRecord& r = records[fixed[k]];
    for (int32_t s = f_lo[k]; s <= f_hi[k]; ++s) {
      fx[s].emplace_back(r.fixed_offset, r.fixed_offset + r.size);
    }
  }
  p->mem_begin.assign(S + 1, 0);
  p->fix_begin.assign(S + 1, 0);
  int64_t bound = p->fixed_end;
  for (size_t s = 0; s < S; ++s) {
    p->mem.insert(p->mem.end(), mem[s].begin(), mem[s].end());
    p->mem_begin[s + 1] = static_cast<int32_t>(p->mem.size());
    MergeIntervals(&fx[s]);
    int64_t covered = 0;
    for (auto& x : fx[s]) {
      p->fix_lo.push_back(x.first);
      p->fix_hi.push_back(x.second);
      covered += x.second - x.first;
    }
    p->fix_begin[s + 1] = static_cast<int32_t>(p->fix_lo.size());
    bound = std::max(bound, covered + sum[s]);
  }
  p->lower_bound = bound;
  return true;
}

std::vector<int32_t> RankBuffers(const SearchProblem& p, int heuristic) {
  const size_t m = p.size.size();
  std::vector<int64_t> section_total(p.sections(), 0);
  for (size_t a = 0; a < m; ++a) {
    for (int32_t s = p.sec_lo[a]; s <= p.sec_hi[a]; ++s) section_total[s] += p.size[a];
  }
  std::vector<int64_t> total(m, 0), width(m), area(m);
  for (size_t a = 0; a < m; ++a) {
    for (int32_t s = p.sec_lo[a]; s <= p.sec_hi[a]; ++s) {
      total[a] = std::max(total[a], section_total[s]);
    }
    width[a] = p.last[a] - p.first[a] + 1;
    area[a] = p.size[a] * std::min<int64_t>(width[a], int64_t{1} << 20);
  }
  std::vector<int32_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int32_t a) -> std::array<int64_t, 4> {
    switch (heuristic) {
      case 0:
        return {total[a], width[a], p.size[a], -a};
      case 1:
        return {p.size[a], total[a], width[a], -a};
      case 2:
        return {width[a], total[a], p.size[a], -a};
      case 3:
        return {area[a], total[a], p.size[a], -a};
      case 4:
        return {width[a], area[a], total[a], -a};
      case 5:
        return {total[a], area[a], width[a], -a};
      default:
        return {total[a], width[a], area[a], -a};
    }
  };
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return key(a) > key(b); });
  std::vector<int32_t> rank(m);
  for (size_t r = 0; r < m; ++r) rank[order[r]] = static_cast<int32_t>(r);
  return rank;
}

namespace {

// One search: state, and a trail of changes so a failed branch is undone
// exactly (placements made inside solved sub-partitions included).
class Search {
 public:
  Search(const SearchProblem& p, const std::vector<int32_t>& rank, int64_t capacity,
         const SearchLimits& limits, const SearchGuide& guide)
      : p_(p),
        rank_(rank),
        cap_(capacity),
        limits_(limits),
        ranked_(guide.branching == Branching::kRanked),
        m_(p.size.size()),
        S_(p.sections()),
        weights_(guide.weights) {}

  SearchResult Run() {
    SearchResult res;
    placed_.assign(m_, 0);
    floating_.assign(m_, 0);
    offset_.assign(m_, 0);
    eff_.assign(m_, 0);
    floor_.assign(S_, 0);
    rem_.assign(S_, 0);
    stamp_.assign(S_, 0);
    if (weights_ != nullptr && weights_->size() != S_) weights_->assign(S_, 0);
    cuts_.assign(S_, 0);
    counts_.assign(S_ + 1, 0);
    pool_.resize(m_ + 1);
    lift_pool_.resize(m_ + 1);
    trail_.reserve(4 * m_ + 1024);
    for (size_t a = 0; a < m_; ++a) {
      eff_[a] = Lift(a, 0);
      for (int32_t s = p_.sec_lo[a]; s <= p_.sec_hi[a]; ++s) rem_[s] += p_.size[a];
      for (int32_t s = p_.sec_lo[a]; s < p_.sec_hi[a]; ++s) ++cuts_[s];
    }
    for (size_t s = 0; s < S_; ++s) floor_[s] = MinEffOf(s, 0);
    last_check_ = std::chrono::steady_clock::now();
    std::vector<int32_t> all(m_);
    for (size_t a = 0; a < m_; ++a) all[a] = static_cast<int32_t>(a);
    // Sections are indexed by int32 (sec_lo, sec_hi), so S_ - 1 fits.
    SearchOutcome o =
        S_ == 0 ? SearchOutcome::kFound : SolveSplit(all, 0, static_cast<int32_t>(S_ - 1));
    res.nodes = nodes_;
    if (o == SearchOutcome::kFound) return Found(&res);
    res.outcome = o;
    return res;
  }

 private:
  enum Kind : int8_t { kEff, kFloor, kFloat, kPlace };
  struct Change {
    Kind kind;
    int32_t index;
    int64_t old;
  };

  // Lowest aligned offset >= v where buffer a misses every fixed obstacle.
  int64_t Lift(size_t a, int64_t v) const {
    v = AlignUp(v, p_.alignment);
    const int64_t size = p_.size[a];
    for (int32_t k = p_.obs_begin[a]; k < p_.obs_begin[a + 1]; ++k) {
      if (p_.obs_lo[k] >= v + size) break;
      if (p_.obs_hi[k] > v) v = p_.obs_hi[k];
    }
    return v;
  }

  int64_t MinEffOf(size_t s, int64_t floor) const {
    int64_t best = kInf;
    for (int32_t k = p_.mem_begin[s]; k < p_.mem_begin[s + 1]; ++k) {
      const int32_t a = p_.mem[k];
      if (!placed_[a]) best = std::min(best, eff_[a]);
    }
    return best == kInf ? floor : std::max(floor, best);
  }

  // Solves sections [lo, hi] as independent pieces wherever no unplaced
  // buffer crosses a section boundary: a piece's plan cannot affect another's.
  SearchOutcome SolveSplit(const std::vector<int32_t>& buffers, int32_t lo, int32_t hi) {
    std::vector<int32_t> starts{lo};  // first section of each piece
    for (int32_t s = lo; s < hi; ++s) {
      if (cuts_[s] == 0) starts.push_back(s + 1);
    }
    std::vector<std::vector<int32_t>> pieces(starts.size());
    for (int32_t a : buffers) {
      if (placed_[a]) continue;
      const size_t k =
          std::upper_bound(starts.begin(), starts.end(), p_.sec_lo[a]) - starts.begin() - 1;
      pieces[k].push_back(a);
    }
    for (size_t k = 0; k < starts.size(); ++k) {
      if (pieces[k].empty()) continue;
      const int32_t end = k + 1 < starts.size() ? starts[k + 1] - 1 : hi;
      if (!Feasible(starts[k], end, 0)) return SearchOutcome::kInfeasible;
      const SearchOutcome o = Dfs(pieces[k], starts[k], end, 0);
      if (o != SearchOutcome::kFound) return o;
    }
    return SearchOutcome::kFound;
  }

  // Depth-first search over `buffers` (sections [lo, hi]), placing buffers
  // in non-decreasing offset order: `level` is the offset being filled.
  // Candidates are the unplaced resting buffers whose eff is `level`. With
  // Branching::kSection, branch on one section (the fewest choices, weighted
  // by past failures): either one of the candidates covering it sits at
  // `level` (one branch each), or none does (they become floating). With
  // Branching::kRanked, on the best-ranked candidate alone: it sits at
  // `level`, or it floats. Once no candidate is left, the level rises to the
  // next eff. Every plan slid down into canonical form is reached: all its
  // buffers below `level` are placed, and at `level` each section is covered
  // by one candidate or by none.
  SearchOutcome Dfs(const std::vector<int32_t>& buffers, int32_t lo, int32_t hi, int64_t level) {
    if (++nodes_ % 64 == 0 && Stop()) return SearchOutcome::kAborted;
    if (depth_ >= kMaxDepth) return SearchOutcome::kAborted;  // bounded stack
    struct Deeper {
      explicit Deeper(int* d) : d_(d) { ++*d_; }
      ~Deeper() { --*d_; }
      int* d_;
    } deeper(&depth_);
    // One pass: the candidates at this level, the best-ranked one, the next
    // level.
    std::vector<int32_t>& cand = pool_[placed_count_];
    cand.clear();
    int32_t best = -1;  // best-ranked candidate
    int64_t next = kInf;
    bool any = false;
    for (int32_t a : buffers) {
      if (placed_[a]) continue;
      any = true;
      if (floating_[a]) continue;
      const int64_t e = eff_[a];
      if (e == level) {
        cand.push_back(a);
        if (best < 0 || rank_[a] < rank_[best]) best = a;
      } else if (e > level) {
        next = std::min(next, e);
      }
    }
    if (!any) return SearchOutcome::kFound;
    if (best < 0) return Rise(buffers, lo, hi, next);
    // A candidate whose unplaced time-neighbours all lie above its top
    // whatever happens changes nobody's eff by sitting at `level`; any plan
    // with it higher can slide it down to here, so it is a forced move.
    for (int32_t a : cand) {
      if (!Dominant(a)) continue;
      const size_t mark = trail_.size();
      SearchOutcome o = SearchOutcome::kInfeasible;
      if (Place(a, lo, hi, level)) o = AfterPlace(a, buffers, lo, hi, level);
      if (o != SearchOutcome::kFound) UndoTo(mark);
      return o;
    }
    // The section decided here: the one with the fewest choices (candidates
    // covering it, plus "none" where it has room to spare), so forced moves
    // come first, divided by 1 + its failures so far when weighted; ties go
    // to the one with the least room.
    int32_t at = p_.sec_lo[best];
    if (ranked_) {
      cand.assign(1, best);
    } else {
      std::vector<int32_t>& count = counts_;
      std::fill(count.begin() + lo, count.begin() + hi + 2, 0);
      for (int32_t a : cand) {
        ++count[p_.sec_lo[a]];
        --count[p_.sec_hi[a] + 1];
      }
      int32_t run = 0;
      int64_t best_score = kInf, best_slack = kInf;
      for (int32_t s = lo; s <= hi; ++s) {
        run += count[s];
        if (run == 0) continue;
        const int64_t slack = cap_ - std::max(floor_[s], level) - rem_[s];
        const bool room = slack >= p_.alignment;
        int64_t score = run + (room ? 1 : 0);
        if (weights_ != nullptr) score = (score << 32) / (1 + (*weights_)[s]);
        if (score < best_score || (score == best_score && slack < best_slack)) {
          best_score = score;
          best_slack = slack;
          at = s;
        }
      }
    }
    // Keep the candidates that cover `at`.
    size_t kept = 0;
    for (int32_t a : cand) {
      if (p_.sec_lo[a] <= at && at <= p_.sec_hi[a]) cand[kept++] = a;
    }
    cand.resize(kept);
    std::sort(cand.begin(), cand.end(), [&](int32_t x, int32_t y) { return rank_[x] < rank_[y]; });
    // Deeper calls use deeper pool entries (more buffers placed); the
    // floating branch below reads the list before it recurses at this depth.
    for (size_t i = 0; i < cand.size(); ++i) {
      const int32_t a = cand[i];
      const size_t mark = trail_.size();
      SearchOutcome o = SearchOutcome::kInfeasible;
      if (Place(a, lo, hi, level)) o = AfterPlace(a, buffers, lo, hi, level);
      if (o == SearchOutcome::kFound) return o;
      UndoTo(mark);
      if (o == SearchOutcome::kAborted) return o;
    }
    // None of them sits at `level`. In a canonical plan a buffer that is not
    // at its eff rests on a time-neighbour placed later, at or above
    // `level`: so it goes at least as high as the lowest top such a
    // neighbour can have; with no unplaced neighbour left it cannot move up
    // at all and this branch is empty.
    std::vector<int64_t>& lift = lift_pool_[placed_count_];
    lift.clear();
    for (int32_t a : cand) {
      const int64_t v = LowestRest(a, level);
      if (v == kInf) return SearchOutcome::kInfeasible;
      lift.push_back(v);
    }
    const size_t mark = trail_.size();
    ++gen_;
    affected_.clear();
    for (size_t i = 0; i < cand.size(); ++i) {
      const int32_t a = cand[i];
      const int64_t old = eff_[a];
      SetEff(a, Lift(a, lift[i]));
      SetFloating(a, 1);
      MarkAffected(a, old);
    }
    Refresh();
    SearchOutcome o =
        Feasible(lo, hi, level) ? Dfs(buffers, lo, hi, level) : SearchOutcome::kInfeasible;
    if (o == SearchOutcome::kFound) return o;
    UndoTo(mark);
    return o;
  }

  // No candidate is left at `level`: the level rises to `next`, the lowest
  // eff of a resting buffer. A floating buffer (one that may not sit at its
  // eff, only above it) still below `next` must rest on a time-neighbour
  // placed at or above `next`, so it rises to the lowest top one of them can
  // have; with none left it has nothing to rest on.
  SearchOutcome Rise(const std::vector<int32_t>& buffers, int32_t lo, int32_t hi, int64_t next) {
    if (next == kInf) return SearchOutcome::kInfeasible;
    const size_t mark = trail_.size();
    ++gen_;
    affected_.clear();
    bool ok = true;
    for (int32_t a : buffers) {
      if (placed_[a] || !floating_[a] || eff_[a] >= next) continue;
      const int64_t v = LowestRest(a, next);
      if (v == kInf) {
        ok = false;
        break;
      }
      const int64_t old = eff_[a];
      SetEff(a, Lift(a, v));
      MarkAffected(a, old);
    }
    Refresh();
    const SearchOutcome o =
        ok && Feasible(lo, hi, next) ? Dfs(buffers, lo, hi, next) : SearchOutcome::kInfeasible;
    if (o != SearchOutcome::kFound) UndoTo(mark);
    return o;
  }

  // The lowest top an unplaced time-neighbour of a can have when placed at
  // or above `level`; kInf when a has none.
  int64_t LowestRest(int32_t a, int64_t level) const {
    int64_t v = kInf;
    for (int32_t k = p_.ov_begin[a]; k < p_.ov_begin[a + 1]; ++k) {
      const int32_t j = p_.ov[k];
      if (!placed_[j]) v = std::min(v, std::max(eff_[j], level) + p_.size[j]);
    }
    return v;
  }

  // After placing a: the sections it spanned may now split apart.
  SearchOutcome AfterPlace(int32_t a, const std::vector<int32_t>& buffers, int32_t lo, int32_t hi,
                           int64_t level) {
    for (int32_t s = std::max(p_.sec_lo[a], lo); s < std::min(p_.sec_hi[a], hi); ++s) {
      if (cuts_[s] == 0) return SolveSplit(buffers, lo, hi);
    }
    return Dfs(buffers, lo, hi, level);
  }

  // True when every unplaced time-neighbour of a has its eff at or above
  // a's (aligned) top once a sits at its eff.
  bool Dominant(int32_t a) const {
    const int64_t atop = AlignUp(eff_[a] + p_.size[a], p_.alignment);
    for (int32_t k = p_.ov_begin[a]; k < p_.ov_begin[a + 1]; ++k) {
      const int32_t j = p_.ov[k];
      if (!placed_[j] && eff_[j] < atop) return false;
    }
    return true;
  }

  // Sections of a whose floor may change because a's eff rose from `old`.
  void MarkAffected(int32_t a, int64_t old) {
    for (int32_t s = p_.sec_lo[a]; s <= p_.sec_hi[a]; ++s) {
      if (old <= floor_[s] && stamp_[s] != gen_) {
        stamp_[s] = gen_;
        affected_.push_back(s);
      }
    }
  }

  void Refresh() {
    for (int32_t s : affected_) {
      const int64_t v = MinEffOf(s, floor_[s]);
      if (v > floor_[s]) SetFloor(s, v);
    }
  }

  void SetEff(int32_t a, int64_t v) {
    trail_.push_back({kEff, a, eff_[a]});
    eff_[a] = v;
  }
  void SetFloating(int32_t a, char v) {
    trail_.push_back({kFloat, a, floating_[a]});
    floating_[a] = v;
  }
  void SetFloor(size_t s, int64_t v) {
    trail_.push_back({kFloor, static_cast<int32_t>(s), floor_[s]});
    floor_[s] = v;
  }

  // Places c at eff[c]; false if the inference check on sections [lo, hi]
  // fails (the change is on the trail either way).
  bool Place(int32_t c, int32_t lo, int32_t hi, int64_t level) {
    const int64_t o = eff_[c];
    const int64_t top = o + p_.size[c];
    const int64_t atop = AlignUp(top, p_.alignment);
    trail_.push_back({kPlace, c, 0});
    placed_[c] = 1;
    offset_[c] = o;
    ++placed_count_;
    ++gen_;
    affected_.clear();
    for (int32_t s = p_.sec_lo[c]; s <= p_.sec_hi[c]; ++s) {
      rem_[s] -= p_.size[c];
      if (floor_[s] < top) SetFloor(s, top);
      stamp_[s] = gen_;
      affected_.push_back(s);
    }
    for (int32_t s = p_.sec_lo[c]; s < p_.sec_hi[c]; ++s) --cuts_[s];
    if (top > cap_) return false;
    for (int32_t k = p_.ov_begin[c]; k < p_.ov_begin[c + 1]; ++k) {
      const int32_t j = p_.ov[k];
      if (placed_[j]) continue;
      if (eff_[j] >= atop) {
        // A floating j whose bound is where c's top lifts it rests on c.
        if (floating_[j] && Lift(j, atop) == eff_[j]) SetFloating(j, 0);
        continue;
      }
      const int64_t old = eff_[j];
      SetEff(j, Lift(j, atop));
      if (floating_[j]) SetFloating(j, 0);  // it rests on c now
      // floor_[s] is the smallest eff of s's unplaced buffers: it can only
      // change where j was that smallest.
      MarkAffected(j, old);
    }
    Refresh();
    return Feasible(lo, hi, level);
  }

  void UndoTo(size_t mark) {
    while (trail_.size() > mark) {
      const Change t = trail_.back();
      trail_.pop_back();
      if (t.kind == kEff) {
        eff_[t.index] = t.old;
      } else if (t.kind == kFloat) {
        floating_[t.index] = static_cast<char>(t.old);
      } else if (t.kind == kFloor) {
        floor_[t.index] = t.old;
      } else {
        const int32_t c = t.index;
        for (int32_t s = p_.sec_lo[c]; s <= p_.sec_hi[c]; ++s) rem_[s] += p_.size[c];
        for (int32_t s = p_.sec_lo[c]; s < p_.sec_hi[c]; ++s) ++cuts_[s];
        placed_[c] = 0;
        --placed_count_;
      }
    }
  }

  // Section inference on sections [lo, hi]: the unplaced buffers of a
  // section all go at or above its floor and `level`, beside its fixed bytes.
  bool Feasible(int32_t lo, int32_t hi, int64_t level) {
    for (int32_t s = lo; s <= hi; ++s) {
      int64_t lvl = floor_[s];
      if (rem_[s] == 0) {
        if (lvl > cap_) {
          if (weights_ != nullptr) ++(*weights_)[s];
          return false;
        }
        continue;
      }
      lvl = std::max(lvl, level);
      int64_t need = lvl + rem_[s];
      for (int32_t k = p_.fix_begin[s]; k < p_.fix_begin[s + 1]; ++k) {
        const int64_t from = std::max(p_.fix_lo[k], lvl);
        if (p_.fix_hi[k] > from) need += p_.fix_hi[k] - from;
      }
      if (need > cap_) {
        if (weights_ != nullptr) ++(*weights_)[s];
        return false;
      }
    }
    return true;
  }

  bool Stop() {
    if (limits_.node_budget > 0 && nodes_ >= limits_.node_budget) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now >= limits_.deadline) return true;
    if (limits_.cancel.stop != nullptr && now - last_check_ >= std::chrono::milliseconds(1)) {
      last_check_ = now;
      if (limits_.cancel.stop(limits_.cancel.context)) {
        if (limits_.cancelled != nullptr) *limits_.cancelled = true;
        return true;
      }
    }
    return false;
  }

  SearchResult& Found(SearchResult* res) {
    res->outcome = SearchOutcome::kFound;
    res->offsets = offset_;
    int64_t end = p_.fixed_end;
    for (size_t a = 0; a < m_; ++a) end = std::max(end, offset_[a] + p_.size[a]);
    res->arena_bytes = end;
    return *res;
  }

  const SearchProblem& p_;
  const std::vector<int32_t>& rank_;
  const int64_t cap_;
  const SearchLimits& limits_;
  const bool ranked_;
  const size_t m_, S_;
  std::vector<int64_t>* const weights_;  // failures seen per section; null: unweighted
  std::vector<char> placed_;
  std::vector<char> floating_;  // eff is only a lower bound: not a candidate
  std::vector<int64_t> offset_, eff_, floor_, rem_;
  std::vector<int32_t> counts_;  // scratch for choosing a section
  std::vector<int32_t> cuts_;    // unplaced buffers crossing boundary s | s + 1
  std::vector<uint32_t> stamp_;
  uint32_t gen_ = 0;
  std::vector<int32_t> affected_;
  std::vector<Change> trail_;
  std::vector<std::vector<int32_t>> pool_;       // candidate lists by depth
  std::vector<std::vector<int64_t>> lift_pool_;  // and their lifts
  size_t placed_count_ = 0;
  int64_t nodes_ = 0;
  int depth_ = 0;
  std::chrono::steady_clock::time_point last_check_;
};

}  // namespace

SearchResult SearchAtCapacity(const SearchProblem& p, const std::vector<int32_t>& rank,
                              int64_t capacity, const SearchLimits& limits,
                              const SearchGuide& guide) {
  Search search(p, rank, capacity, limits, guide);
  return search.Run();
}

}  // namespace plan_internal
}  // namespace tflm_arena
