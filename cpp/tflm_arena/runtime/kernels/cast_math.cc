// CAST math (glue in cast.cc).
#include <cmath>
#include <cstdint>
#include <limits>

#include "tflm_arena/runtime/kernels/cast.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;

// float -> integer as the wheel computes it: truncation towards zero,
// saturated to the target's range, NaN -> 0 (measured on NaN, +-inf and
// out-of-range values for every integer target).
template <typename To>
To Convert(float v) {
  if (v != v) return 0;
  // The limits as floats: exact for 8 / 16 bits and INT32_MIN / 0; INT32_MAX
  // and UINT32_MAX round up to 2^31 / 2^32, which is where saturation
  // starts. In between the truncating cast is defined.
  constexpr float kMin = static_cast<float>(std::numeric_limits<To>::min());
  constexpr float kMax = static_cast<float>(std::numeric_limits<To>::max());
  if (v <= kMin) return std::numeric_limits<To>::min();
  if (v >= kMax) return std::numeric_limits<To>::max();
  return static_cast<To>(v);
}
template <>
float Convert<float>(float v) {
  return v;
}

// Integer / bool sources: wrap to the target (two's complement).
template <typename To, typename From>
To ConvertInt(From v) {
  return static_cast<To>(v);
}

template <typename From, typename To>
void Run(const From* in, To* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = ConvertInt<To>(in[i]);
}

template <typename To>
void Run(const float* in, To* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = Convert<To>(in[i]);
}

// BOOL: one byte per element; any non-zero byte reads as true (1).
struct BoolByte {
  uint8_t value;
};
template <typename To>
void Run(const BoolByte* in, To* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<To>(in[i].value != 0 ? 1 : 0);
}

template <typename From>
bool ToOutput(const From* in, TensorType out_type, void* out, size_t n) {
  switch (out_type) {
    case TensorType::kInt8:
      Run(in, static_cast<int8_t*>(out), n);
      return true;
    case TensorType::kInt16:
      Run(in, static_cast<int16_t*>(out), n);
      return true;
    case TensorType::kInt32:
      Run(in, static_cast<int32_t*>(out), n);
      return true;
    case TensorType::kUint32:
      Run(in, static_cast<uint32_t*>(out), n);
      return true;
    case TensorType::kFloat32:
      Run(in, static_cast<float*>(out), n);
      return true;
    default:
      return false;
  }
}

}  // namespace

bool CastInputSupported(TensorType type) {
  return type == TensorType::kInt8 || type == TensorType::kInt16 || type == TensorType::kInt32 ||
         type == TensorType::kUint32 || type == TensorType::kFloat32 || type == TensorType::kBool;
}

bool CastOutputSupported(TensorType type) {
  return type == TensorType::kInt8 || type == TensorType::kInt16 || type == TensorType::kInt32 ||
         type == TensorType::kUint32 || type == TensorType::kFloat32;
}

bool CastElements(TensorType in_type, const void* in, TensorType out_type, void* out, size_t n) {
  if (!CastOutputSupported(out_type)) return false;
  switch (in_type) {
    case TensorType::kInt8:
      return ToOutput(static_cast<const int8_t*>(in), out_type, out, n);
    case TensorType::kInt16:
      return ToOutput(static_cast<const int16_t*>(in), out_type, out, n);
    case TensorType::kInt32:
      return ToOutput(static_cast<const int32_t*>(in), out_type, out, n);
    case TensorType::kUint32:
      return ToOutput(static_cast<const uint32_t*>(in), out_type, out, n);
    case TensorType::kFloat32:
      return ToOutput(static_cast<const float*>(in), out_type, out, n);
    case TensorType::kBool:
      static_assert(sizeof(BoolByte) == 1, "one byte per BOOL element");
      return ToOutput(static_cast<const BoolByte*>(in), out_type, out, n);
    default:
      return false;
  }
}

}  // namespace runtime
}  // namespace tflm_arena
