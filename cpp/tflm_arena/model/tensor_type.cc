#include "tflm_arena/model/tensor_type.h"

#include "tflm_arena/model/tflite_subset_generated.h"

namespace tflm_arena {
namespace model {
namespace {

namespace fb = ::tflm_arena::tflite;

// Our enum must track the schema's; a drift here would silently mis-size.
constexpr bool Same(TensorType ours, fb::TensorType schema) {
  return static_cast<int>(ours) == static_cast<int>(schema);
}
static_assert(Same(TensorType::kFloat32, fb::TensorType::FLOAT32), "");
static_assert(Same(TensorType::kFloat16, fb::TensorType::FLOAT16), "");
static_assert(Same(TensorType::kInt32, fb::TensorType::INT32), "");
static_assert(Same(TensorType::kUint8, fb::TensorType::UINT8), "");
static_assert(Same(TensorType::kInt64, fb::TensorType::INT64), "");
static_assert(Same(TensorType::kString, fb::TensorType::STRING), "");
static_assert(Same(TensorType::kBool, fb::TensorType::BOOL), "");
static_assert(Same(TensorType::kInt16, fb::TensorType::INT16), "");
static_assert(Same(TensorType::kComplex64, fb::TensorType::COMPLEX64), "");
static_assert(Same(TensorType::kInt8, fb::TensorType::INT8), "");
static_assert(Same(TensorType::kFloat64, fb::TensorType::FLOAT64), "");
static_assert(Same(TensorType::kComplex128, fb::TensorType::COMPLEX128), "");
static_assert(Same(TensorType::kUint64, fb::TensorType::UINT64), "");
static_assert(Same(TensorType::kResource, fb::TensorType::RESOURCE), "");
static_assert(Same(TensorType::kVariant, fb::TensorType::VARIANT), "");
static_assert(Same(TensorType::kUint32, fb::TensorType::UINT32), "");
static_assert(Same(TensorType::kUint16, fb::TensorType::UINT16), "");
static_assert(Same(TensorType::kInt4, fb::TensorType::INT4), "");
static_assert(Same(TensorType::kBfloat16, fb::TensorType::BFLOAT16), "");
static_assert(Same(TensorType::kInt2, fb::TensorType::INT2), "");
static_assert(Same(TensorType::kUint4, fb::TensorType::UINT4), "");
static_assert(Same(TensorType::kFloat8E4m3fn,
                   fb::TensorType::FLOAT8_E4M3FN), "");
static_assert(Same(TensorType::kFloat8E5m2, fb::TensorType::FLOAT8_E5M2), "");
// ... and list every type of the schema (a new one must be added here).
static_assert(Same(TensorType::kFloat8E5m2, fb::TensorType::MAX),
              "tflite_subset.fbs has a TensorType this enum lacks");

}  // namespace

const char* TensorTypeName(TensorType type) {
  const int v = static_cast<int>(type);
  if (v < static_cast<int>(fb::TensorType::MIN) ||
      v > static_cast<int>(fb::TensorType::MAX)) {
    return "UNKNOWN";
  }
  return fb::EnumNameTensorType(static_cast<fb::TensorType>(v));
}

size_t ElementByteSize(TensorType type) {
  switch (type) {
    case TensorType::kUint8:
    case TensorType::kInt8:
    case TensorType::kBool:
    case TensorType::kInt4:  // one byte per element in TFLM's arena
      return 1;
    case TensorType::kFloat16:
    case TensorType::kBfloat16:
    case TensorType::kInt16:
    case TensorType::kUint16:
      return 2;
    case TensorType::kFloat32:
    case TensorType::kInt32:
    case TensorType::kUint32:
    case TensorType::kResource:
      return 4;
    case TensorType::kFloat64:
    case TensorType::kInt64:
    case TensorType::kUint64:
    case TensorType::kComplex64:
      return 8;
    case TensorType::kComplex128:
      return 16;
    default:
      return 0;
  }
}

}  // namespace model
}  // namespace tflm_arena
