// Pieces of TFLM's PrintMemoryPlan text, shared by the runtime planner (which
// writes into a caller buffer) and the host renderer (which builds a string).
//
// The text has two parts (TFLM's greedy_memory_planner.cc, PrintMemoryPlan):
//   per buffer, in index order:
//     "%c (id=%d): size=%d, offset=%d, first_used=%d last_used=%d"
//   per time step t = 0 .. max(0, max last_step):
//     "%4d: <80 columns> (%dk)"
// Columns scale bytes by max(80, max(offset + size)); a buffer live at t
// paints [offset*80/max, (offset+size)*80/max). A column painted twice shows
// '!', so the row does not depend on painting order. Each line ends in '\n'.
// No heap: everything works on caller buffers.
#ifndef TFLM_ARENA_PLAN_PLAN_TEXT_H_
#define TFLM_ARENA_PLAN_PLAN_TEXT_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace plan_internal {

constexpr int kLineWidth = 80;
// Longest line either formatter can produce (int64 fields), plus NUL.
constexpr size_t kMaxLineChars = 192;

// Appends to a caller buffer like repeated snprintf: always NUL-terminated,
// silently truncated, but length() counts everything that was appended.
class TextWriter {
 public:
  TextWriter(char* out, size_t capacity);
  void Append(const char* text, size_t n);
  void Printf(const char* format, ...) __attribute__((format(printf, 2, 3)));
  size_t length() const { return length_; }

 private:
  char* out_;
  size_t capacity_;
  size_t length_ = 0;
};

// Index character: 0-9, then a-z, then A-Z, wrapping every 62.
char OrdinalChar(int64_t index);
// The buffer's mark: '*' for one-step buffers (scratch / subgraph outputs).
char BufferChar(int64_t index, int64_t first_step, int64_t last_step);

void AppendBufferLine(TextWriter* w, int64_t index, int64_t size, int64_t offset,
                      int64_t first_step, int64_t last_step);

// Row painting: start with ClearRow, paint each buffer live at the row's step
// (skipping offset -1), then AppendRow with the live bytes.
void ClearRow(char line[kLineWidth]);
void PaintRow(char line[kLineWidth], int64_t offset, int64_t size, int64_t max_size, char mark);
void AppendRow(TextWriter* w, int64_t step, const char line[kLineWidth], int64_t live_bytes);

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_PLAN_TEXT_H_
