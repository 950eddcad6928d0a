// OpResolver: which kernel runs each operator (TFLM's MicroMutableOpResolver,
// without the heap): builtin operators by code, custom operators by name.
//
// The application registers the kernels its model needs, once, before
// building an Interpreter:
//
//   MutableOpResolver<3> resolver;
//   resolver.AddBuiltin(Register_FULLY_CONNECTED());
//   resolver.AddBuiltin(Register_SOFTMAX());
//   resolver.AddBuiltin(Register_QUANTIZE());
//
// The table is a fixed array of registration pointers inside the resolver
// object (capacity chosen at compile time), so the resolver costs
// N * sizeof(pointer) and never allocates. Lookup is a linear scan: resolvers
// hold a handful of kernels and lookups happen once per operator at
// allocation time, never during Invoke.
//
// Registrations are NOT copied: each must outlive every interpreter using the
// resolver (the kernels' Register_X() functions return statics).
#ifndef TFLM_ARENA_RUNTIME_OP_RESOLVER_H_
#define TFLM_ARENA_RUNTIME_OP_RESOLVER_H_

#include <cstddef>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernel_api.h"

namespace tflm_arena {
namespace runtime {

class OpResolver {
 public:
  OpResolver(const OpResolver&) = delete;
  OpResolver& operator=(const OpResolver&) = delete;

  // Adds a kernel for registration.builtin_code. Errors:
  //  - kInvalidArgument: no invoke function, a negative code, the CUSTOM code
  //    (custom kernels go through AddCustom), or a kernel for that code is
  //    already registered ("operator ADD (0) is already registered");
  //  - kOutOfRange: the table is full ("... holds at most N kernels").
  Status AddBuiltin(const KernelRegistration& registration);
  // Adds a custom operator's kernel (builtin_code CUSTOM, `name` its custom
  // code): kInvalidArgument for another code, an empty name, no invoke
  // function or a name already registered; kOutOfRange when full.
  Status AddCustom(const KernelRegistration& registration);

  // The kernel registered for `code`, or nullptr.
  const KernelRegistration* FindBuiltin(model::BuiltinCode code) const;
  // The kernel that runs operator `op`: by code, or for a custom operator
  // by its custom code; nullptr when none is registered.
  const KernelRegistration* Find(const model::OperatorInfo& op) const;

  size_t size() const { return count_; }
  size_t capacity() const { return capacity_; }

 protected:
  // `slots` is the derived class's table of `capacity` entries.
  OpResolver(const KernelRegistration** slots, size_t capacity)
      : slots_(slots), capacity_(capacity) {}
  ~OpResolver() = default;

 private:
  const KernelRegistration** slots_;
  size_t capacity_;
  size_t count_ = 0;
};

// kOk when `has_kernel(op, context)` holds for every operator of every
// subgraph; otherwise kUnimplemented naming EVERY distinct missing operator
// once, with its first operator index and how many use it, e.g. "no kernel
// for 2 operator types: SVDF (operator 1 of subgraph 0, 2 uses), custom
// 'ethos-u' (operator 0 of subgraph 0)". No heap: at most 16 distinct types
// are named, then "...".
Status CheckKernelsFor(const model::Model& model,
                       bool (*has_kernel)(const model::OperatorInfo& op, const void* context),
                       const void* context);

// CheckKernelsFor with `resolver.Find(op)` deciding.
Status CheckResolverHasKernels(const model::Model& model, const OpResolver& resolver);

// An OpResolver with room for N kernels. Not copyable or movable (the base
// points at the member table).
template <size_t N>
class MutableOpResolver : public OpResolver {
  static_assert(N > 0, "MutableOpResolver needs room for at least one kernel");

 public:
  MutableOpResolver() : OpResolver(table_, N) {}

 private:
  const KernelRegistration* table_[N] = {};
};

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_OP_RESOLVER_H_
