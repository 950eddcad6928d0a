// EXPAND_DIMS prepare logic (see expand_dims.h).
#include "tflm_arena/runtime/kernels/expand_dims.h"

namespace tflm_arena {
namespace runtime {

Status CheckExpandDims(int32_t axis, const int32_t* input_shape, int rank,
                       const int32_t* output_shape, int output_rank) {
  constexpr const char* kOp = "EXPAND_DIMS";
  const int64_t a = axis < 0 ? static_cast<int64_t>(rank) + 1 + axis : axis;
  if (a < 0 || a > rank) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: axis %d outside [%d, %d]", kOp, axis,
                         -rank - 1, rank);
  }
  if (output_rank != rank + 1) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: output rank %d, needs %d", kOp,
                         output_rank, rank + 1);
  }
  for (int i = 0; i < output_rank; ++i) {
    const int32_t want = i < a ? input_shape[i] : (i == a ? 1 : input_shape[i - 1]);
    if (output_shape[i] != want) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: output dimension %d is %d, needs %d",
                           kOp, i, output_shape[i], want);
    }
  }
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena
