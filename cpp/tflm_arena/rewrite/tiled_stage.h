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
//
// A 2 x 2 tiling of one 3x3 convolution (stride 1, SAME) on an 8 x 8 input,
// and where tile T00 lands:
//
//          stage input, 8 x 8                      cut tensor, 8 x 8
//   column  -1 0           4   5       8         0           4           8
//   row -1   . . . . . . . . . . . . . .
//        0   . +-----------+---+-------+      0  +-----------+-----------+
//            . |           | h |       |         |           |           |
//            . |  T00 owns | a |       |         |    T00    |    T01    |
//            . |  [0,4) x  | l |       |  -->    |           |           |
//            . |  [0,4)    | o |       |         |           |           |
//        4   . +-----------+---+       |      4  +-----------+-----------+
//            . | halo row      |       |         |           |           |
//        5   . +---------------+       |         |    T10    |    T11    |
//            . |                       |         |           |           |
//        8   . +-----------------------+      8  +-----------+-----------+
//
//   T00's operators: SLICE rows [0, 5) and columns [0, 5) of the input, PAD
//   one row on top and one column on the left, CONV_2D (padding VALID).
//
// T00 owns output rows [0, 4) and columns [0, 4). Its 3x3 windows read one
// row and one column further, [0, 5) x [0, 5): that halo is real pixels of
// the neighbours' part, SLICEd with the tile. They also read one row and
// column before the image (the dots): PAD writes those, only on the image
// border (interior tiles get no PAD). The convolution then runs VALID and
// gives exactly T00's 4 x 4 outputs. T00 and T01 are joined along width,
// then the two rows of tiles along height, into the original cut tensor.
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
