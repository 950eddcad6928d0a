#include "tflm_arena/runtime/op_resolver.h"

#include <cinttypes>

namespace tflm_arena {
namespace runtime {
namespace {

const char* NameOf(model::BuiltinCode code) {
  const char* name = model::BuiltinCodeName(code);
  return name == nullptr ? "?" : name;
}

}  // namespace

Status OpResolver::AddBuiltin(const KernelRegistration& registration) {
  const model::BuiltinCode code = registration.builtin_code;
  if (code < 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "kernel '%s': builtin code %" PRId32 " is negative",
                         registration.name == nullptr ? "" : registration.name,
                         code);
  }
  if (code == model::kBuiltinCustom) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "kernel '%s': custom operators are not supported",
                         registration.name == nullptr ? "" : registration.name);
  }
  if (registration.invoke == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "kernel for operator %s (%" PRId32
                         ") has no invoke function",
                         NameOf(code), code);
  }
  if (FindBuiltin(code) != nullptr) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "operator %s (%" PRId32 ") is already registered",
                         NameOf(code), code);
  }
  if (count_ >= capacity_) {
    return Status::Error(StatusCode::kOutOfRange,
                         "cannot add operator %s (%" PRId32
                         "): the op resolver holds at most %zu kernels",
                         NameOf(code), code, capacity_);
  }
  slots_[count_++] = &registration;
  return Status::Ok();
}

const KernelRegistration* OpResolver::FindBuiltin(model::BuiltinCode code) const {
  for (size_t i = 0; i < count_; ++i) {
    if (slots_[i]->builtin_code == code) return slots_[i];
  }
  return nullptr;
}

}  // namespace runtime
}  // namespace tflm_arena
