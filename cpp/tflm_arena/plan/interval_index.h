// Internal (host): the buffers placed so far, searchable by "whose lifetime
// meets this one". Lets the fast greedy look at the k placed buffers that
// matter instead of walking all placed ones, and hands them over as packed
// (offset << 32 | end) keys, which is all TFLM's gap scan needs.
//
// Steps are replaced by their rank among all distinct first/last steps; that
// keeps every intersection of inclusive lifetimes and bounds the step count
// by 2n, whatever the step values. (When the steps already span fewer than
// 2n values, step - min serves as the rank: no sort needed.) A lifetime
// [a, b] meets [qa, qb] iff it is live at qa, or it starts in (qa, qb]; the
// two cases are disjoint, so each buffer is reported once:
//  - starts in (qa, qb]: all buffers sorted by first rank ("start slots"),
//    so those starting in (qa, qb] are one contiguous run; unplaced ones
//    hold an empty key.
//  - live at qa, short lifetimes: ranks are cut into blocks, runs of ranks
//    where at most kBlockSlots buffers start. A buffer reaching into at most
//    kShortBlocks later blocks is short: it is listed, once placed, in each
//    block whose first rank lies in (a, b], and its start slot keeps its
//    last rank. The short buffers live at qa are then those in the list of
//    qa's block and those starting in the block up to qa, both filtered by
//    last >= qa without a branch: two contiguous runs of at most ~live +
//    kBlockSlots entries.
//  - live at qa, long lifetimes: a segment tree over ranks holds each at
//    the O(log T) nodes that exactly cover it; the nodes on the path from
//    leaf qa to the root then hold every lifetime containing qa, once. Its
//    nodes' slots are laid out once (counted, then prefix-summed) in one
//    array. It is skipped when no lifetime is long.
// Queries made in size order jump around in time, so each run read is a
// cache miss: the block lists read 2 runs where the tree reads ~2 log T
// (most of them tiny), and an insert writes a few list entries where the
// tree writes ~2 log(b - a) nodes. Query cost: O(s + w + k) for short
// lifetimes and O(log T + s + k) with long ones, where s and w count the
// slots (placed or not) starting in (qa, qb] and in qa's block.
#ifndef TFLM_ARENA_PLAN_INTERVAL_INDEX_H_
#define TFLM_ARENA_PLAN_INTERVAL_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/usage_record.h"
#include "tflm_arena/plan/key_filter.h"

namespace tflm_arena {
namespace plan_internal {

// (offset << 32 | end): sorting keys sorts by offset. Offsets and ends of
// TFLM plans fit in int32, so both halves are non-negative.
inline uint64_t PackKey(int32_t offset, int32_t end) {
  return static_cast<uint64_t>(static_cast<uint32_t>(offset)) << 32 | static_cast<uint32_t>(end);
}
inline int64_t KeyOffset(uint64_t key) { return static_cast<int64_t>(key >> 32); }
inline int64_t KeyEnd(uint64_t key) { return static_cast<int64_t>(key & 0xffffffffu); }

class IntervalIndex {
 public:
  // Records must have first_step <= last_step.
  explicit IntervalIndex(Span<const UsageRecord> records);

  uint32_t first_rank(uint32_t id) const { return buffers_[id].first_rank; }
  uint32_t last_rank(uint32_t id) const { return buffers_[id].last_rank; }

  // Makes buffer `id`, placed at [offset, end), visible to later queries.
  void Insert(uint32_t id, int32_t offset, int32_t end);

  // What Gather(id) would read: `live`, the entries of the runs that hold
  // the buffers live at id's first step (the long ones, all meeting id; the
  // block list and block start slots, filtered); `starting`, the buffers,
  // placed or not, starting later within id's lifetime. live + starting
  // bounds what it appends. O(1), or O(log T) with long lifetimes.
  struct GatherSize {
    size_t live;
    size_t starting;
  };
  GatherSize GatherCost(uint32_t id) const;

  // Cache hints for a coming query of `id`, in four stages, each issued
  // some queries after the one before (each reads what the one before
  // fetched): 0 its Buffer entry, 1 the slot starts and the node counts on
  // its path, 2 the first keys of each node and of its runs, 3 every line
  // of its block list and start runs. Queries made in size order jump
  // around in time and miss the caches; prefetching a few queries ahead
  // overlaps those misses.
  void Prefetch(uint32_t id, int stage) const;

  // The four stages for the queries 8, 4, 2 and 1 places after `at` in
  // `order` (the order queries are made in: ids, or entries whose low 32
  // bits are ids). Below kPrefetchFrom inserted buffers everything is in
  // the caches anyway: callers skip it.
  static constexpr size_t kPrefetchFrom = 4096;
  template <typename Order>
  void PrefetchAhead(const Order& order, size_t at) const {
    const size_t n = order.size();
    if (at + 8 < n) Prefetch(static_cast<uint32_t>(order[at + 8]), 0);
    if (at + 4 < n) Prefetch(static_cast<uint32_t>(order[at + 4]), 1);
    if (at + 2 < n) Prefetch(static_cast<uint32_t>(order[at + 2]), 2);
    if (at + 1 < n) Prefetch(static_cast<uint32_t>(order[at + 1]), 3);
  }

  // Appends the key of every inserted buffer whose lifetime meets id's, in no
  // particular order; keys must have room for live + starting + kFilterSlack
  // (key_filter.h) more keys past `at`. Returns the new end.
  size_t Gather(uint32_t id, uint64_t* keys, size_t at) const;

 private:
  template <typename F>
  void ForEachCoverNode(uint32_t id, F&& f) const;

  // What a query or insert of one buffer reads, in one 32-byte entry: ids
  // come in size order, so each entry is a cache miss, one instead of five.
  struct alignas(32) Buffer {
    uint32_t first_rank;
    uint32_t last_rank;
    uint32_t start_slot;   // slot in start_keys_
    uint32_t first_block;  // blocks of first_rank and last_rank
    uint32_t last_block;
    // In the block lists (else in the tree).
    bool is_short() const { return last_block - first_block <= kShortBlocks; }
  };
  std::vector<Buffer> buffers_;
  uint32_t leaves_ = 1;  // power of two >= number of ranks
  // 2 * leaves_ tree nodes, root at 1: where each node's slots begin in
  // node_keys_, and how many are filled (apart: GatherCost reads only these).
  std::vector<size_t> node_begin_;
  std::vector<uint32_t> node_count_;
  std::vector<uint64_t> node_keys_;   // every node's slots, node by node
  std::vector<uint32_t> rank_begin_;  // rank -> first slot starting there
  std::vector<uint64_t> start_keys_;  // by first rank; kEmptyKey = not placed
  std::vector<int32_t> start_last_;   // by first rank: last rank if placed and short, else -1
  // Blocks: runs of consecutive ranks in which at most kBlockSlots buffers
  // start. Block k's list holds the placed short buffers live at its first
  // rank that started before it: a query at rank qa reads its block's list
  // and the start slots from the block's first one up to qa (both filtered
  // by last >= qa) instead of the tree.
  static constexpr size_t kBlockSlots = 128;
  static constexpr uint32_t kShortBlocks = 16;  // blocks a short lifetime may reach into
  bool any_long_ = false;                       // some buffer is in the tree
  std::vector<uint32_t> block_slot_;            // block -> first start slot in it
  std::vector<size_t> block_begin_;             // block -> first entry of its list
  std::vector<uint32_t> block_count_;           // entries filled
  std::vector<uint64_t> block_keys_;
  std::vector<int32_t> block_last_;
};

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_INTERVAL_INDEX_H_
