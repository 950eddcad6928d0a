// Status: an error code plus a fixed-size message, returned by value.
// Context added on the way up goes AFTER the root cause ("cause; context"),
// so a message cut at the buffer's end still says what went wrong.
// Runtime code cannot throw or allocate, so errors travel as values end to end;
// the Python layer turns them into exceptions with the message intact.
#ifndef TFLM_ARENA_CORE_STATUS_H_
#define TFLM_ARENA_CORE_STATUS_H_

#include <cstddef>
#include <cstdint>

// Message buffer size. A device build keeps the default; host builds (CMake
// sets 1024) have room for a whole chain of context, so nothing is cut.
#ifndef TFLM_ARENA_STATUS_MESSAGE_BYTES
#define TFLM_ARENA_STATUS_MESSAGE_BYTES 240
#endif

// TFLM_ARENA_STRIP_ERROR_STRINGS (CMake option of that name; TFLM's release
// build has TF_LITE_STRIP_ERROR_STRINGS): Status carries only its code and
// needed_bytes(), message() is the code's name, and Error()/TooSmall() are
// inline and ignore their format arguments, so no message text, no
// formatter and no name table links into the program. Every check still
// runs and fails with the same code.
#ifdef TFLM_ARENA_STRIP_ERROR_STRINGS
#define TFLM_ARENA_ERROR_STRINGS 0
#else
#define TFLM_ARENA_ERROR_STRINGS 1
#endif

// For helpers that only compute message text (names of codes, types, ...):
// with the strings stripped, a call whose result goes unused is dropped.
#define TFLM_ARENA_PURE __attribute__((pure))

namespace tflm_arena {

enum class StatusCode : uint8_t {
  kOk = 0,
  kInvalidArgument,     // bad user input (model bytes, sizes, lifetimes, ...)
  kArenaTooSmall,       // not enough arena; needed_bytes() says how much
  kOutOfRange,          // index outside a table
  kFailedPrecondition,  // call made in the wrong state
  kUnimplemented,       // valid input we do not support (yet)
  kInternal,            // a bug in tflm_arena
};

const char* StatusCodeName(StatusCode code) TFLM_ARENA_PURE;

class Status {
 public:
  static constexpr size_t kMaxMessage =
      TFLM_ARENA_ERROR_STRINGS ? TFLM_ARENA_STATUS_MESSAGE_BYTES : 1;

#if TFLM_ARENA_ERROR_STRINGS
  // OK. Only the terminator is written: zero-filling the whole buffer cost
  // every successful call (each kernel invoke returns one) a 1 KiB memset.
  Status() { message_[0] = '\0'; }
  // printf-style message; truncated to kMaxMessage-1 characters.
  static Status Error(StatusCode code, const char* format, ...)
      __attribute__((format(printf, 2, 3)));
  // Arena too small: carries the total bytes that would have sufficed
  // (0 when unknown).
  static Status TooSmall(size_t needed_bytes, const char* format, ...)
      __attribute__((format(printf, 2, 3)));
  const char* message() const { return message_; }
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  size_t needed_bytes() const { return needed_bytes_; }
  void set_needed_bytes(size_t n) { needed_bytes_ = n; }

 private:
  StatusCode code_ = StatusCode::kOk;
  size_t needed_bytes_ = 0;
  char message_[kMaxMessage];  // NUL-terminated; bytes after it unused
#else
  // One machine word, so a Status comes back in a register: code values
  // below kTooSmallBase are the code; kTooSmallBase + n is kArenaTooSmall
  // needing n bytes. (Eight bytes went back through memory on 32-bit ARM,
  // which cost about 1.5 KB of flash over the framework's call sites.)
  Status() = default;
  static Status Error(StatusCode code, const char* /*format*/, ...)
      __attribute__((format(printf, 2, 3), always_inline)) {
    Status s;
    s.word_ = static_cast<size_t>(code);
    return s;
  }
  static Status TooSmall(size_t needed_bytes, const char* /*format*/, ...)
      __attribute__((format(printf, 2, 3), always_inline)) {
    Status s;
    s.word_ = static_cast<size_t>(StatusCode::kArenaTooSmall);
    s.set_needed_bytes(needed_bytes);
    return s;
  }
  const char* message() const { return StatusCodeName(code()); }
  static Status Ok() { return Status(); }

  bool ok() const { return word_ == 0; }
  StatusCode code() const {
    return word_ < kTooSmallBase ? static_cast<StatusCode>(word_) : StatusCode::kArenaTooSmall;
  }
  size_t needed_bytes() const { return word_ < kTooSmallBase ? 0 : word_ - kTooSmallBase; }
  // Kept with kArenaTooSmall only (the default build keeps it with any
  // code); a count too large for the word becomes 0, "unknown".
  void set_needed_bytes(size_t n) {
    if (code() != StatusCode::kArenaTooSmall) return;
    word_ = n == 0 || n > SIZE_MAX - kTooSmallBase ? static_cast<size_t>(StatusCode::kArenaTooSmall)
                                                   : kTooSmallBase + n;
  }

 private:
  static constexpr size_t kTooSmallBase = 8;  // above every StatusCode
  size_t word_ = 0;
#endif
};

}  // namespace tflm_arena

// Propagates a non-OK status to the caller.
#define TFLM_ARENA_RETURN_IF_ERROR(expr)                     \
  do {                                                       \
    ::tflm_arena::Status _tflm_arena_status = (expr);        \
    if (!_tflm_arena_status.ok()) return _tflm_arena_status; \
  } while (0)

#endif  // TFLM_ARENA_CORE_STATUS_H_
