// SPLIT math (see split.h).
#include <cstring>

#include "tflm_arena/runtime/kernels/split.h"

namespace tflm_arena {
namespace runtime {

Status CheckSplitOutput(int32_t axis, int count, const int32_t* input_shape, int rank,
                        const int32_t* output_shape, int output_rank, int* positive_axis) {
  constexpr const char* kOp = "SPLIT";
  if (axis < -rank || axis >= rank) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: axis %d outside [%d, %d)", kOp, axis,
                         -rank, rank);
  }
  const int a = axis < 0 ? axis + rank : axis;
  if (input_shape[a] % count != 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: axis extent %d does not split into %d equal parts", kOp,
                         input_shape[a], count);
  }
  if (output_rank != rank) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: output rank %d, input rank %d", kOp,
                         output_rank, rank);
  }
  for (int d = 0; d < rank; ++d) {
    const int32_t want = d == a ? input_shape[d] / count : input_shape[d];
    if (output_shape[d] != want) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: output dimension %d is %d, needs %d",
                           kOp, d, output_shape[d], want);
    }
  }
  *positive_axis = a;
  return Status::Ok();
}

void SplitCopy(size_t outer, size_t part_bytes, int count, const uint8_t* input,
               uint8_t* const* outputs) {
  for (size_t k = 0; k < outer; ++k) {
    for (int i = 0; i < count; ++i) {
      std::memcpy(outputs[i] + k * part_bytes, input, part_bytes);
      input += part_bytes;
    }
  }
}

void SplitCopyParts(size_t outer, const size_t* part_bytes, int count, const uint8_t* input,
                    uint8_t* const* outputs) {
  for (size_t k = 0; k < outer; ++k) {
    for (int i = 0; i < count; ++i) {
      std::memcpy(outputs[i] + k * part_bytes[i], input, part_bytes[i]);
      input += part_bytes[i];
    }
  }
}

}  // namespace runtime
}  // namespace tflm_arena
