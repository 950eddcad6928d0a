// Internal to model/: small helpers over the flatc-generated accessors, for
// the code that runs before a model is trusted (the Verifier, the semantic
// checks of model_validate.cc) and host tools, so the public headers never
// expose generated types (null vectors = empty, null strings = ""). Model's
// accessors on a verified model read fields through table_reader.h.
#ifndef TFLM_ARENA_MODEL_SCHEMA_ACCESS_H_
#define TFLM_ARENA_MODEL_SCHEMA_ACCESS_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/table_reader.h"
#include "tflm_arena/model/tflite_subset_generated.h"

static_assert(FLATBUFFERS_LITTLEENDIAN,
              "spans over flatbuffer vectors assume a little-endian host");

namespace tflm_arena {
namespace model {
namespace internal {

namespace fb = ::tflm_arena::tflite;

inline const fb::Model* Root(const void* root) { return static_cast<const fb::Model*>(root); }

template <typename T>
inline size_t Size(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

template <typename T>
inline Span<const T> ToSpan(const flatbuffers::Vector<T>* v) {
  if (v == nullptr || v->empty()) return Span<const T>();
  return Span<const T>(v->data(), v->size());
}

inline const char* CStr(const flatbuffers::String* s) { return s == nullptr ? "" : s->c_str(); }

// The format's rules (table_reader.h) on generated tables.
inline BuiltinCode ResolveBuiltinCode(const fb::OperatorCode* code) {
  return ResolveBuiltinCode(code->deprecated_builtin_code(), code->builtin_code());
}
inline bool IsExternal(const fb::Buffer* b) { return IsExternalOffset(b->offset()); }

// Product of non-negative dims without overflow; false on overflow.
inline bool ElementCount(const flatbuffers::Vector<int32_t>* shape, uint64_t* count) {
  uint64_t n = 1;
  for (size_t i = 0; i < Size(shape); ++i) {
    if (shape->Get(i) == 0) {
      *count = 0;
      return true;
    }
  }
  for (size_t i = 0; i < Size(shape); ++i) {
    const uint64_t d = static_cast<uint64_t>(shape->Get(i));
    if (n > UINT64_MAX / d) return false;
    n *= d;
  }
  *count = n;
  return true;
}

// Semantic checks of a verified model (model_validate.cc). Fills the total
// tensor count over all subgraphs.
Status ValidateModel(const fb::Model* model, size_t size, size_t* total_tensors);

}  // namespace internal
}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_SCHEMA_ACCESS_H_
