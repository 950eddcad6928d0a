// Stock TFLM with two buffers: MicroAllocator::Create(persistent_buffer,
// persistent_size, non_persistent_buffer, non_persistent_size, planner)
// (TFLM's micro_allocator.cc). The persistent buffer takes every tail
// allocation, led by the PersistentArenaBufferAllocator and the
// NonPersistentArenaBufferAllocator (instead of the
// SingleArenaBufferAllocator), then the planner and the MicroAllocator; the
// non-persistent buffer takes the head (scratch-request records, then the
// activation plan), the temp allocations of Prepare and planning, and the
// planner's scratch (docs/tflm_behaviour.md, section "Two buffers and
// several models").
//
// The two buffers never meet, so each minimum holds whatever the size of
// the other: the pair (min_non_persistent_bytes, min_persistent_bytes)
// works and one byte less of either fails.
#ifndef TFLM_ARENA_TFLM_SPLIT_ARENA_H_
#define TFLM_ARENA_TFLM_SPLIT_ARENA_H_

#include <cstdint>
#include <string>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/tflm/allocation_trace.h"
#include "tflm_arena/tflm/tflm_arena_size.h"

namespace tflm_arena {
namespace tflm {

struct TflmSplitArena {
  std::string target;
  std::string version;  // the stack version (stack_versions.h)
  std::string description;
  std::string planner;
  // This layout was run on a real build of the target: the 32-bit ARM
  // (cortex-m ABI) builds checked for one arena; other targets' two-buffer
  // figures are modelled only.
  bool checked = false;
  // Smallest size of each 16-byte aligned buffer.
  uint64_t min_persistent_bytes = 0;
  uint64_t min_non_persistent_bytes = 0;
  // The same build with one arena (ComputeTflmArenaSize), for comparison.
  uint64_t single_arena_bytes = 0;
  // What fails one byte below each minimum.
  std::string persistent_limited_by;
  std::string non_persistent_limited_by;
};

// The trace of a single-arena MicroAllocator turned into the two-buffer
// one: the SingleArenaBufferAllocator replaced by the two arena allocators
// of `abi`. kInvalidArgument for a RecordingMicroAllocator trace (it has no
// two-buffer Create).
Status SplitTrace(const Trace& single, const TargetAbi& abi, bool recording, Trace* out);

// kInvalidArgument when the target's application cannot create two buffers
// (the tflite-micro wheel, a RecordingMicroAllocator); else as
// ComputeTflmArenaSize.
Status ComputeTflmSplitArena(const model::Model& model, const TflmArenaOptions& options,
                             TflmSplitArena* out, Refusal* refusal = nullptr);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_SPLIT_ARENA_H_
