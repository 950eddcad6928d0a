// CAST: elementwise static_cast between tensor types, as TFLM's reference
// kernel (cast.cc): inputs INT8, INT16, INT32, UINT32, FLOAT32, BOOL;
// outputs INT8, INT16, INT32, UINT32, FLOAT32. Values are converted as
// stored (no quantization is applied, as TFLM).
//
// Facts reproduced: integer narrowing wraps (two's complement); BOOL reads
// as 0 / 1 (any non-zero byte is true); integer -> float rounds to nearest;
// float -> integer truncates towards zero and, as the tflite_micro wheel
// does (measured; a plain static_cast would be undefined there), saturates
// to the target's range with NaN -> 0.
//
// Memory: none (TFLM's CAST has no init); no scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_CAST_H_
#define TFLM_ARENA_RUNTIME_KERNELS_CAST_H_

#include <cstddef>

#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace runtime {

// CAST's builtin options (CastOptions; read, not used, as in TFLM).
struct CastOptions {
  model::TensorType in_data_type = model::TensorType::kFloat32;
  model::TensorType out_data_type = model::TensorType::kFloat32;
};

bool CastInputSupported(model::TensorType type);
bool CastOutputSupported(model::TensorType type);

// Converts `n` elements of `in_type` at `in` into `out_type` at `out`;
// false when a type is not supported (nothing written).
bool CastElements(model::TensorType in_type, const void* in, model::TensorType out_type, void* out,
                  size_t n);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_CAST_H_
