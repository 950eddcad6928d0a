// GATHER math (see gather.h).
#include <cstring>

#include "tflm_arena/runtime/kernels/gather.h"

namespace tflm_arena {
namespace runtime {
namespace {
constexpr const char* kOp = "GATHER";
}  // namespace

Status PrepareGather(const GatherOptions& options, const int32_t* input_shape, int input_rank,
                     const int32_t* coords_shape, int coords_rank, const int32_t* output_shape,
                     int output_rank, GatherGeometry* g) {
  const int axis = options.axis < 0 ? options.axis + input_rank : options.axis;
  if (axis < 0 || axis >= input_rank) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: axis %d outside [%d, %d)", kOp,
                         options.axis, -input_rank, input_rank);
  }
  const int batch_dims =
      options.batch_dims < 0 ? options.batch_dims + coords_rank : options.batch_dims;
  if (batch_dims < 0 || batch_dims >= input_rank || batch_dims > axis || batch_dims > coords_rank) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: batch_dims %d must lie in [0, %d), be <= axis %d and <= the "
                         "positions' rank %d",
                         kOp, options.batch_dims, input_rank, axis, coords_rank);
  }
  GatherGeometry r;
  r.axis = axis;
  r.batch_dims = batch_dims;
  r.axis_size = input_shape[axis];
  for (int i = 0; i < batch_dims; ++i) {
    if (input_shape[i] != coords_shape[i]) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: batch dimension %d is %d in the input, %d in the positions", kOp, i,
                           input_shape[i], coords_shape[i]);
    }
    r.batch *= static_cast<size_t>(input_shape[i]);
  }
  for (int i = batch_dims; i < axis; ++i) r.outer *= static_cast<size_t>(input_shape[i]);
  for (int i = axis + 1; i < input_rank; ++i) r.inner *= static_cast<size_t>(input_shape[i]);
  for (int i = batch_dims; i < coords_rank; ++i) r.coords *= static_cast<size_t>(coords_shape[i]);
  // The gathered shape: input[:axis] + positions[batch_dims:] + input[axis+1:].
  int32_t want[2 * kGatherMaxRank];
  int n = 0;
  for (int i = 0; i < axis; ++i) want[n++] = input_shape[i];
  for (int i = batch_dims; i < coords_rank; ++i) want[n++] = coords_shape[i];
  for (int i = axis + 1; i < input_rank; ++i) want[n++] = input_shape[i];
  if (output_rank != n) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: output rank %d, the gather's %d", kOp,
                         output_rank, n);
  }
  for (int i = 0; i < n; ++i) {
    if (output_shape[i] != want[i]) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: output dimension %d is %d, the gather's %d", kOp, i,
                           output_shape[i], want[i]);
    }
  }
  *g = r;
  return Status::Ok();
}

Status CheckGatherPositions(const GatherGeometry& g, const int32_t* positions) {
  const size_t n = g.batch * g.coords;
  for (size_t i = 0; i < n; ++i) {
    if (positions[i] < 0 || positions[i] >= g.axis_size) {
      return Status::Error(StatusCode::kOutOfRange, "%s: position %d (entry %zu) outside [0, %d)",
                           kOp, positions[i], i, g.axis_size);
    }
  }
  return Status::Ok();
}

void GatherCopy(const GatherGeometry& g, size_t element_bytes, const uint8_t* input,
                const int32_t* positions, uint8_t* output) {
  const size_t run = g.inner * element_bytes;
  for (size_t b = 0; b < g.batch; ++b) {
    const int32_t* pos = positions + b * g.coords;
    for (size_t o = 0; o < g.outer; ++o) {
      const uint8_t* slab = input + (b * g.outer + o) * static_cast<size_t>(g.axis_size) * run;
      for (size_t c = 0; c < g.coords; ++c) {
        std::memcpy(output, slab + static_cast<size_t>(pos[c]) * run, run);
        output += run;
      }
    }
  }
}

}  // namespace runtime
}  // namespace tflm_arena
