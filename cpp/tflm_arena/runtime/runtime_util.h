// Small helpers shared by the runtime's .cc files (not part of the API).
#ifndef TFLM_ARENA_RUNTIME_RUNTIME_UTIL_H_
#define TFLM_ARENA_RUNTIME_RUNTIME_UTIL_H_

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace runtime {
namespace internal {

// `error` with "<prefix>: " in front of its message; code and needed_bytes()
// are kept. `error` must not be OK.
#if TFLM_ARENA_ERROR_STRINGS
Status Annotate(const Status& error, const char* format, ...) __attribute__((format(printf, 2, 3)));
#else
inline Status Annotate(const Status& error, const char* /*format*/, ...)
    __attribute__((format(printf, 2, 3), always_inline));
inline Status Annotate(const Status& error, const char* /*format*/, ...) {
  return error.ok() ? Status::Error(StatusCode::kInternal, "") : error;
}
#endif

// A tensor's name for a message ("" when absent or out of range); with
// messages stripped, no lookup at all.
#if TFLM_ARENA_ERROR_STRINGS
const char* TensorName(const model::Model& model, size_t subgraph, size_t tensor);
#else
inline const char* TensorName(const model::Model&, size_t, size_t) { return ""; }
#endif

// Enum name of a builtin code, "?" when it has none.
const char* OpName(model::BuiltinCode code) TFLM_ARENA_PURE;

}  // namespace internal
}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_RUNTIME_UTIL_H_
