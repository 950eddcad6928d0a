// Registration functions, one per area, each in register_<area>.cpp.
#ifndef TFLM_ARENA_BINDINGS_REGISTER_H_
#define TFLM_ARENA_BINDINGS_REGISTER_H_

#include <pybind11/pybind11.h>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace bindings {

void RegisterErrors(pybind11::module_& m);
void RegisterPlan(pybind11::module_& m);

// Raises the Python exception matching the status code (no-op when OK):
// kInvalidArgument/kOutOfRange -> ValueError, kArenaTooSmall ->
// ArenaTooSmallError (with .needed_bytes), anything else -> RuntimeError.
void ThrowIfError(const Status& status);

}  // namespace bindings
}  // namespace tflm_arena

#endif  // TFLM_ARENA_BINDINGS_REGISTER_H_
