#include "tflm_arena/runtime/op_resolver.h"

#include <cinttypes>
#include <cstdarg>

#include "tflm_arena/core/c_string.h"
#include "tflm_arena/core/format.h"

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
                         registration.name == nullptr ? "" : registration.name, code);
  }
  if (code == model::kBuiltinCustom) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "kernel '%s': a custom operator's kernel is added with AddCustom",
                         registration.name == nullptr ? "" : registration.name);
  }
  if (registration.invoke == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "kernel for operator %s (%" PRId32 ") has no invoke function",
                         NameOf(code), code);
  }
  if (FindBuiltin(code) != nullptr) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "operator %s (%" PRId32 ") is already registered", NameOf(code), code);
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

Status OpResolver::AddCustom(const KernelRegistration& registration) {
  const char* name = registration.name == nullptr ? "" : registration.name;
  if (registration.builtin_code != model::kBuiltinCustom || name[0] == '\0') {
    return Status::Error(StatusCode::kInvalidArgument,
                         "kernel '%s': a custom kernel has the CUSTOM code and a name", name);
  }
  if (registration.invoke == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "kernel for custom operator '%s' has no invoke function", name);
  }
  model::OperatorInfo op;
  op.builtin_code = model::kBuiltinCustom;
  op.custom_code = name;
  if (Find(op) != nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "custom operator '%s' is already registered",
                         name);
  }
  if (count_ >= capacity_) {
    return Status::Error(StatusCode::kOutOfRange,
                         "cannot add custom operator '%s': the op resolver holds at most %zu "
                         "kernels",
                         name, capacity_);
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

const KernelRegistration* OpResolver::Find(const model::OperatorInfo& op) const {
  for (size_t i = 0; i < count_; ++i) {
    const KernelRegistration* r = slots_[i];
    if (r->builtin_code != op.builtin_code) continue;
    if (op.builtin_code != model::kBuiltinCustom || SameCString(r->name, op.custom_code)) {
      return r;
    }
  }
  return nullptr;
}

Status CheckResolverHasKernels(const model::Model& model, const OpResolver& resolver) {
  return CheckKernelsFor(
      model,
      [](const model::OperatorInfo& op, const void* r) {
        return static_cast<const OpResolver*>(r)->Find(op) != nullptr;
      },
      &resolver);
}

}  // namespace runtime
}  // namespace tflm_arena

namespace tflm_arena {
namespace runtime {
namespace {

#if TFLM_ARENA_ERROR_STRINGS
// One distinct missing operator type: a builtin code, or a custom name.
struct Missing {
  model::BuiltinCode code;
  const char* custom;  // "" for builtins
  size_t subgraph;
  size_t op;
  size_t uses;
};

bool SameType(const Missing& m, model::BuiltinCode code, const char* custom) {
  if (m.code != code) return false;
  return code != model::kBuiltinCustom || SameCString(m.custom, custom);
}

// Appends printf output at *used, never past `size` (snprintf contract).
void Append(char* out, size_t size, size_t* used, const char* format, ...)
    __attribute__((format(printf, 4, 5)));
void Append(char* out, size_t size, size_t* used, const char* format, ...) {
  if (*used >= size) return;
  va_list args;
  va_start(args, format);
  const int n = FormatV(out + *used, size - *used, format, args);
  va_end(args);
  if (n > 0) *used += static_cast<size_t>(n);
  if (*used >= size) *used = size - 1;
}
#endif

}  // namespace

Status CheckKernelsFor(const model::Model& model,
                       bool (*has_kernel)(const model::OperatorInfo&, const void*),
                       const void* context) {
#if !TFLM_ARENA_ERROR_STRINGS
  // No names to list: the first missing kernel decides.
  for (size_t sg = 0; sg < model.num_subgraphs(); ++sg) {
    for (size_t i = 0; i < model.num_operators(sg); ++i) {
      model::OperatorInfo op;
      TFLM_ARENA_RETURN_IF_ERROR(model.op(sg, i, &op));
      if (!has_kernel(op, context)) {
        return Status::Error(StatusCode::kUnimplemented, "no kernel");
      }
    }
  }
  return Status::Ok();
#else
  constexpr size_t kMaxNamed = 16;
  Missing missing[kMaxNamed];
  size_t distinct = 0;
  bool more = false;
  for (size_t sg = 0; sg < model.num_subgraphs(); ++sg) {
    for (size_t i = 0; i < model.num_operators(sg); ++i) {
      model::OperatorInfo op;
      TFLM_ARENA_RETURN_IF_ERROR(model.op(sg, i, &op));
      if (has_kernel(op, context)) continue;
      const bool custom = op.builtin_code == model::kBuiltinCustom;
      const char* name = custom ? op.custom_code : "";
      size_t k = 0;
      while (k < distinct && !SameType(missing[k], op.builtin_code, name)) ++k;
      if (k < distinct) {
        ++missing[k].uses;
      } else if (distinct < kMaxNamed) {
        missing[distinct++] = Missing{op.builtin_code, name, sg, i, 1};
      } else {
        more = true;
      }
    }
  }
  if (distinct == 0) return Status::Ok();
  char text[Status::kMaxMessage];
  size_t used = 0;
  Append(text, sizeof(text), &used, "no kernel for %zu%s operator type%s: ", distinct,
         more ? "+" : "", distinct == 1 && !more ? "" : "s");
  for (size_t k = 0; k < distinct; ++k) {
    const Missing& m = missing[k];
    if (m.code == model::kBuiltinCustom) {
      Append(text, sizeof(text), &used, "%scustom '%.64s'", k ? ", " : "", m.custom);
    } else {
      Append(text, sizeof(text), &used, "%s%s", k ? ", " : "", NameOf(m.code));
    }
    Append(text, sizeof(text), &used, " (operator %zu of subgraph %zu%s", m.op, m.subgraph,
           m.uses > 1 ? ", " : ")");
    if (m.uses > 1) Append(text, sizeof(text), &used, "%zu uses)", m.uses);
  }
  if (more) Append(text, sizeof(text), &used, ", ...");
  return Status::Error(StatusCode::kUnimplemented, "%s", text);
#endif
}

}  // namespace runtime
}  // namespace tflm_arena
