#include "tflm_arena/runtime/kernels/tensor_checks.h"

#include <cmath>
#include <limits>

#include "tflm_arena/core/format.h"
#include "tflm_arena/runtime/kernels/quant_util.h"

namespace tflm_arena {
namespace runtime {
namespace {

void ZeroPointRange(model::TensorType type, int64_t* lo, int64_t* hi) {
  switch (type) {
    case model::TensorType::kInt8:
      *lo = -128;
      *hi = 127;
      return;
    case model::TensorType::kUint8:
      *lo = 0;
      *hi = 255;
      return;
    case model::TensorType::kInt16:
      *lo = -32768;
      *hi = 32767;
      return;
    default:  // int32 and anything else: what fits the kernels' int32 fields
      *lo = std::numeric_limits<int32_t>::min();
      *hi = std::numeric_limits<int32_t>::max();
      return;
  }
}

}  // namespace

Status CheckQuantization(const char* op, const char* role, const model::TensorInfo& t) {
  const size_t n = t.scale.size();
  if (n == 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: %s tensor '%s' of type %s has no quantization parameters", op, role,
                         t.name, model::TensorTypeName(t.type));
  }
  if (t.zero_point.size() != n) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: %s tensor '%s' has %zu scales but %zu zero points", op, role, t.name,
                         n, t.zero_point.size());
  }
  if (n > 1 &&
      (t.quantized_dimension < 0 || static_cast<size_t>(t.quantized_dimension) >= t.shape.size())) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: %s tensor '%s' has quantized_dimension %d outside its rank %zu", op,
                         role, t.name, static_cast<int>(t.quantized_dimension), t.shape.size());
  }
  for (size_t i = 0; i < n; ++i) {
    const float s = t.scale[i];
    if (!(std::isfinite(s) && s > 0.0f)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: %s tensor '%s' scale[%zu] = %g must be finite and > 0", op, role,
                           t.name, i, static_cast<double>(s));
    }
  }
  int64_t lo = 0, hi = 0;
  ZeroPointRange(t.type, &lo, &hi);
  for (size_t i = 0; i < n; ++i) {
    const int64_t zp = t.zero_point[i];
    if (zp < lo || zp > hi) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: %s tensor '%s' zero_point[%zu] = %lld is outside [%lld, %lld] "
                           "for %s",
                           op, role, t.name, i, static_cast<long long>(zp),
                           static_cast<long long>(lo), static_cast<long long>(hi),
                           model::TensorTypeName(t.type));
    }
  }
  return Status::Ok();
}

Status RequireZeroPointZero(const char* op, const char* role, const model::TensorInfo& t) {
  for (size_t i = 0; i < t.zero_point.size(); ++i) {
    if (t.zero_point[i] != 0) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: %s tensor '%s' of type %s needs zero point 0, has %lld", op, role,
                           t.name, model::TensorTypeName(t.type),
                           static_cast<long long>(t.zero_point[i]));
    }
  }
  return Status::Ok();
}

Status CheckedQuantizeMultiplier(const char* op, const char* what, double real, int32_t* multiplier,
                                 int* shift) {
  if (!(std::isfinite(real) && real >= 0.0)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: %s multiplier %g must be finite and >= 0 (check the scales)", op,
                         what, real);
  }
  int s = 0;
  QuantizeMultiplier(real, multiplier, &s);
  if (s > kMaxMultiplierShift) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: %s multiplier %g is too large (shift %d > %d; check the scales)", op,
                         what, real, s, kMaxMultiplierShift);
  }
  *shift = s;
  return Status::Ok();
}

Status RequireWritableOutput(const char* op, const model::TensorInfo& output) {
  if (output.has_constant_data || output.uses_external_buffer) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output tensor '%s' is a constant (has buffer data)", op, output.name);
  }
  return Status::Ok();
}

bool SameShape(Span<const int32_t> a, Span<const int32_t> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

const char* FormatShape(Span<const int32_t> shape, char* buffer, size_t size) {
  if (size == 0) return buffer;
#if !TFLM_ARENA_ERROR_STRINGS
  // Only messages use the text: keep the formatter out of release builds.
  (void)shape;
  buffer[0] = '\0';
  return buffer;
#else
  size_t used = 0;
  buffer[0] = '\0';
  for (size_t i = 0; i <= shape.size() && used < size; ++i) {
    int w = 0;
    if (i == shape.size()) {
      w = Format(buffer + used, size - used, "]");
    } else {
      w = Format(buffer + used, size - used, "%s%d", i == 0 ? "[" : ", ",
                 static_cast<int>(shape[i]));
    }
    if (w < 0) break;
    used += static_cast<size_t>(w);
  }
  if (shape.empty()) Format(buffer, size, "[]");
  return buffer;
#endif
}

int64_t SafeElementCount(const int32_t* dims, size_t rank) {
  for (size_t i = 0; i < rank; ++i) {
    if (dims[i] <= 0) return 0;
  }
  int64_t n = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (n > std::numeric_limits<int64_t>::max() / dims[i]) {
      return std::numeric_limits<int64_t>::max();
    }
    n *= dims[i];
  }
  return n;
}

}  // namespace runtime
}  // namespace tflm_arena
