// CONCATENATION math (see concatenation.h).
#include <cstring>

#include "tflm_arena/runtime/kernels/concatenation.h"

namespace tflm_arena {
namespace runtime {

Status PrepareConcatenation(int32_t axis, const int32_t* const* input_shapes, int num_inputs,
                            const int32_t* output_shape, int rank, int* positive_axis) {
  constexpr const char* kOp = "CONCATENATION";
  if (axis < -rank || axis >= rank) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: axis %d outside [%d, %d)", kOp, axis,
                         -rank, rank);
  }
  const int a = axis < 0 ? axis + rank : axis;
  int64_t sum = 0;
  for (int i = 0; i < num_inputs; ++i) {
    for (int d = 0; d < rank; ++d) {
      if (d != a && input_shapes[i][d] != output_shape[d]) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "%s: input %d has extent %d on dimension %d, the output %d", kOp, i,
                             input_shapes[i][d], d, output_shape[d]);
      }
    }
    sum += input_shapes[i][a];
  }
  if (sum != output_shape[a]) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: inputs sum to %lld along axis %d, the output has %d", kOp,
                         static_cast<long long>(sum), a, output_shape[a]);
  }
  *positive_axis = a;
  return Status::Ok();
}

void ConcatenationCopy(int axis, const int32_t* const* input_shapes, const uint8_t* const* inputs,
                       int num_inputs, const int32_t* output_shape, int rank, size_t element_bytes,
                       uint8_t* output) {
  size_t outer = 1, inner = element_bytes;
  for (int d = 0; d < axis; ++d) outer *= static_cast<size_t>(output_shape[d]);
  for (int d = axis + 1; d < rank; ++d) inner *= static_cast<size_t>(output_shape[d]);
  // Each outer slice of the output is the inputs' slices one after another.
  for (size_t o = 0; o < outer; ++o) {
    for (int i = 0; i < num_inputs; ++i) {
      const size_t bytes = static_cast<size_t>(input_shapes[i][axis]) * inner;
      std::memcpy(output, inputs[i] + o * bytes, bytes);
      output += bytes;
    }
  }
}

}  // namespace runtime
}  // namespace tflm_arena
