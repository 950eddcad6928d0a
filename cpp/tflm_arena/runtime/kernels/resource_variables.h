// The resource variables VAR_HANDLE, ASSIGN_VARIABLE and READ_VARIABLE
// share (TFLM's MicroResourceVariables, micro_resource_variable.cc; the
// streaming state of wake-word models), held by the interpreter's
// KernelContext::resource_variables() slot.
//
// Facts reproduced:
//  - VAR_HANDLE's Prepare looks its (container, shared_name) up and adds it
//    when absent (an absent container matches any), then points its output
//    tensor at its OpData's id: that tensor is then not planned in the
//    head (TFLM plans only tensors whose data is still null);
//  - ASSIGN_VARIABLE's Prepare allocates the variable's buffer on first
//    use, persistent, of its value tensor's bytes, filled with the value's
//    zero point (as int8) when the value tensor is quantized, else 0;
//  - ASSIGN_VARIABLE copies its value into the buffer, READ_VARIABLE the
//    buffer into its output; Reset refills every buffer with its default.
//
// The table is created by the first VAR_HANDLE's init, in the tail, with
// room for as many variables as the model's VAR_HANDLE operators name
// (distinct container and shared_name pairs). We also
// refuse what TFLM would crash on or copy out of bounds: an absent
// shared_name, a read or an assignment whose size differs from the
// variable's, an id that names no variable.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_RESOURCE_VARIABLES_H_
#define TFLM_ARENA_RUNTIME_KERNELS_RESOURCE_VARIABLES_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernel_api.h"

namespace tflm_arena {
namespace runtime {

// 32 bytes on 64-bit (TFLM's MicroResourceVariable: 40).
struct ResourceVariable {
  const char* container = nullptr;  // into the model (NUL-terminated); null: absent
  const char* shared_name = nullptr;
  uint8_t* buffer = nullptr;  // tail, allocated by ASSIGN_VARIABLE's Prepare
  uint32_t bytes = 0;
  int8_t default_value = 0;
};

struct ResourceVariables {
  ResourceVariable* variables = nullptr;
  size_t count = 0;
  size_t capacity = 0;
};

// Init: the table, created on first use.
Status CreateResourceVariables(KernelContext& context, ResourceVariables** out);
// The table, or nullptr when no VAR_HANDLE created it.
ResourceVariables* GetResourceVariables(KernelContext& context);

// TFLM's CreateIdIfNoneFound (`container` null: absent, matches any).
Status FindOrAddResourceVariable(ResourceVariables* table, const char* container,
                                 const char* shared_name, int32_t* id);
// VAR_HANDLE's names from its options table: `container` null when absent,
// kInvalidArgument without a shared_name.
Status VarHandleNames(model::OptionsTable& table, const char** container, const char** shared_name);
// The variable `id` names; kInvalidArgument for an id that names none.
Status ResourceVariableAt(ResourceVariables* table, int32_t id, ResourceVariable** out);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_RESOURCE_VARIABLES_H_
