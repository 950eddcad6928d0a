// One tiling of a stage, as a graph edit (model/graph_edit_writer.h): the
// stage's first `length` operators are replaced, for each tile of the cut
// tensor (the output of operator length-1), by
//   SLICE of the stage input (the tile's rows and columns plus the halo its
//   receptive field needs),
//   for each stage operator, in the original order: SLICE of an input tile
//   that holds more than this operator reads (a branch that needs less
//   halo), PAD where the window crosses the image border (explicit padding
//   only there: interior tiles read real neighbours), then the operator on
//   the tile with the original weights and options (padding VALID),
// and the tiles are joined by CONCATENATION into the original cut tensor
// (along width per row of tiles, then along height), so every operator
// after the stage, and every output value, is unchanged.
// TFLM's CONCATENATION takes at most 10 inputs (concatenation.cc,
// kMaxInputNum), so rows and columns are each at most 10.
// Host tool (standard library).
#ifndef TFLM_ARENA_REWRITE_TILED_STAGE_H_
#define TFLM_ARENA_REWRITE_TILED_STAGE_H_

#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/graph_edit_writer.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/rewrite/stage.h"

namespace tflm_arena {
namespace rewrite {

constexpr int32_t kMaxTilesPerAxis = 10;

struct Tiling {
  int32_t length = 0;  // stage operators tiled (one of Stage::cuts)
  int32_t rows = 1;
  int32_t cols = 1;
};

struct TiledStage {
  model::GraphEdit edit;
  int64_t stage_macs = 0;  // the stage's convolutions, untiled
  int64_t tiled_macs = 0;  // the same convolutions over all tiles (halos recomputed)
  int32_t new_operators = 0;
};

// kInvalidArgument naming the fault for a tiling that does not fit the
// stage: a length that is not a cut, rows or columns below 1, above the
// cut tensor's height / width or above kMaxTilesPerAxis, or 1 x 1.
Status TileStage(const model::Model& m, const Stage& stage, const Tiling& tiling, TiledStage* out);

}  // namespace rewrite
}  // namespace tflm_arena

#endif  // TFLM_ARENA_REWRITE_TILED_STAGE_H_
