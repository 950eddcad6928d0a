// The graph rewrite: finds the stage (stage.h), tries tilings of it
// (tiled_stage.h), writes each as a model (model/graph_edit_writer.h) and
// measures the whole arena stock TFLM needs for it on a build target
// (tflm/tflm_arena_size.h: head + tail with TFLM's own planner), and keeps
// the smallest. Every extra operator costs TFLM persistent bytes (node,
// OpData, per-channel arrays) and every tile recomputes its halo, so more
// tiles are not always better: the numbers decide. tiled_stage.h draws one
// tile, its halo, its border padding and where it lands in the
// concatenation.
// Host tool (standard library).
#ifndef TFLM_ARENA_REWRITE_REWRITE_H_
#define TFLM_ARENA_REWRITE_REWRITE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/core/status.h"
#include "tflm_arena/rewrite/stage.h"
#include "tflm_arena/rewrite/tiled_stage.h"

namespace tflm_arena {
namespace rewrite {

struct RewriteOptions {
  std::string target;  // a build target's name (tflm/build_targets.h)
  // Tilings tried: every cut of the stage with rows x cols in this list
  // (empty: DefaultTileShapes()). A forced single choice is a list of one
  // shape and `length` > 0.
  std::vector<std::pair<int32_t, int32_t>> shapes;
  int32_t length = 0;  // > 0: only this stage length
};

// One model measured on the target with TFLM's own planner.
struct Candidate {
  Tiling tiling;  // rows = cols = 1 and length 0: the original model
  // length > 0: a second stage, tiled after the first one's join (it starts
  // from the first stage's output, held whole, and ends `length` operators
  // later). Fewer, larger tiles where channels are many keep the extra
  // operators' persistent bytes down; more tiles where the image is large
  // keep the halos small.
  Tiling second;
  uint64_t head = 0, tail = 0, total = 0;  // total = TFLM's minimum arena
  int64_t macs = 0;                        // whole model
  uint64_t file_bytes = 0;                 // the .tflite's size (flash)
  int32_t operators = 0;
  std::string error;  // non-empty: this tiling could not be made or measured
};

struct RewriteResult {
  Stage stage;
  Candidate original;
  std::vector<Candidate> candidates;
  int32_t best = -1;  // index into candidates with the smallest total, -1: none smaller
};

// Row strips (r x 1) and near-square grids (r x c, |r - c| <= 1), up to
// kMaxTilesPerAxis per axis.
std::vector<std::pair<int32_t, int32_t>> DefaultTileShapes();

// Measures every tiling of one stage, then (with the default shapes) the
// best one's stage split in two at every earlier cut, each part with its
// own tiles (none when the stage has no cut: its end_reason
// says why). kFailedPrecondition when the rewrite refuses the model
// (FindStage's reasons).
Status SearchTilings(const uint8_t* data, size_t size, const RewriteOptions& options,
                     RewriteResult* out);

// The model with `tiling` applied (its bytes; align them to 16 before
// loading), and `second` after it when second.length > 0.
Status WriteTiling(const uint8_t* data, size_t size, const Tiling& tiling,
                   std::vector<uint8_t>* out);
Status WriteTilings(const uint8_t* data, size_t size, const Tiling& first, const Tiling& second,
                    std::vector<uint8_t>* out);

}  // namespace rewrite
}  // namespace tflm_arena

#endif  // TFLM_ARENA_REWRITE_REWRITE_H_
