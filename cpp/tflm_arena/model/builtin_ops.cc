// Name table of the format's BuiltinOperator enum (builtin_op_list.h).
#include "tflm_arena/model/builtin_ops.h"

#include <cstring>

namespace tflm_arena {
namespace model {
namespace {

constexpr const char* kNames[] = {
#define TFLM_ARENA_BUILTIN_NAME(id, name) name,
    TFLM_ARENA_BUILTIN_OPS(TFLM_ARENA_BUILTIN_NAME)
#undef TFLM_ARENA_BUILTIN_NAME
};
static_assert(sizeof(kNames) / sizeof(kNames[0]) == kNumNamedBuiltinCodes,
              "name table and kNumNamedBuiltinCodes disagree");
// Spot checks of the list's order against the format.
static_assert(kBuiltinConv2D == 3 && kBuiltinFullyConnected == 9 && kBuiltinCustom == 32 &&
                  kBuiltinLeakyRelu == 98 && kBuiltinQuantize == 114 && kBuiltinIf == 118 &&
                  kBuiltinPlaceholderForGreaterOpCodes == 127 && kBuiltinCallOnce == 129 &&
                  kNumNamedBuiltinCodes == 210,
              "builtin_op_list.h is out of order");

}  // namespace

const char* BuiltinCodeName(BuiltinCode code) {
  if (code < 0 || code >= kNumNamedBuiltinCodes) return nullptr;
  return kNames[code];
}

bool BuiltinCodeFromName(const char* name, BuiltinCode* code) {
  if (name == nullptr) return false;
  for (BuiltinCode i = 0; i < kNumNamedBuiltinCodes; ++i) {
    if (std::strcmp(kNames[i], name) == 0) {
      *code = i;
      return true;
    }
  }
  return false;
}

}  // namespace model
}  // namespace tflm_arena
