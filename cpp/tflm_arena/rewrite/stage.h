// The stage the graph rewrite tiles: the longest run of subgraph 0's
// operators, starting at the model's input (or at a given operator and
// tensor, FindStageFrom), made of operators whose every
// output pixel depends on a bounded window of input pixels and that the
// rewrite knows how to run on a tile with stock TFLM kernels:
//
//  - CONV_2D, DEPTHWISE_CONV_2D (dilation 1; border padding becomes an
//    explicit PAD, the tile runs VALID);
//  - AVERAGE_POOL_2D, MAX_POOL_2D when their padding is zero on every side
//    (TFLM's average pool divides by the in-image count at borders and its
//    max pool ignores padding, which no PAD reproduces);
//  - PAD (spatial paddings only);
//  - pointwise operators: ADD, SUB, MUL, MAXIMUM, MINIMUM of two stage tensors
//    of the output's shape or a stage tensor and a constant that is
//    broadcast over height and width; RELU, RELU6, RELU_N1_TO_1,
//    RELU_0_TO_1, LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU, ABS, NEG,
//    QUANTIZE, DEQUANTIZE.
//
// Every activation tensor is [1, H, W, C], int8 or float32. The first
// operator that breaks a rule ends the stage; `end_reason` names it. A cut
// is a point where the stage may end: everything the rest of the model
// reads from the stage is the cut's output (and possibly the whole input).
// Host tool (standard library).
#ifndef TFLM_ARENA_REWRITE_STAGE_H_
#define TFLM_ARENA_REWRITE_STAGE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/graph_edit_writer.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/rewrite/tile_geometry.h"

namespace tflm_arena {
namespace rewrite {

enum class StageOpKind : uint8_t { kConv, kDepthwise, kPool, kPad, kPointwise };

struct Dims {
  int32_t h = 0, w = 0, c = 0;
};

struct StageOp {
  int32_t op = 0;  // original operator index (= position in the stage)
  model::BuiltinCode code = 0;
  StageOpKind kind = StageOpKind::kPointwise;
  std::vector<int32_t> inputs;  // the original inputs
  // Which of `inputs` are stage activations (the rest are constants or -1).
  std::vector<bool> is_activation;
  int32_t output = 0;
  Window h, w;  // on the activation input; identity for pointwise operators
  // The options table a tile operator gets (every field the format defines
  // for it, with padding VALID for convolutions and pooling).
  uint8_t options_type = 0;
  std::vector<model::OptionField> options;
  int64_t macs_per_output_pixel = 0;  // convolutions: kernel * channels
};

// Largest height, width, channel count, kernel or padding a stage may have
// (2^24): every window sum and product of the tile arithmetic then fits
// int32 (tile_geometry.h), whatever a hostile model claims.
constexpr int32_t kMaxStageExtent = int32_t{1} << 24;

// a * b and a + b, clamped to int64's range: MAC counts of shapes a model
// may claim (a [0, 2^31-1, 2^31-1, 2^31-1] constant filter is valid).
inline int64_t MulSat(int64_t a, int64_t b) {
  int64_t r = 0;
  if (!__builtin_mul_overflow(a, b, &r)) return r;
  return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
}
inline int64_t AddSat(int64_t a, int64_t b) {
  int64_t r = 0;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b < 0 ? INT64_MIN : INT64_MAX;
}

struct Stage {
  int32_t start_op = 0;          // the stage's first operator
  int32_t input = -1;            // the tensor it starts from (held whole)
  std::vector<StageOp> ops;      // the prefix, in order
  std::vector<int32_t> cuts;     // stage lengths (1..ops.size()) that may end the stage
  std::map<int32_t, Dims> dims;  // every stage activation tensor
  std::string end_reason;        // why ops.size() operators and not more
};

// Finds the stage of subgraph 0: empty, with the reason in `end_reason`,
// for a model that is not one image in (several inputs, an input that is
// not [1, H, W, C] int8 / float32). kFailedPrecondition (with the reason)
// for a model the rewrite refuses: control flow, an offline plan.
Status FindStage(const model::Model& m, Stage* out);

// The stage that starts at operator `start_op` from tensor `input` (held
// whole), e.g. after the join of an earlier tiled stage. kInvalidArgument
// when `input` is not [1, H, W, C] int8 / float32 or start_op is out of
// range; the refusals of FindStage.
Status FindStageFrom(const model::Model& m, int32_t start_op, int32_t input, Stage* out);

// MACs of every CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED of subgraph 0
// (output elements times the kernel's reduction length).
int64_t ModelMacs(const model::Model& m);

}  // namespace rewrite
}  // namespace tflm_arena

#endif  // TFLM_ARENA_REWRITE_STAGE_H_
