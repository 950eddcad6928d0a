// PACK / UNPACK math (see pack.h).
#include <cstring>

#include "tflm_arena/runtime/kernels/pack.h"

namespace tflm_arena {
namespace runtime {

Status CheckStackedShape(const char* op, int32_t axis, int32_t count, const int32_t* piece_shape,
                         int piece_rank, const int32_t* stacked_shape, int stacked_rank,
                         int* positive_axis) {
  if (stacked_rank != piece_rank + 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: the stacked tensor has rank %d, the pieces %d (needs one more)", op,
                         stacked_rank, piece_rank);
  }
  if (axis < -stacked_rank || axis >= stacked_rank) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: axis %d outside [%d, %d)", op, axis,
                         -stacked_rank, stacked_rank);
  }
  const int a = axis < 0 ? axis + stacked_rank : axis;
  for (int i = 0; i < stacked_rank; ++i) {
    const int32_t want = i < a ? piece_shape[i] : (i == a ? count : piece_shape[i - 1]);
    if (stacked_shape[i] != want) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: stacked dimension %d is %d, needs %d",
                           op, i, stacked_shape[i], want);
    }
  }
  *positive_axis = a;
  return Status::Ok();
}

void StackCopy(size_t outer, size_t inner, int count, const uint8_t* const* pieces,
               uint8_t* stacked) {
  for (size_t k = 0; k < outer; ++k) {
    for (int i = 0; i < count; ++i) {
      std::memcpy(stacked, pieces[i] + k * inner, inner);
      stacked += inner;
    }
  }
}

void UnstackCopy(size_t outer, size_t inner, int count, const uint8_t* stacked,
                 uint8_t* const* pieces) {
  for (size_t k = 0; k < outer; ++k) {
    for (int i = 0; i < count; ++i) {
      std::memcpy(pieces[i] + k * inner, stacked, inner);
      stacked += inner;
    }
  }
}

}  // namespace runtime
}  // namespace tflm_arena
