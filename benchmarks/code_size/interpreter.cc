// Footprint program (TFLM's interpreter_memory_footprint): loads the model,
// builds our Interpreter with an op resolver, runs AllocateTensors and
// Invoke, and reads the status. Built as
//   footprint_framework         no kernel registered (no kernel code links;
//                               AllocateTensors reports the missing ADD);
//                               the model loads unverified, as in TFLM
//                               (Model::FromTrustedBuffer)
//   footprint_framework_verified  the same with Model::FromBuffer: the
//                               Verifier and semantic checks
//                               (-DTFLM_ARENA_FOOTPRINT_VERIFY)
//   footprint_kernel_<NAME>     the kernel <NAME> registered (builtin or
//                               custom: every kernel_list.h entry)
//                               (-DTFLM_ARENA_FOOTPRINT_KERNEL=<NAME>)
// Build only on Cortex-M; never run there.
#include "tflm_arena/runtime/interpreter.h"

#include <cstdint>

#include "footprint_model.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/op_resolver.h"
#ifdef TFLM_ARENA_FOOTPRINT_KERNEL
#include "tflm_arena/runtime/kernels/registrations.h"
#define TFLM_ARENA_FOOTPRINT_CAT(a, b) a##b
#define TFLM_ARENA_FOOTPRINT_REGISTER(name) TFLM_ARENA_FOOTPRINT_CAT(Register_, name)
#endif

namespace {
alignas(16) uint8_t g_arena[1024];  // TFLM's example uses 1024 bytes too
}  // namespace

int main() {
  using namespace tflm_arena;
  model::Model model;
#ifdef TFLM_ARENA_FOOTPRINT_VERIFY
  Status status = model::Model::FromBuffer(g_footprint_model, g_footprint_model_size, &model);
#else
  Status status =
      model::Model::FromTrustedBuffer(g_footprint_model, g_footprint_model_size, &model);
#endif
  if (!status.ok()) return 1;
  runtime::MutableOpResolver<6> resolver;  // capacity as in TFLM's example
#ifdef TFLM_ARENA_FOOTPRINT_KERNEL
  // A custom operator's kernel (the Signal ones) goes through AddCustom.
  const runtime::KernelRegistration& kernel =
      runtime::TFLM_ARENA_FOOTPRINT_REGISTER(TFLM_ARENA_FOOTPRINT_KERNEL)();
  status = kernel.builtin_code == model::kBuiltinCustom ? resolver.AddCustom(kernel)
                                                        : resolver.AddBuiltin(kernel);
  if (!status.ok()) return 2;
#endif
  runtime::Interpreter interpreter(model, resolver, g_arena, sizeof(g_arena));
  status = interpreter.AllocateTensors();
  if (status.ok()) status = interpreter.Invoke();
  // The message is part of what an application reads: keep it live.
  const char* volatile message = status.message();
  (void)message;
  return status.ok() ? 0 : 3;
}
