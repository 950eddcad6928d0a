// Stock TFLM with several models in one arena: one MicroAllocator (one
// buffer) passed to several MicroInterpreters, each AllocateTensors() run
// in turn and every interpreter kept (docs/tflm_behaviour.md, section "Two
// buffers and several models").
//
// What TFLM does (micro_allocator.cc): the allocator objects (buffer
// allocator, planner, MicroAllocator) exist once; each later model's
// StartModelAllocation adds its tail on top of the tails already there and
// shrinks the head to the scratch-request records (InitScratchBufferData),
// its Prepare and planning temp run above that head, and
// CommitStaticMemoryPlan reserves the largest plan seen so far
// (max_head_buffer_usage_) before the model's last tail allocations. So the
// need is the largest of the phases, not max(head) + sum(tails), and the
// order of the models matters.
#ifndef TFLM_ARENA_TFLM_SHARED_ARENA_H_
#define TFLM_ARENA_TFLM_SHARED_ARENA_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/tflm/allocation_trace.h"
#include "tflm_arena/tflm/tflm_arena_size.h"

namespace tflm_arena {
namespace tflm {

// Orders of up to this many models are all tried for the best order.
constexpr size_t kSharedArenaAllOrdersMax = 6;

struct SharedArenaPhases {
  // Smallest arena with which models 0..k of the order all allocate (the
  // last entry is the answer); non-decreasing.
  std::vector<uint64_t> phase_bytes;
  uint64_t min_arena_bytes = 0;
  // One byte below the minimum: the model (position in the order) and the
  // event that fails.
  size_t limited_by_model = 0;
  std::string limited_by;
};

// The traces of the models, in allocation order, as one allocator sees them
// (later models without the allocator objects, each plan reservation the
// largest so far). model_of_event[i] is the position of event i's model.
Status SharedTrace(const std::vector<const Trace*>& in_order, Trace* out,
                   std::vector<size_t>* model_of_event);

// The phases of `in_order` (every trace built for the same allocator).
Status SharedArenaPhasesOf(const std::vector<const Trace*>& in_order, SharedArenaPhases* out);

struct TflmSharedArena {
  std::string target;
  std::string version;  // the stack version (stack_versions.h)
  std::string description;
  bool recording = false;
  std::string planner;
  // As TflmSplitArena::checked: run on a real build of this target.
  bool checked = false;
  std::vector<size_t> order;                 // 0..n-1: the order given
  SharedArenaPhases given;                   // in the order given
  std::vector<uint64_t> single_arena_bytes;  // per model given, alone
  std::vector<uint64_t> heads;               // per model given, alone at its minimum
  std::vector<uint64_t> tails;
  // The smallest arena over every order (when n <= kSharedArenaAllOrdersMax),
  // the first order (in lexicographic order of the indices) that reaches it.
  bool all_orders_checked = false;
  std::vector<size_t> best_order;
  uint64_t best_min_arena_bytes = 0;
};

// kInvalidArgument for fewer than two models or a target whose application
// cannot share an allocator (the tflite-micro wheel's interpreter); else as
// ComputeTflmArenaSize, naming the model (its position) that fails.
Status ComputeTflmSharedArena(const std::vector<const model::Model*>& models,
                              const TflmArenaOptions& options, TflmSharedArena* out,
                              Refusal* refusal = nullptr, size_t* failed_model = nullptr);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_SHARED_ARENA_H_
