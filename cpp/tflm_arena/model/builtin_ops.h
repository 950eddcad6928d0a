// Builtin operator codes of the TFLite format, kept as plain int32 values,
// with one named constant per code and the codes' names, both from
// builtin_op_list.h. Names are for display and the op-resolver tooling (a
// model may carry codes newer than this table; they stay valid, they just
// have no name here).
#ifndef TFLM_ARENA_MODEL_BUILTIN_OPS_H_
#define TFLM_ARENA_MODEL_BUILTIN_OPS_H_

#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_op_list.h"

namespace tflm_arena {
namespace model {

using BuiltinCode = int32_t;

namespace internal {
// Position in the list = the format's value.
enum BuiltinIndex : BuiltinCode {
#define TFLM_ARENA_BUILTIN_INDEX(id, name) kIndex##id,
  TFLM_ARENA_BUILTIN_OPS(TFLM_ARENA_BUILTIN_INDEX)
#undef TFLM_ARENA_BUILTIN_INDEX
      kIndexCount
};
}  // namespace internal

// One constant per code of the format (kBuiltinAdd = 0, kBuiltinConv2D = 3,
// kBuiltinLeakyRelu = 98, ...). Kernels and tools use these, never literals.
#define TFLM_ARENA_BUILTIN_CONSTANT(id, name) \
  constexpr BuiltinCode kBuiltin##id = internal::kIndex##id;
TFLM_ARENA_BUILTIN_OPS(TFLM_ARENA_BUILTIN_CONSTANT)
#undef TFLM_ARENA_BUILTIN_CONSTANT

// Number of codes in the name table (codes 0 .. kNumNamedBuiltinCodes-1).
constexpr BuiltinCode kNumNamedBuiltinCodes = internal::kIndexCount;

// Writers put codes below kBuiltinPlaceholderForGreaterOpCodes into
// OperatorCode.deprecated_builtin_code too; codes at or above it only live in
// OperatorCode.builtin_code.

// Enum name of a builtin code (e.g. 3 -> "CONV_2D"); nullptr when the code
// is negative or newer than the table.
const char* BuiltinCodeName(BuiltinCode code) TFLM_ARENA_PURE;

// Inverse lookup (exact, case-sensitive); returns false when unknown.
bool BuiltinCodeFromName(const char* name, BuiltinCode* code);

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_BUILTIN_OPS_H_
