// Conventions every kernel shares (TFLM's kernel_util.h role):
//  - OpData: a typed struct, value-initialised by placement-new in
//    persistent memory at init (InitOpData<T>), set as node.user_data;
//  - one "not prepared" error (NodeNotPrepared) for a node whose init or
//    prepare did not run or whose tensors have no memory at invoke;
//  - per-tensor quantization as TFLM's TfLiteTensor::params sees it
//    (TensorScale / TensorZeroPoint).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_KERNEL_UTIL_H_
#define TFLM_ARENA_RUNTIME_KERNELS_KERNEL_UTIL_H_

#include <cstdint>
#include <new>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernel_api.h"

namespace tflm_arena {
namespace runtime {

// init: a value-initialised OpData in persistent memory, set as user_data.
// OpData must be trivially destructible (the arena never runs destructors).
template <typename OpData>
Status InitOpData(KernelContext& context, Node& node) {
  void* memory = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(sizeof(OpData), &memory));
  node.user_data = new (memory) OpData();
  return Status::Ok();
}

// Decodes options struct T: `read` fills a value-initialised T from the
// table, which is then placement-new'd into `out` (the arena tail).
template <typename T, void (*read)(model::OptionsTable&, T&)>
Status ReadOptionsInto(model::OptionsTable& table, void* out) {
  T options{};
  read(table, options);
  new (out) T(options);
  return Status::Ok();
}

// The OptionsParser of T for union member `table_type` when reading cannot
// fail: `read` sets T's fields from the table by field id.
template <typename T, void (*read)(model::OptionsTable&, T&)>
constexpr OptionsParser OptionsReader(model::OptionsType table_type) {
  return MakeOptionsParser<T>(table_type, ReadOptionsInto<T, read>);
}

// A kernel's registration in one expression: no kernel here has a reset;
// `init` is nullptr when TFLM's kernel asks for no memory; `options` is left
// out when the operator reads no builtin options.
constexpr KernelRegistration MakeRegistration(model::BuiltinCode code, const char* name,
                                              Status (*init)(KernelContext&, Node&),
                                              Status (*prepare)(KernelContext&, Node&),
                                              Status (*invoke)(KernelContext&, Node&),
                                              OptionsParser options = OptionsParser()) {
  return KernelRegistration{code, name, init, prepare, invoke, nullptr, options};
}

// kFailedPrecondition "<op>: node not prepared".
inline Status NodeNotPrepared(const char* op) {
  return Status::Error(StatusCode::kFailedPrecondition, "%s: node not prepared", op);
}

// The first scale / zero point, or 0 when the tensor has none.
inline float TensorScale(const model::TensorInfo& t) { return t.scale.empty() ? 0.0f : t.scale[0]; }
inline int32_t TensorZeroPoint(const model::TensorInfo& t) {
  return t.zero_point.empty() ? 0 : static_cast<int32_t>(t.zero_point[0]);
}

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_KERNEL_UTIL_H_
