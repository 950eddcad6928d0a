// The operators TFLM's MicroMutableOpResolver can register: one Add* method
// each in micro_mutable_op_resolver.h (tflite-micro 90b983c2b, 2026-08-20),
// the set the tflite-micro wheel's resolver registers
// (python/tflite_micro/python_ops_resolver.cc calls every one). The stock-TFLM
// model sizes an operator of this list or refuses it with TFLM's reason; an
// operator outside it is TFLM's registration failure. This list is the one
// source: the Python resolver generator binds it (resolver.TFLM_BUILTINS).
#ifndef TFLM_ARENA_TFLM_REGISTERED_OPS_H_
#define TFLM_ARENA_TFLM_REGISTERED_OPS_H_

#include "tflm_arena/core/span.h"

namespace tflm_arena {
namespace tflm {

// Builtin operator names (schema BuiltinOperator_ names), sorted.
Span<const char* const> TflmRegisteredBuiltins();

// Custom operator codes registered by a method of their own (AddEthosU's
// "ethos-u", AddDetectionPostprocess's "TFLite_Detection_PostProcess", ...),
// in the header's order. Register_ETHOSU is null unless TFLM is built with
// the Ethos-U kernel, so "ethos-u" is then not registered after all.
Span<const char* const> TflmRegisteredCustomOps();

bool IsTflmRegisteredBuiltin(const char* name);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_REGISTERED_OPS_H_
