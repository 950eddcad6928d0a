// Whether an application buffer may serve one more preallocated tensor:
// one buffer may serve two tensors only if they are never live at the same
// step (as a planner reuses memory), since the kernels write each tensor
// while the other is still read. Checked on the host before registering.
//
// Host code (standard library).
#ifndef TFLM_ARENA_RUNTIME_PREALLOCATION_SHARING_H_
#define TFLM_ARENA_RUNTIME_PREALLOCATION_SHARING_H_

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/required_arena_size.h"

namespace tflm_arena {
namespace runtime {

// Fails (kInvalidArgument) when `candidate`'s bytes overlap those of a
// buffer in `registered` for another tensor of subgraph 0 and the two
// tensors are live at a common step, or either has no planned lifetime
// (constant or never allocated: its bytes cannot be proven free). Message:
// "preallocated buffers of tensors 0 and 2 share memory while both tensors
// are live (steps (0, 1) and (1, 2)); give each its own array". Lifetimes
// are TFLM's, without kernel scratch (model/lifetimes.h). A model whose
// lifetimes cannot be computed fails with that error.
Status CheckPreallocationSharing(const model::Model& model, Span<const Preallocation> registered,
                                 const Preallocation& candidate);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_PREALLOCATION_SHARING_H_
