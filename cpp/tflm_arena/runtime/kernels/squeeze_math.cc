// SQUEEZE prepare logic (see squeeze.h).
#include "tflm_arena/runtime/kernels/squeeze.h"

namespace tflm_arena {
namespace runtime {

Status CheckSqueezeDims(const SqueezeOptions& options, const int32_t* input_shape, int rank) {
  if (rank > kSqueezeMaxDims) {
    return Status::Error(StatusCode::kUnimplemented, "SQUEEZE: input rank %d, at most %d", rank,
                         kSqueezeMaxDims);
  }
  for (int i = 0; i < options.num_squeeze_dims; ++i) {
    const int32_t d = options.squeeze_dims[i];
    const int32_t current = d < 0 ? d + rank : d;
    if (current < 0 || current >= rank) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "SQUEEZE: squeeze_dims entry %d outside [%d, %d)", d, -rank, rank);
    }
    if (input_shape[current] != 1) {
      return Status::Error(StatusCode::kInvalidArgument, "SQUEEZE: dimension %d has size %d, not 1",
                           current, input_shape[current]);
    }
  }
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena
