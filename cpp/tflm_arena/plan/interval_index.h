// Internal (host): the buffers placed so far, searchable by "whose lifetime
// meets this one". Lets the fast greedy look at the k buffers that matter
// instead of walking all n placed ones.
//
// Steps are replaced by their rank among all distinct first/last steps; that
// keeps every intersection of inclusive lifetimes and bounds the step count
// by 2n, whatever the step values. A lifetime [a, b] meets [qa, qb] iff it is
// live at qa, or it starts in (qa, qb]; the two cases are disjoint, so each
// buffer is reported once:
//  - live at qa: a segment tree over ranks stores each lifetime at the
//    O(log T) nodes that exactly cover it; the nodes on the path from leaf qa
//    to the root then hold every lifetime containing qa, each exactly once.
//  - starts in (qa, qb]: per-rank start lists, with a bitmap of non-empty
//    ranks so long queries skip empty steps 64 at a time.
// Query cost: O(log T + (qb - qa) / 64 + k). Lists are singly linked through
// one pool, so inserting costs O(log T) and no per-node allocation.
#ifndef TFLM_ARENA_PLAN_INTERVAL_INDEX_H_
#define TFLM_ARENA_PLAN_INTERVAL_INDEX_H_

#include <cstdint>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/usage_record.h"

namespace tflm_arena {
namespace plan_internal {

class IntervalIndex {
 public:
  // Records must have first_step <= last_step.
  explicit IntervalIndex(Span<const UsageRecord> records);

  // Makes buffer `id` visible to later queries.
  void Insert(uint32_t id);

  // Calls f(j) for every inserted j whose lifetime meets buffer id's, in no
  // particular order, until f returns false. Returns false if stopped early.
  template <typename F>
  bool ForEachMeeting(uint32_t id, F&& f) const {
    const uint32_t qa = first_rank_[id];
    const uint32_t qb = last_rank_[id];
    for (uint32_t node = qa + leaves_; node >= 1; node >>= 1) {
      for (int32_t e = node_head_[node]; e != -1; e = links_[e].next) {
        if (!f(links_[e].id)) return false;
      }
    }
    if (qb <= qa) return true;
    // Ranks qa+1 .. qb with a non-empty start list.
    uint32_t r = qa + 1;
    while (r <= qb) {
      uint64_t word = start_bits_[r >> 6] >> (r & 63);
      if (word == 0) {
        r = (r | 63) + 1;
        continue;
      }
      r += static_cast<uint32_t>(__builtin_ctzll(word));
      if (r > qb) break;
      for (int32_t e = start_head_[r]; e != -1; e = links_[e].next) {
        if (!f(links_[e].id)) return false;
      }
      ++r;
    }
    return true;
  }

 private:
  struct Link {
    uint32_t id;
    int32_t next;  // -1 ends the list
  };
  void Push(int32_t* head, uint32_t id);

  std::vector<uint32_t> first_rank_;
  std::vector<uint32_t> last_rank_;
  uint32_t leaves_ = 1;             // power of two >= number of ranks
  std::vector<int32_t> node_head_;  // 2 * leaves_ tree nodes, root at 1
  std::vector<int32_t> start_head_;
  std::vector<uint64_t> start_bits_;
  std::vector<Link> links_;
};

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_INTERVAL_INDEX_H_
