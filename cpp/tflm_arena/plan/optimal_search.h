// Internal to PlanOptimal (optimal.cc): the fixed-capacity feasibility search.
//
// Only planner-placed buffers of positive size take part; fixed buffers are
// obstacles (and zero-size buffers go to offset 0, where they can never
// overlap anything). Time is cut into sections: maximal step ranges over
// which no buffer starts or ends, so every buffer covers a contiguous range of
// sections and two buffers overlap in time exactly when their ranges meet.
//
// The search (ideas from MiniMalloc, our own code) enumerates only canonical
// plans: every buffer sits at the lowest aligned offset its time-neighbours
// placed so far and the fixed obstacles allow ("eff"), and buffers are placed
// in non-decreasing offset order, one level (offset) at a time. That is
// complete: any plan can be slid down into such a plan, no larger.
//  * branching (SearchGuide): at the current level, either the section with
//    the fewest choices (candidates covering it, plus "none" if it has room
//    to spare), divided by 1 + the failures seen there so far, or the
//    best-ranked candidate alone. Either one of the candidates (buffers
//    resting at the level) sits there, one branch each in rank order, or
//    none does. A section with one candidate and no room is a forced move.
//  * floating: a candidate that does not sit at its eff must, in a
//    canonical plan, rest on a time-neighbour placed later at or above the
//    level. Its eff becomes a lower bound (the lowest top such a neighbour
//    can have) and it "floats": it is no candidate until a placement lifts
//    it onto a top. When the level rises past a floating buffer, its bound
//    rises the same way; a floating buffer with no unplaced neighbour left
//    has nothing to rest on, and the branch is empty.
//  * dominance: a candidate whose unplaced neighbours all have their eff at
//    or above its top changes nothing by sitting at the level, and any plan
//    with it higher slides it down there: it is placed with no alternative
//    (MiniMalloc's "hatless" pruning is the case with no unplaced
//    neighbour).
//  * section inference: the unplaced buffers of a section all land at or
//    above max(its floor, the level, their smallest eff), so that plus their
//    sizes plus the fixed bytes above it must fit the capacity; a section
//    that fails it adds to its failure weight.
//  * decomposition: once no unplaced buffer crosses a section boundary, the
//    two sides are independent and are solved one after the other (a failure
//    on one side never re-enumerates the other).
// Recursive, depth <= kMaxDepth (placements plus floating steps on one
// path); memory O(n + overlaps + trail).
#ifndef TFLM_ARENA_PLAN_OPTIMAL_SEARCH_H_
#define TFLM_ARENA_PLAN_OPTIMAL_SEARCH_H_

#include <chrono>
#include <cstdint>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/usage_record.h"
#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace plan_internal {

// Inputs larger than this are planned by the heuristics only (bounded memory
// and time: overlap lists are O(n^2) in the worst case).
constexpr size_t kMaxSearchBuffers = 2048;               // also bounds the recursion depth
constexpr int64_t kMaxSearchEntries = int64_t{1} << 23;  // overlaps + section entries

// The preprocessed problem; built once, searched at many capacities.
struct SearchProblem {
  int64_t alignment = 1;
  std::vector<size_t> ids;      // original record index of search buffer i
  std::vector<int64_t> size;    // > 0
  std::vector<int32_t> sec_lo;  // first section (inclusive)
  std::vector<int32_t> sec_hi;  // last section (inclusive)
  std::vector<int64_t> first;   // original first/last steps (for heuristic ranks)
  std::vector<int64_t> last;
  // CSR lists.
  std::vector<int32_t> ov_begin, ov;    // time-overlapping search buffers
  std::vector<int32_t> obs_begin;       // fixed obstacles per buffer:
  std::vector<int64_t> obs_lo, obs_hi;  //   merged [lo, aligned hi), by lo
  std::vector<int32_t> mem_begin, mem;  // search buffers per section
  std::vector<int32_t> fix_begin;       // fixed bytes per section:
  std::vector<int64_t> fix_lo, fix_hi;  //   merged [lo, hi), by lo
  int64_t lower_bound = 0;              // no plan fits in less (valid with fixed aliases)
  int64_t fixed_end = 0;                // largest end of a fixed buffer
  size_t sections() const { return mem_begin.empty() ? 0 : mem_begin.size() - 1; }
};

// Builds the problem; false when it is too large to search (see limits).
bool BuildSearchProblem(Span<const UsageRecord> records, int64_t alignment, SearchProblem* p);

// Rank orders tried by the search (ties between equal offsets): by the
// largest section load a buffer meets, size, lifetime or area first, and
// MiniMalloc's three preorderings (width-area-load, load-area-width,
// load-width-area).
constexpr int kNumRankHeuristics = 7;
std::vector<int32_t> RankBuffers(const SearchProblem& p, int heuristic);

enum class SearchOutcome { kFound, kInfeasible, kAborted };

// Deadline, cancel hook and node budget for one search.
struct SearchLimits {
  std::chrono::steady_clock::time_point deadline;
  int64_t node_budget = 0;  // <= 0: unlimited
  PlanCancel cancel;
  bool* cancelled = nullptr;  // set when cancel.stop returned true
};

// How a search chooses its branches.
enum class Branching {
  // At the current level, decide the section with the fewest choices,
  // weighted by how often that section failed before (`weights`).
  kSection,
  // Decide the best-ranked candidate: it sits at the level, or it does not.
  kRanked,
};

struct SearchGuide {
  Branching branching = Branching::kSection;
  // Failures per section, kept across the searches of one problem so that
  // later ones decide the sections that fail first; null: unweighted.
  std::vector<int64_t>* weights = nullptr;
};

struct SearchResult {
  SearchOutcome outcome = SearchOutcome::kAborted;
  std::vector<int64_t> offsets;  // per search buffer, when found
  int64_t arena_bytes = 0;       // max end, fixed buffers included
  int64_t nodes = 0;
};

// Depth-first search for a canonical plan with every end <= capacity.
SearchResult SearchAtCapacity(const SearchProblem& p, const std::vector<int32_t>& rank,
                              int64_t capacity, const SearchLimits& limits,
                              const SearchGuide& guide = SearchGuide());

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_OPTIMAL_SEARCH_H_
