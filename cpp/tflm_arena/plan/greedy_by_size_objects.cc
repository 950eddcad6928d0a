// GREEDY_BY_SIZE (objects; the GPU delegate's "size-distance priority"):
// a buffer's position is the last index k whose positional maximum is at
// least its size. Repeatedly take the unassigned buffer with the lowest
// position, then the smallest positive step gap to a buffer already in some
// object, then the larger size (then lowest index), and put it in the object
// holding that nearest neighbour (a new object when no object is free for
// it). The delegate's loop rescans every unassigned buffer each round and
// keeps a distance per buffer and object (O(n^2));
// greedy_by_size_objects_reference_test.cc keeps that loop and checks that
// this file assigns exactly the same objects.
//
// What the loop computes, per unassigned buffer i: dist(i, o), the smallest
// gap from i to a member of object o, or "conflict" once a member of o
// shares a step with i; best_dist(i), the smallest dist(i, o); best_object(i),
// one object at that distance. Which one, among several at the same distance,
// depends on the order things happened: the first object to get strictly
// closer wins, later equal ones do not replace it, and when the best object
// turns into a conflict the loop takes the lowest id at the new smallest
// distance ("recalculates"). This file gets the same values with less work:
//  1. Position is fixed, so the loop takes all buffers of position 0 first,
//     then all of position 1, ...: one group at a time. Only the current
//     group's priorities are ever compared.
//  2. When a group starts, each member's best_dist is found from the
//     assigned buffers in time order: an object is free for it when none of
//     its members shares a step with it, so its nearest free member before
//     it is the nearest assigned buffer whose next member in its object
//     starts after it (and likewise after it): two searches in trees over
//     the buffers by last and by first step. If several objects are at that
//     distance v, the loop's choice among them is replayed over just the
//     assignments that can decide it: those at a gap of at most v and the
//     conflicts of their objects (from an interval index), in assignment
//     order. (Assignments farther than v never make a distance <= v, so they
//     cannot change which object first got within v, nor a recalculation
//     that ends at v or below.)
//  3. Inside the group, an assignment of buffer j to object o only changes
//     members whose gap to j is below their best_dist (they move to o,
//     unless o is in conflict with them) or that share a step with j (o
//     turns into a conflict; recalculated as in step 2 if o was their
//     best). Segment trees over the group by first and last step find
//     exactly those. Members with no free object at all wait for the next
//     new object.
// Time: O(n log n) plus O(log n) per best_dist update. The updates are few
// when each position group is small next to the time it spans (about one
// per buffer on the benchmark's 1M buffers with ~250 live and sizes spread
// over 4,096 values), but a large group spread over a long time (few
// buffers live at once, as in a chain, so there are few positions; or few
// distinct sizes) grows its objects outwards one neighbour at a time, each
// assignment moving the nearest object of every member beyond it: O(n^2)
// updates. So the search gives up when the updates pass 16 per buffer
// assigned so far (plus 2^20), a few assignments into such a group; the
// delegate's own loop (O(n^2) time, n x objects memory, ~1 s at 20,000
// buffers) then runs on up to kMaxGreedyBySizeObjectsBuffers buffers, and
// more are refused. Both give the same objects.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "tflm_arena/plan/interval_index.h"
#include "tflm_arena/plan/order_search.h"
#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/shared_objects_internal.h"

namespace tflm_arena {
namespace {

constexpr int64_t kNone = std::numeric_limits<int64_t>::max();  // conflict / no object
using plan_internal::AboveTree;
using plan_internal::kNoPosition;
using plan_internal::MarkedPositions;

// GreedyBySize's work limit, checked as it goes: this many best_dist
// updates per buffer assigned so far, plus the slack (the benchmark's dense
// shape needs about one per buffer; a chain half its group per buffer, so
// it gives up within a few assignments of turning quadratic).
constexpr uint64_t kWorkPerBuffer = 16;
constexpr uint64_t kWorkSlack = uint64_t{1} << 20;

class GreedyBySize {
 public:
  GreedyBySize(Span<const UsageRecord> records, SharedObjects* out)
      : records_(records),
        out_(out),
        assigned_(records),
        round_(records.size(), -1),
        best_dist_(records.size(), kNone),
        best_object_(records.size(), -1),
        marked_last_(records.size()),
        marked_first_(records.size()) {
    const size_t n = records.size();
    for (auto* order : {&by_last_, &by_first_}) {
      order->resize(n);
      for (size_t i = 0; i < n; ++i) (*order)[i] = static_cast<uint32_t>(i);
    }
    std::sort(by_last_.begin(), by_last_.end(), [&](uint32_t a, uint32_t b) {
      return std::make_pair(records[a].last_step, a) < std::make_pair(records[b].last_step, b);
    });
    std::sort(by_first_.begin(), by_first_.end(), [&](uint32_t a, uint32_t b) {
      return std::make_pair(records[a].first_step, a) < std::make_pair(records[b].first_step, b);
    });
    pos_last_.resize(n);
    pos_first_.resize(n);
    last_sorted_.resize(n);
    first_sorted_.resize(n);
    for (size_t p = 0; p < n; ++p) {
      pos_last_[by_last_[p]] = static_cast<uint32_t>(p);
      pos_first_[by_first_[p]] = static_cast<uint32_t>(p);
      last_sorted_[p] = records[by_last_[p]].last_step;
      first_sorted_[p] = records[by_first_[p]].first_step;
    }
    // Where each buffer's neighbours in time begin: the positions (by last
    // step) of those ending before it, and (by first step) of those
    // starting after it. Both move forward as the buffer does.
    ends_before_.resize(n);
    starts_after_.resize(n);
    for (size_t p = 0, q = 0; p < n; ++p) {
      const uint32_t i = by_first_[p];
      while (q < n && last_sorted_[q] < records[i].first_step) ++q;
      ends_before_[i] = static_cast<uint32_t>(q);
    }
    for (size_t p = 0, q = 0; p < n; ++p) {
      const uint32_t i = by_last_[p];
      while (q < n && first_sorted_[q] <= records[i].last_step) ++q;
      starts_after_[i] = static_cast<uint32_t>(q);
    }
  }

  // Gives up (false) once the work passes the limit (see the top comment).
  bool Run() {
    const size_t n = records_.size();
    // Positions: max is non-increasing, so the count of entries >= size,
    // minus one (max[0] is at least every size).
    const std::vector<int64_t> max = PositionalMaximums(records_);
    std::vector<std::pair<size_t, uint32_t>> by_position(n);
    for (size_t i = 0; i < n; ++i) {
      const size_t at_least = static_cast<size_t>(
          std::partition_point(max.begin(), max.end(),
                               [&](int64_t m) { return m >= records_[i].size; }) -
          max.begin());
      by_position[i] = {at_least == 0 ? 0 : at_least - 1, static_cast<uint32_t>(i)};
    }
    std::sort(by_position.begin(), by_position.end());
    std::vector<uint32_t> group;
    for (size_t g = 0; g < n;) {
      group.clear();
      const size_t position = by_position[g].first;
      for (; g < n && by_position[g].first == position; ++g) group.push_back(by_position[g].second);
      if (!RunGroup(group)) return false;
    }
    return true;
  }

  uint64_t updates() const { return work_; }
  uint64_t assigned() const { return static_cast<uint64_t>(rounds_); }

 private:
  struct Nearest {
    int64_t dist = kNone;
    int32_t object = -1;  // the lowest id at that distance
    int32_t member = -1;  // a member of it at that distance
    bool tie = false;     // more than one object at that distance
  };
  struct Near {
    int32_t round;  // when the assigned buffer was assigned
    int32_t object;
    int64_t gap;
    uint32_t member;
  };

  // best_dist(i) with the lowest object id at it: what the loop's
  // recalculation gives. An object is free for i when none of its members
  // shares a step with i; its nearest member before i is then one whose next
  // member in the object starts after i, and the nearest after i one whose
  // previous member ends before i. So the nearest free member on each side
  // is the nearest assigned buffer passing that test (a tree search).
  Nearest FindNearest(uint32_t i) const {
    const UsageRecord& r = records_[i];
    const size_t ends_before = ends_before_[i];
    const size_t starts_after = starts_after_[i];
    const size_t left = next_first_.LastBelow(ends_before, r.last_step);
    const size_t right = prev_last_.FirstFrom(starts_after, -int64_t{r.first_step});
    const int64_t gap_left =
        left != kNoPosition ? int64_t{r.first_step} - last_sorted_[left] : kNone;
    const int64_t gap_right =
        right != kNoPosition ? int64_t{first_sorted_[right]} - r.last_step : kNone;
    Nearest best;
    best.dist = std::min(gap_left, gap_right);
    if (best.dist == kNone) return best;
    auto add = [&](uint32_t m) {
      const int32_t o = out_->object_ids[m];
      if (best.object != -1 && o != best.object) best.tie = true;
      if (best.object == -1 || o < best.object) {
        best.object = o;
        best.member = static_cast<int32_t>(m);
      }
    };
    // Every free member at that distance (one per object and side).
    for (size_t p = left;
         gap_left == best.dist && p != kNoPosition && last_sorted_[p] == last_sorted_[left];
         p = next_first_.LastBelow(p, r.last_step)) {
      add(by_last_[p]);
    }
    for (size_t p = right;
         gap_right == best.dist && p != kNoPosition && first_sorted_[p] == first_sorted_[right];
         p = prev_last_.FirstFrom(p + 1, -int64_t{r.first_step})) {
      add(by_first_[p]);
    }
    return best;
  }

  // Every assigned buffer at a gap of at most `dist` from i, and the
  // conflicts (objects with a member sharing a step with i, and when that
  // began): what the replay below needs.
  void CollectNear(uint32_t i, int64_t dist, std::vector<Near>* near) {
    const UsageRecord& r = records_[i];
    ++stamp_;
    const auto cost = assigned_.GatherCost(i);
    keys_.resize(cost.live + cost.starting + plan_internal::kFilterSlack);
    const size_t k = assigned_.Gather(i, keys_.data(), 0);
    for (size_t m = 0; m < k; ++m) {
      const size_t o = static_cast<size_t>(plan_internal::KeyOffset(keys_[m]));
      const int32_t round = static_cast<int32_t>(plan_internal::KeyEnd(keys_[m]));
      if (conflict_stamp_[o] != stamp_) {
        conflict_stamp_[o] = stamp_;
        conflict_round_[o] = round;
      } else {
        conflict_round_[o] = std::min(conflict_round_[o], round);
      }
    }
    near->clear();
    for (size_t p = marked_last_.Below(ends_before_[i]);
         p != kNoPosition && int64_t{r.first_step} - last_sorted_[p] <= dist;
         p = marked_last_.Below(p)) {
      const uint32_t m = by_last_[p];
      near->push_back(
          Near{round_[m], out_->object_ids[m], int64_t{r.first_step} - last_sorted_[p], m});
    }
    for (size_t p = marked_first_.AtOrAbove(starts_after_[i]);
         p != kNoPosition && int64_t{first_sorted_[p]} - r.last_step <= dist;
         p = marked_first_.AtOrAbove(p + 1)) {
      const uint32_t m = by_first_[p];
      near->push_back(
          Near{round_[m], out_->object_ids[m], int64_t{first_sorted_[p]} - r.last_step, m});
    }
  }

  // (best_dist, best_object) of unassigned i as the loop has them now, and
  // a member of that object at that distance.
  Nearest CurrentBest(uint32_t i) {
    const Nearest nearest = FindNearest(i);
    if (nearest.dist == kNone || !nearest.tie) return nearest;
    std::vector<Near>& near = near_;
    CollectNear(i, nearest.dist, &near);
    // Several objects at that distance: replay the loop's updates over the
    // assignments within it and their objects' conflicts, in order.
    std::vector<std::tuple<int32_t, int32_t, int64_t>>& events = events_;  // (round, object, gap)
    events.clear();
    for (const Near& e : near) {
      events.emplace_back(e.round, e.object, e.gap);
      const size_t o = static_cast<size_t>(e.object);
      if (conflict_stamp_[o] == stamp_ && replay_stamp_[o] != stamp_) {
        replay_stamp_[o] = stamp_;
        events.emplace_back(conflict_round_[o], e.object, kNone);
      }
    }
    std::sort(events.begin(), events.end());
    std::map<int32_t, int64_t>& dist = replay_dist_;  // by object; kNone = conflict
    dist.clear();
    int64_t best_dist = kNone;
    int32_t best_object = -1;
    for (const auto& [round, o, gap] : events) {
      auto at = dist.find(o);
      if (gap == kNone) {  // o's first member sharing a step with i
        dist[o] = kNone;
        if (best_object == o) {  // the loop's recalculation, over what is near
          best_dist = kNone;
          best_object = -1;
          for (const auto& [object, d] : dist) {
            if (d < best_dist) {
              best_dist = d;
              best_object = object;
            }
          }
        }
        continue;
      }
      if (at != dist.end() && at->second == kNone) continue;  // o is a conflict already
      if (at == dist.end() || gap < at->second) dist[o] = gap;
      if (gap < best_dist) {
        best_dist = gap;
        best_object = o;
      }
    }
    Nearest best{best_dist, best_object, -1, true};
    for (const Near& e : near) {
      if (e.object == best_object && e.gap == best_dist)
        best.member = static_cast<int32_t>(e.member);
    }
    return best;
  }

  // Links assigned buffer j into its object's members (in time order) next
  // to `near`, a member of the object with no other member between them (-1:
  // a new object), and updates the neighbour trees. Returns the last step of
  // j's previous member and the first step of its next one (kNone: none).
  std::pair<int64_t, int64_t> AddMember(uint32_t j, int32_t near) {
    int32_t prev = -1, next = -1;
    if (near != -1) {
      if (records_[near].last_step < records_[j].first_step) {
        prev = near;
        next = next_member_[near];
      } else {
        next = near;
        prev = prev_member_[near];
      }
    }
    prev_member_[j] = prev;
    next_member_[j] = next;
    next_first_.Set(pos_last_[j], next != -1 ? int64_t{records_[next].first_step} : kNone);
    prev_last_.Set(pos_first_[j], prev != -1 ? -int64_t{records_[prev].last_step} : kNone);
    if (next != -1) {
      prev_member_[next] = static_cast<int32_t>(j);
      prev_last_.Set(pos_first_[next], -int64_t{records_[j].last_step});
    }
    if (prev != -1) {
      next_member_[prev] = static_cast<int32_t>(j);
      next_first_.Set(pos_last_[prev], records_[j].first_step);
    }
    return {prev != -1 ? int64_t{records_[prev].last_step} : kNone,
            next != -1 ? int64_t{records_[next].first_step} : kNone};
  }

  bool RunGroup(const std::vector<uint32_t>& group) {
    const size_t g = group.size();
    // The group by first step and by last step, and where each member is.
    std::vector<uint32_t> by_first(group), by_last(group);
    std::sort(by_first.begin(), by_first.end(),
              [&](uint32_t a, uint32_t b) { return pos_first_[a] < pos_first_[b]; });
    std::sort(by_last.begin(), by_last.end(),
              [&](uint32_t a, uint32_t b) { return pos_last_[a] < pos_last_[b]; });
    std::vector<Step> firsts(g), lasts(g);
    for (size_t p = 0; p < g; ++p) {
      firsts[p] = records_[by_first[p]].first_step;
      lasts[p] = records_[by_last[p]].last_step;
      at_first_[by_first[p]] = static_cast<uint32_t>(p);
      at_last_[by_last[p]] = static_cast<uint32_t>(p);
    }
    // live: last step (members sharing a step with an assignment);
    // reach_left: last + best_dist (gaps to later starts below best_dist);
    // reach_right: best_dist - first (gaps to earlier ends below best_dist).
    AboveTree live(g), reach_left(g), reach_right(g);
    std::set<std::tuple<int64_t, int64_t, uint32_t>> queue;  // (best_dist, -size, index)
    auto key = [&](uint32_t i) { return std::make_tuple(best_dist_[i], -records_[i].size, i); };
    // Members with no free object (best_dist kNone) are "homeless": every
    // existing object is in conflict with them, so only a new object can
    // change them. They stay out of the reach trees (else every assignment
    // would report them, to no effect) and are checked when one is made.
    std::vector<uint32_t> homeless;
    std::vector<uint8_t>& is_homeless = is_homeless_;
    auto set_reach = [&](uint32_t i) {
      const int64_t d = best_dist_[i];
      if (d == kNone && !is_homeless[i]) {
        is_homeless[i] = 1;
        homeless.push_back(i);
      }
      reach_left.Set(at_last_[i], d == kNone ? AboveTree::kLow : records_[i].last_step + d);
      reach_right.Set(at_first_[i], d == kNone ? AboveTree::kLow : d - records_[i].first_step);
    };
    for (uint32_t i : group) {
      const Nearest best = CurrentBest(i);
      best_dist_[i] = best.dist;
      best_object_[i] = best.object;
      best_member_[i] = best.member;
      live.Set(at_first_[i], records_[i].last_step);
      set_reach(i);
      queue.insert(key(i));
    }
    std::vector<size_t> hits;
    while (!queue.empty()) {
      if (work_ + reported_ / 16 > kWorkPerBuffer * static_cast<uint64_t>(rounds_) + kWorkSlack) {
        return false;
      }
      const uint32_t pick = std::get<2>(*queue.begin());
      queue.erase(queue.begin());
      const UsageRecord& r = records_[pick];
      const bool new_object = best_dist_[pick] == kNone;
      int32_t obj = best_object_[pick];
      if (new_object) {
        obj = static_cast<int32_t>(out_->object_sizes.size());
        out_->object_sizes.push_back(r.size);
        conflict_stamp_.push_back(0);
        conflict_round_.push_back(0);
        replay_stamp_.push_back(0);
      } else {
        out_->object_sizes[obj] = std::max(out_->object_sizes[obj], r.size);
      }
      out_->object_ids[pick] = obj;
      round_[pick] = rounds_;
      assigned_.Insert(pick, obj, rounds_);
      ++rounds_;
      // obj is free for a member ending before pick iff pick's previous
      // member in obj ends before that member starts (one between them
      // would be nearer than pick, so the member would not be reported
      // unless obj were in conflict with it); likewise after pick.
      const auto [prev_last, next_first] = AddMember(pick, new_object ? -1 : best_member_[pick]);
      marked_last_.Mark(pos_last_[pick]);
      marked_first_.Mark(pos_first_[pick]);
      live.Set(at_first_[pick], AboveTree::kLow);
      reach_left.Set(at_last_[pick], AboveTree::kLow);
      reach_right.Set(at_first_[pick], AboveTree::kLow);

      auto update = [&](uint32_t i, int64_t dist, int32_t object, int32_t member) {
        ++work_;
        best_member_[i] = member;
        queue.erase(key(i));
        best_dist_[i] = dist;
        best_object_[i] = object;
        queue.insert(key(i));
        set_reach(i);
      };
      if (new_object) {
        // The homeless not sharing a step with pick move to its new object.
        size_t kept = 0;
        for (uint32_t i : homeless) {
          const UsageRecord& h = records_[i];
          if (i == pick) {
            is_homeless[i] = 0;
          } else if (h.last_step < r.first_step || r.last_step < h.first_step) {
            is_homeless[i] = 0;
            update(i,
                   h.last_step < r.first_step ? int64_t{r.first_step} - h.last_step
                                              : int64_t{h.first_step} - r.last_step,
                   obj, static_cast<int32_t>(pick));
          } else {
            homeless[kept++] = i;
          }
        }
        homeless.resize(kept);
      }
      const size_t starts_by_end = static_cast<size_t>(
          std::upper_bound(firsts.begin(), firsts.end(), r.last_step) - firsts.begin());
      // Sharing a step with pick: obj turns into a conflict.
      hits.clear();
      live.Report(0, starts_by_end, int64_t{r.first_step} - 1, &hits);
      reported_ += hits.size();
      for (size_t p : hits) {
        const uint32_t i = by_first[p];
        if (!new_object && best_object_[i] == obj) {
          const Nearest nearest = FindNearest(i);
          update(i, nearest.dist, nearest.object, nearest.member);
        }
      }
      // Ending before pick starts, nearer to it than to their best.
      hits.clear();
      reach_left.Report(
          0,
          static_cast<size_t>(std::lower_bound(lasts.begin(), lasts.end(), r.first_step) -
                              lasts.begin()),
          r.first_step, &hits);
      reported_ += hits.size();
      for (size_t p : hits) {
        const uint32_t i = by_last[p];
        if (prev_last == kNone || prev_last < records_[i].first_step) {
          update(i, int64_t{r.first_step} - records_[i].last_step, obj, static_cast<int32_t>(pick));
        }
      }
      // Starting after pick ends, nearer to it than to their best.
      hits.clear();
      reach_right.Report(starts_by_end, g, -int64_t{r.last_step}, &hits);
      reported_ += hits.size();
      for (size_t p : hits) {
        const uint32_t i = by_first[p];
        if (next_first == kNone || next_first > records_[i].last_step) {
          update(i, int64_t{records_[i].first_step} - r.last_step, obj, static_cast<int32_t>(pick));
        }
      }
    }
    return true;
  }

  Span<const UsageRecord> records_;
  SharedObjects* out_;
  // Assigned buffers, keys (object << 32 | round).
  plan_internal::IntervalIndex assigned_;
  std::vector<int32_t> round_;  // assignment round, -1 while unassigned
  int32_t rounds_ = 0;
  // Work so far: best_dist updates (each a queue update), and buffers the
  // trees reported (cheaper; most need no update).
  uint64_t work_ = 0, reported_ = 0;
  std::vector<int64_t> best_dist_;
  std::vector<int32_t> best_object_;
  // Every buffer by (last step, index) and by (first step, index); assigned
  // ones are marked.
  std::vector<uint32_t> by_last_, by_first_, pos_last_, pos_first_;
  std::vector<Step> last_sorted_, first_sorted_;
  std::vector<uint32_t> ends_before_, starts_after_;
  MarkedPositions marked_last_, marked_first_;
  // Per assigned buffer: the previous and next member of its object in time
  // (-1: none); per unassigned one: a member of best_object at best_dist.
  std::vector<int32_t> prev_member_ = std::vector<int32_t>(records_.size(), -1);
  std::vector<int32_t> next_member_ = std::vector<int32_t>(records_.size(), -1);
  std::vector<int32_t> best_member_ = std::vector<int32_t>(records_.size(), -1);
  // Assigned buffers by position in by_last_: the first step of the next
  // member of their object (kNone: none yet); by position in by_first_:
  // minus the last step of the previous one (kNone: none).
  AboveTree next_first_ = AboveTree(records_.size());
  AboveTree prev_last_ = AboveTree(records_.size());
  // Per object, for the buffer FindNearest looked at last (stamp_): in
  // conflict with it since conflict_round_; replayed.
  std::vector<uint32_t> conflict_stamp_, replay_stamp_;
  std::vector<int32_t> conflict_round_;
  uint32_t stamp_ = 0;
  // The current group's positions by first and by last step.
  std::vector<uint32_t> at_first_ = std::vector<uint32_t>(records_.size());
  std::vector<uint32_t> at_last_ = std::vector<uint32_t>(records_.size());
  std::vector<uint8_t> is_homeless_ = std::vector<uint8_t>(records_.size(), 0);
  std::vector<uint64_t> keys_;
  std::vector<Near> near_;
  std::vector<std::tuple<int32_t, int32_t, int64_t>> events_;
  std::map<int32_t, int64_t> replay_dist_;
};

}  // namespace

Status AssignGreedyBySize(Span<const UsageRecord> records, SharedObjects* out) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckSharedObjectRecords(records));
  if (records.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "greedy_by_size_objects: %zu buffers, more than %d", records.size(),
                         std::numeric_limits<int32_t>::max());
  }
  const size_t n = records.size();
  *out = SharedObjects();
  out->object_ids.assign(n, -1);
  GreedyBySize fast(records, out);
  if (!fast.Run()) {
    if (n > kMaxGreedyBySizeObjectsBuffers) {
      *out = SharedObjects();
      return Status::Error(
          StatusCode::kInvalidArgument,
          "greedy_by_size_objects: %zu buffers with lifetimes that make its "
          "nearest-object search quadratic (it gave up after %llu updates with %llu "
          "buffers assigned: its buffers of about the same size are many and spread "
          "over a long time, as in a chain or with few distinct sizes); "
          "up to %zu buffers it runs the delegate's O(n^2) loop instead",
          n, static_cast<unsigned long long>(fast.updates()),
          static_cast<unsigned long long>(fast.assigned()), kMaxGreedyBySizeObjectsBuffers);
    }
    *out = SharedObjects();
    out->object_ids.assign(n, -1);
    plan_internal::AssignGreedyBySizeByRescan(records, out);
  }
  plan_internal::Finish(out);
  return Status::Ok();
}

}  // namespace tflm_arena
