// Tensor element types of the TFLite format and TFLM's element sizes.
// The enum mirrors the schema's TensorType (values fixed by the format;
// tensor_type.cc checks them against the generated code). A model may carry
// values outside the enum; they are kept as is and simply have no size.
#ifndef TFLM_ARENA_MODEL_TENSOR_TYPE_H_
#define TFLM_ARENA_MODEL_TENSOR_TYPE_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace model {

enum class TensorType : int8_t {
  kFloat32 = 0,
  kFloat16 = 1,
  kInt32 = 2,
  kUint8 = 3,
  kInt64 = 4,
  kString = 5,
  kBool = 6,
  kInt16 = 7,
  kComplex64 = 8,
  kInt8 = 9,
  kFloat64 = 10,
  kComplex128 = 11,
  kUint64 = 12,
  kResource = 13,
  kVariant = 14,
  kUint32 = 15,
  kUint16 = 16,
  kInt4 = 17,
  kBfloat16 = 18,
  kInt2 = 19,
  kUint4 = 20,
  kFloat8E4m3fn = 21,
  kFloat8E5m2 = 22,
};

// Schema name ("FLOAT32", "INT8", ...); "UNKNOWN" outside the enum.
const char* TensorTypeName(TensorType type) TFLM_ARENA_PURE;

// Bytes per element as TFLM counts them when sizing arena buffers
// (TFLM's memory_helpers.cc, TfLiteTypeSizeOf): 2 for float16/bfloat16/int16/uint16,
// 4 for float32/int32/uint32/resource, 8 for float64/int64/uint64/complex64,
// 16 for complex128, 1 for uint8/int8/bool/int4 (int4 is NOT packed).
// 0 for every other type (string, variant, int2, uint4, float8, unknown):
// TFLM refuses to size such tensors.
size_t ElementByteSize(TensorType type);

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_TENSOR_TYPE_H_
