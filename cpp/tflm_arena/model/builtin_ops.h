// Builtin operator codes of the TFLite format, kept as plain int32 values.
// The reader never needs the full enum: only the control-flow codes change
// how lifetimes are computed. Names are for display and the op-resolver
// tooling (a model may carry codes newer than this table; they stay valid,
// they just have no name here).
#ifndef TFLM_ARENA_MODEL_BUILTIN_OPS_H_
#define TFLM_ARENA_MODEL_BUILTIN_OPS_H_

#include <cstdint>

namespace tflm_arena {
namespace model {

using BuiltinCode = int32_t;

// Codes this project acts on (values fixed by the format; builtin_ops.cc
// checks each against the name table). Kernels use these, never literals.
constexpr BuiltinCode kBuiltinAdd = 0;
constexpr BuiltinCode kBuiltinAveragePool2D = 1;
constexpr BuiltinCode kBuiltinConv2D = 3;
constexpr BuiltinCode kBuiltinDepthwiseConv2D = 4;
constexpr BuiltinCode kBuiltinDequantize = 6;
constexpr BuiltinCode kBuiltinFullyConnected = 9;
constexpr BuiltinCode kBuiltinMaxPool2D = 17;
constexpr BuiltinCode kBuiltinReshape = 22;
constexpr BuiltinCode kBuiltinSoftmax = 25;
constexpr BuiltinCode kBuiltinCustom = 32;
constexpr BuiltinCode kBuiltinLeakyRelu = 98;
constexpr BuiltinCode kBuiltinQuantize = 114;
constexpr BuiltinCode kBuiltinIf = 118;
constexpr BuiltinCode kBuiltinWhile = 119;
// Writers put codes below this value into OperatorCode.deprecated_builtin_code
// too; codes at or above it only live in OperatorCode.builtin_code.
constexpr BuiltinCode kBuiltinPlaceholderForGreaterOpCodes = 127;
constexpr BuiltinCode kBuiltinCallOnce = 129;

// Number of codes in the name table (codes 0 .. kNumNamedBuiltinCodes-1).
constexpr BuiltinCode kNumNamedBuiltinCodes = 210;

// Enum name of a builtin code (e.g. 3 -> "CONV_2D"); nullptr when the code
// is negative or newer than the table.
const char* BuiltinCodeName(BuiltinCode code);

// Inverse lookup (exact, case-sensitive); returns false when unknown.
bool BuiltinCodeFromName(const char* name, BuiltinCode* code);

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_BUILTIN_OPS_H_
