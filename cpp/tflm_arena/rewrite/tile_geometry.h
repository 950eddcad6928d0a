// Spatial tiling arithmetic of the graph rewrite, on plain numbers: which
// rows and columns of every tensor of a stage one tile needs, and how much
// explicit padding each windowed operator needs at the image borders.
//
// An operator's window on one axis: output index o reads input indices
// [o * stride - pad_before, o * stride - pad_before + kernel) (TFLM's
// SAME / VALID arithmetic, dilation 1). Indices outside [0, input extent)
// are padding: TFLM's convolutions skip them, which equals reading the
// input's zero point (int8) or 0.0 (float32), exactly what a PAD operator
// writes there.
// Host tool (standard library).
#ifndef TFLM_ARENA_REWRITE_TILE_GEOMETRY_H_
#define TFLM_ARENA_REWRITE_TILE_GEOMETRY_H_

#include <cstdint>
#include <vector>

namespace tflm_arena {
namespace rewrite {

// Half-open index range [begin, end) on one axis; empty when end <= begin.
struct Range {
  int32_t begin = 0;
  int32_t end = 0;
  int32_t size() const { return end > begin ? end - begin : 0; }
  bool empty() const { return end <= begin; }
  bool operator==(const Range& o) const { return begin == o.begin && end == o.end; }
  bool operator!=(const Range& o) const { return !(*this == o); }
};

// Smallest range holding both (an empty range holds nothing).
Range Hull(Range a, Range b);
Range Intersect(Range a, Range b);

struct Window {
  int32_t kernel = 1;
  int32_t stride = 1;
  int32_t pad_before = 0;
};

// The input indices output range `out` reads, before clipping to the input.
Range InputRange(const Window& w, Range out);

// TFLM's padding before the first input index for SAME (kernel_shapes'
// arithmetic: total = max((out - 1) * stride + kernel - in, 0), half of it
// before, rounded down) and VALID (0), and the output extent.
int32_t SamePadBefore(int32_t in, int32_t kernel, int32_t stride);
int32_t SameOutput(int32_t in, int32_t stride);
int32_t ValidOutput(int32_t in, int32_t kernel, int32_t stride);

// `extent` split into `parts` consecutive ranges whose sizes differ by at
// most one (the larger ones first). Requires 1 <= parts <= extent.
std::vector<Range> SplitEvenly(int32_t extent, int32_t parts);

}  // namespace rewrite
}  // namespace tflm_arena

#endif  // TFLM_ARENA_REWRITE_TILE_GEOMETRY_H_
