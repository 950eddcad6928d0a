#include "tflm_arena/core/status.h"

#include <cstdarg>

#include "tflm_arena/core/enum_names.h"
#include "tflm_arena/core/format.h"

namespace tflm_arena {

namespace {

constexpr EnumName<StatusCode> kCodeNames[] = {
    {StatusCode::kOk, "OK"},
    {StatusCode::kInvalidArgument, "INVALID_ARGUMENT"},
    {StatusCode::kArenaTooSmall, "ARENA_TOO_SMALL"},
    {StatusCode::kOutOfRange, "OUT_OF_RANGE"},
    {StatusCode::kFailedPrecondition, "FAILED_PRECONDITION"},
    {StatusCode::kUnimplemented, "UNIMPLEMENTED"},
    {StatusCode::kInternal, "INTERNAL"},
};

}  // namespace

const char* StatusCodeName(StatusCode code) { return NameOf(kCodeNames, code, "UNKNOWN"); }

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
