#include "tflm_arena/plan/plan_text.h"

#include <cstdarg>
#include <cstring>

#include "tflm_arena/core/format.h"

namespace tflm_arena {
namespace plan_internal {
namespace {

// floor(value * kLineWidth / max_size) clamped to [0, kLineWidth]. Valid plans
// have 0 <= value <= max_size, where this is TFLM's formula exactly; the clamp
// only keeps nonsense input (negative or out-of-scale offsets) inside the row.
// Shift-and-add long division, so no intermediate can overflow.
int Column(int64_t value, int64_t max_size) {
  if (value <= 0 || max_size <= 0) return 0;
  if (value >= max_size) return kLineWidth;
  const uint64_t a = static_cast<uint64_t>(value);
  const uint64_t m = static_cast<uint64_t>(max_size);
  uint64_t rem = 0;  // invariant: rem < m <= 2^63, so rem * 2 and rem + a fit
  int quotient = 0;
  for (int bit = 6; bit >= 0; --bit) {  // kLineWidth = 80 < 2^7
    quotient *= 2;
    rem *= 2;
    if (rem >= m) {
      rem -= m;
      ++quotient;
    }
    if ((kLineWidth >> bit) & 1) {
      rem += a;
      if (rem >= m) {
        rem -= m;
        ++quotient;
      }
    }
  }
  return quotient;
}

}  // namespace

TextWriter::TextWriter(char* out, size_t capacity) : out_(out), capacity_(capacity) {
  if (out_ != nullptr && capacity_ > 0) out_[0] = '\0';
}

void TextWriter::Append(const char* text, size_t n) {
  if (out_ != nullptr && capacity_ > 0 && length_ < capacity_ - 1) {
    size_t room = capacity_ - 1 - length_;
    size_t copy = n < room ? n : room;
    std::memcpy(out_ + length_, text, copy);
    out_[length_ + copy] = '\0';
  }
  length_ += n;
}

void TextWriter::Printf(const char* format, ...) {
  char line[kMaxLineChars];
  va_list args;
  va_start(args, format);
  int n = FormatV(line, sizeof(line), format, args);
  va_end(args);
  if (n < 0) return;
  size_t len = static_cast<size_t>(n) < sizeof(line) ? static_cast<size_t>(n) : sizeof(line) - 1;
  Append(line, len);
}

char OrdinalChar(int64_t index) {
  int64_t i = index % 62;
  if (i < 0) i += 62;
  if (i < 10) return static_cast<char>('0' + i);
  if (i < 36) return static_cast<char>('a' + (i - 10));
  return static_cast<char>('A' + (i - 36));
}

char BufferChar(int64_t index, int64_t first_step, int64_t last_step) {
  return first_step == last_step ? '*' : OrdinalChar(index);
}

void AppendBufferLine(TextWriter* w, int64_t index, int64_t size, int64_t offset,
                      int64_t first_step, int64_t last_step) {
  w->Printf("%c (id=%lld): size=%lld, offset=%lld, first_used=%lld last_used=%lld\n",
            BufferChar(index, first_step, last_step), static_cast<long long>(index),
            static_cast<long long>(size), static_cast<long long>(offset),
            static_cast<long long>(first_step), static_cast<long long>(last_step));
}

void ClearRow(char line[kLineWidth]) { std::memset(line, '.', kLineWidth); }

void PaintRow(char line[kLineWidth], int64_t offset, int64_t size, int64_t max_size, char mark) {
  int64_t end;
  if (__builtin_add_overflow(offset, size, &end)) end = size > 0 ? INT64_MAX : INT64_MIN;
  const int start_col = Column(offset, max_size);
  const int end_col = Column(end, max_size);
  for (int c = start_col; c < end_col; ++c) line[c] = (line[c] == '.') ? mark : '!';
}

void AppendRow(TextWriter* w, int64_t step, const char line[kLineWidth], int64_t live_bytes) {
  // TFLM prints (bytes + 1023) / 1024; written so that it cannot overflow.
  const int64_t kib = live_bytes >= 0 ? live_bytes / 1024 + (live_bytes % 1024 != 0 ? 1 : 0)
                                      : (live_bytes + 1023) / 1024;
  w->Printf("%4lld: %.*s (%lldk)\n", static_cast<long long>(step), kLineWidth, line,
            static_cast<long long>(kib));
}

}  // namespace plan_internal
}  // namespace tflm_arena
