// KernelContext glue shared by the Signal kernels (TFLM's audio front-end
// operators, custom operators "Signal*"): the node's tensor count, each
// tensor's type and rank as the kernel's Prepare checks them, its custom
// options, and the invoke-time lookup.
//
// TFLM's Signal kernels check types and ranks only; the sizes they index
// with (a filter bank's channel tables, an energy range, an FFT length) are
// trusted. Ours also check every size against the tensors in Prepare, so a
// model that would make TFLM read or write outside a tensor is a named
// error here.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_GLUE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_GLUE_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/flexbuffer_map.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"  // RequireSameElementCount

namespace tflm_arena {
namespace runtime {

// Prepare: exactly `inputs` inputs and `outputs` outputs, none omitted.
inline Status SignalNodeCounts(const Node& node, const char* op, size_t inputs, size_t outputs) {
  if (node.inputs.size() != inputs || node.outputs.size() != outputs) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: needs %zu inputs and %zu outputs, got %zu and %zu", op, inputs,
                         outputs, node.inputs.size(), node.outputs.size());
  }
  for (int32_t t : node.inputs) {
    if (t < 0) return Status::Error(StatusCode::kInvalidArgument, "%s: an input is omitted", op);
  }
  for (int32_t t : node.outputs) {
    if (t < 0) return Status::Error(StatusCode::kInvalidArgument, "%s: an output is omitted", op);
  }
  return Status::Ok();
}

// Prepare: input (or output) `i` has `type` and, when `rank` >= 0, that
// rank (rank -1: any rank of at least 1); outputs are writable.
inline Status SignalTensorInfo(const KernelContext& context, const Node& node, const char* op,
                               bool output, size_t i, model::TensorType type, int rank,
                               model::TensorInfo* info) {
  TFLM_ARENA_RETURN_IF_ERROR(output ? context.output_info(node, i, info)
                                    : context.input_info(node, i, info));
  const char* role = output ? "output" : "input";
  if (info->type != type) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: %s %zu is %s; it must be %s", op, role,
                         i, model::TensorTypeName(info->type), model::TensorTypeName(type));
  }
  const size_t r = info->shape.size();
  if ((rank >= 0 && r != static_cast<size_t>(rank)) || (rank < 0 && r < 1)) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: %s %zu has rank %zu; it must be %s", op,
                         role, i, r,
                         rank == 1  ? "1"
                         : rank < 0 ? "at least 1"
                                    : "0");
  }
  if (output) TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(op, *info));
  return Status::Ok();
}

// Init: the node's custom options as a flexbuffer map.
inline Status SignalOptions(const KernelContext& context, const Node& node, const char* op,
                            model::FlexbufferMap* map) {
  Span<const uint8_t> bytes;
  TFLM_ARENA_RETURN_IF_ERROR(context.custom_options(node, &bytes));
  return model::FlexbufferMap::Parse(op, bytes, map);
}

// Prepare: `value` of `what` lies in [lo, hi].
inline Status SignalRange(const char* op, const char* what, int64_t value, int64_t lo, int64_t hi) {
  if (value < lo || value > hi) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: %s is %lld; it must be in [%lld, %lld]",
                         op, what, static_cast<long long>(value), static_cast<long long>(lo),
                         static_cast<long long>(hi));
  }
  return Status::Ok();
}

// The kernel's OpData, or nullptr when init did not run.
template <typename OpData>
OpData* SignalData(const Node& node) {
  return static_cast<OpData*>(node.user_data);
}

// A custom kernel's registration (builtin code CUSTOM, `name` its custom
// code); `reset` for kernels with state.
constexpr KernelRegistration MakeCustomRegistration(
    const char* name, Status (*init)(KernelContext&, Node&),
    Status (*prepare)(KernelContext&, Node&), Status (*invoke)(KernelContext&, Node&),
    void (*reset)(KernelContext&, Node&) = nullptr) {
  return KernelRegistration{model::kBuiltinCustom, name, init, prepare, invoke, reset,
                            OptionsParser()};
}

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_GLUE_H_
