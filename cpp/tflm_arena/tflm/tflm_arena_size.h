// The arena stock TFLM needs for a model, without running TFLM:
// the allocation trace (allocation_trace.h) replayed (arena_replay.h) on
// candidate sizes until the smallest that succeeds is found.
//
// min_arena_bytes is the smallest size of a 16-byte aligned buffer with
// which AllocateTensors succeeds (then input/output access and Invoke
// allocate nothing more). Any integer: TFLM aligns its tail pointer down
// inside the buffer, so it is often 8 below a multiple of 16.
// Success is monotonic in the size for every trace (more bytes never make
// an allocation fail), so a binary search finds it; the search also checks
// the 32 sizes below.
#ifndef TFLM_ARENA_TFLM_TFLM_ARENA_SIZE_H_
#define TFLM_ARENA_TFLM_TFLM_ARENA_SIZE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/tflm/allocation_trace.h"
#include "tflm_arena/tflm/arena_replay.h"
#include "tflm_arena/tflm/build_targets.h"

namespace tflm_arena {
namespace tflm {

struct TflmArenaOptions {
  std::string target = DefaultBuildTarget().name;  // "TARGET" or "TARGET@VERSION"
  // RecordingMicroAllocator (true) or MicroAllocator (false); unset: the
  // allocator the target's application creates (build_targets.h).
  std::optional<bool> recording;
  std::string planner = "tflm_greedy";  // "tflm_greedy" or "linear"
  // The application's MicroResourceVariables (TraceOptions): how many (-1:
  // the tflite-micro wheel's rule, one per distinct VAR_HANDLE shared_name)
  // and whether their object and array live in this arena.
  int32_t resource_variables = -1;
  bool resource_variables_in_arena = true;
};

struct TflmArenaSize {
  std::string target;       // the build target's name
  std::string version;      // the stack version's name (stack_versions.h)
  std::string versions;     // the TFLM release and kernel library, in words
  std::string description;  // what that build is, in one line, versions included
  bool recording = false;   // the allocator the figures are for
  std::string planner;
  uint64_t min_arena_bytes = 0;
  uint64_t min_arena_bytes_16 = 0;  // smallest multiple of 16 that works
  uint64_t head = 0;                // at min_arena_bytes
  uint64_t tail = 0;
  uint64_t temp_peak = 0;
  CategoryFigures categories[kNumCategories];
  size_t planned_buffers = 0;
  size_t scratch_requests = 0;
  // What fails one byte below the minimum, e.g. "memory planner scratch".
  std::string limited_by;
  // The MicroResourceVariables the figures assume (TraceOptions).
  uint32_t resource_variables = 0;
  bool resource_variables_in_arena = true;
  // The decompression memory region that would take every DECODE output
  // out of the arena (custom_kernels.h); the figures above are without one.
  uint64_t decompression_region_bytes = 0;
  // A Vela model's separate fast scratch (custom_kernels.h), 0 when none.
  uint64_t ethos_u_fast_scratch_bytes = 0;
};

// The target a request names, resolved, and the model's allocation trace
// for that build (what ComputeTflmArenaSize replays). Errors as
// ComputeTflmArenaSize's.
Status BuildTargetTrace(const model::Model& model, const TflmArenaOptions& options,
                        ResolvedTarget* resolved, Trace* trace, Refusal* refusal = nullptr);

// The smallest size of `buffer` with which `trace` replays without failure
// (grow until it works, bisect, then check the 32 sizes below also fail).
// kInternal when nothing up to 2^40 bytes works or the trace is not
// monotonic.
Status SmallestWorkingSize(const Trace& trace, ReplayBuffer buffer, uint64_t* out);

// What fails in `trace` on `bytes` of `buffer`: "" when it works, else the
// failing event, e.g. "OpData (operator 3, CONV_2D)".
std::string FailingEvent(const Trace& trace, uint64_t bytes, ReplayBuffer buffer);

// kFailedPrecondition when stock TFLM refuses the model at every arena
// size; *refusal (when given) then says which operator and why.
Status ComputeTflmArenaSize(const model::Model& model, const TflmArenaOptions& options,
                            TflmArenaSize* out, Refusal* refusal = nullptr);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_TFLM_ARENA_SIZE_H_
