#include "tflm_arena/rewrite/tile_geometry.h"

#include <algorithm>

namespace tflm_arena {
namespace rewrite {

Range Hull(Range a, Range b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return {std::min(a.begin, b.begin), std::max(a.end, b.end)};
}

Range Intersect(Range a, Range b) {
  Range r{std::max(a.begin, b.begin), std::min(a.end, b.end)};
  return r.empty() ? Range{} : r;
}

Range InputRange(const Window& w, Range out) {
  if (out.empty()) return {};
  const int64_t first = int64_t{out.begin} * w.stride - w.pad_before;
  const int64_t last = int64_t{out.end - 1} * w.stride - w.pad_before + w.kernel;
  return {static_cast<int32_t>(first), static_cast<int32_t>(last)};
}

int32_t SameOutput(int32_t in, int32_t stride) {
  return static_cast<int32_t>((int64_t{in} + stride - 1) / stride);
}

int32_t ValidOutput(int32_t in, int32_t kernel, int32_t stride) {
  return in < kernel ? 0 : (in - kernel) / stride + 1;
}

int32_t SamePadBefore(int32_t in, int32_t kernel, int32_t stride) {
  const int64_t out = SameOutput(in, stride);
  const int64_t total = (out - 1) * stride + kernel - in;
  return total > 0 ? static_cast<int32_t>(total / 2) : 0;
}

std::vector<Range> SplitEvenly(int32_t extent, int32_t parts) {
  std::vector<Range> out;
  if (parts < 1 || parts > extent) return out;
  const int32_t base = extent / parts, extra = extent % parts;
  int32_t at = 0;
  for (int32_t i = 0; i < parts; ++i) {
    const int32_t n = base + (i < extra ? 1 : 0);
    out.push_back({at, at + n});
    at += n;
  }
  return out;
}

}  // namespace rewrite
}  // namespace tflm_arena
