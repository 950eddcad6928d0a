// Host helper: the exact arena size a model needs with a given resolver and
// options (used by Python for arena_size=None, and to report the bytes
// needed when a given arena is too small). Host library
// (tflm_arena_runtime_host): uses the heap freely.
#ifndef TFLM_ARENA_RUNTIME_REQUIRED_ARENA_SIZE_H_
#define TFLM_ARENA_RUNTIME_REQUIRED_ARENA_SIZE_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/op_resolver.h"

namespace tflm_arena {
namespace runtime {

// A tensor the application will register with RegisterPreallocatedTensor().
struct Preallocation {
  int tensor_index = -1;      // subgraph 0
  uint8_t* buffer = nullptr;  // null: a 16-aligned stand-in of `bytes` is used
  size_t bytes = 0;
};

// Runs AllocateTensors() once in a generous heap arena (sized from the
// model's tensors and operators; grown and retried only if a model needs
// more) and returns required_arena_bytes() in *bytes: the smallest arena
// (16-aligned start) with which AllocateTensors() succeeds. That one run is
// exact because the allocation sequence does not depend on the arena size
// (interpreter.h). Kernels' init and prepare run; nothing is invoked. Errors
// other than kArenaTooSmall (missing kernel, bad preallocation, kernel
// failure, ...) are returned as they are.
Status RequiredArenaSize(const model::Model& model, const OpResolver& resolver,
                         const InterpreterOptions& options,
                         Span<const Preallocation> preallocations, size_t* bytes);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_REQUIRED_ARENA_SIZE_H_
