#include "tflm_arena/runtime/runtime_util.h"

#include <cstdarg>

#include "tflm_arena/core/format.h"

namespace tflm_arena {
namespace runtime {
namespace internal {

#if TFLM_ARENA_ERROR_STRINGS
Status Annotate(const Status& error, const char* format, ...) {
  char prefix[Status::kMaxMessage];
  va_list args;
  va_start(args, format);
  FormatV(prefix, sizeof(prefix), format, args);
  va_end(args);
  const StatusCode code = error.ok() ? StatusCode::kInternal : error.code();  // never turn OK
  // Root cause first: a message cut at the buffer's end keeps it.
  Status out = Status::Error(code, "%s; %s", error.message(), prefix);
  out.set_needed_bytes(error.needed_bytes());
  return out;
}
const char* TensorName(const model::Model& model, size_t subgraph, size_t tensor) {
  model::TensorInfo info;
  return model.tensor(subgraph, tensor, &info).ok() ? info.name : "";
}
#endif  // TFLM_ARENA_ERROR_STRINGS

const char* OpName(model::BuiltinCode code) {
  const char* name = model::BuiltinCodeName(code);
  return name == nullptr ? "?" : name;
}

}  // namespace internal
}  // namespace runtime
}  // namespace tflm_arena
