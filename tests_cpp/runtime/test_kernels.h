// Test-only kernels for the runtime tests (the real kernels live in
// runtime/kernels/ and are tested there). Each exercises one part of the
// KernelContext contract. Configuration goes through TestKernelConfig
// (globals: the tests are single-threaded). No heap use in any callback, so
// the no-heap binary can run them.
#ifndef TFLM_ARENA_TESTS_CPP_RUNTIME_TEST_KERNELS_H_
#define TFLM_ARENA_TESTS_CPP_RUNTIME_TEST_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/runtime/kernel_api.h"

namespace tflm_arena {
namespace testing {

// Format codes used by the tests' models.
constexpr model::BuiltinCode kAddCode = model::kBuiltinAdd;
constexpr model::BuiltinCode kConvCode = model::kBuiltinConv2D;
constexpr model::BuiltinCode kFcCode = model::kBuiltinFullyConnected;
constexpr model::BuiltinCode kReshapeCode = model::kBuiltinReshape;
constexpr model::BuiltinCode kSoftmaxCode = model::kBuiltinSoftmax;
constexpr model::BuiltinCode kSvdfCode = model::kBuiltinSvdf;

struct TestKernelConfig {
  size_t scratch_bytes = 64;     // per request of ScratchKernel
  int scratch_requests = 1;      // requests per ScratchKernel node
  size_t persistent_bytes = 40;  // AllocatePersistentBuffer of PersistentKernel
  size_t temp_bytes = 100;       // AllocateTempBuffer of TempKernel
  bool fail_prepare = false;     // FailingKernel fails in prepare (else invoke)
  int reset_calls = 0;           // PersistentKernel reset count
  int invoke_calls = 0;          // all kernels' invoke count
  void* last_scratch = nullptr;  // ScratchKernel: first scratch pointer seen
};
TestKernelConfig& Config();  // reset with Config() = TestKernelConfig()

// Float32 elementwise sum of inputs 0 and 1 into output 0.
runtime::KernelRegistration AddKernel(model::BuiltinCode code = kAddCode);
// Copies input 0's bytes into output 0 (min of the two sizes).
runtime::KernelRegistration CopyKernel(model::BuiltinCode code = kReshapeCode);
// Copy, plus Config().scratch_requests scratch requests in prepare; invoke
// checks every scratch pointer is non-null and fills it.
runtime::KernelRegistration ScratchKernel(model::BuiltinCode code = kConvCode);
// Copy, plus a persistent buffer from init (node.user_data) whose first
// int32 counts invokes; reset zeroes it.
runtime::KernelRegistration PersistentKernel(model::BuiltinCode code = kFcCode);
// Copy, plus a temp buffer in prepare.
runtime::KernelRegistration TempKernel(model::BuiltinCode code = kSoftmaxCode);
// TFLM's SVDF (int8) scratch requests without the math: batch x
// num_filters and batch x num_units int32 buffers (input 0: [batch, ...],
// input 1: weights_feature [num_filters, ...], output 0: [batch, num_units]).
runtime::KernelRegistration SvdfScratchKernel(model::BuiltinCode code = kSvdfCode);
// Does nothing (for real models: we only test allocation there).
runtime::KernelRegistration NopKernel(model::BuiltinCode code);
// Fails in prepare or invoke (Config().fail_prepare).
runtime::KernelRegistration FailingKernel(model::BuiltinCode code);

// What PhaseProbeKernel observed: each forbidden / allowed call per phase.
struct PhaseProbe {
  bool init_persistent_ok = false;
  bool init_scratch_refused = false;
  bool init_temp_refused = false;
  bool prepare_persistent_ok = false;
  bool prepare_scratch_ok = false;
  bool prepare_temp_ok = false;
  bool prepare_get_scratch_null = false;
  bool invoke_persistent_refused = false;
  bool invoke_scratch_refused = false;
  bool invoke_temp_refused = false;
  bool invoke_get_scratch_ok = false;
  bool invoke_get_bad_index_null = false;
  bool reset_persistent_refused = false;
  bool tensor_lookup_ok = false;
  bool info_ok = false;
};
PhaseProbe& Probe();
runtime::KernelRegistration PhaseProbeKernel(model::BuiltinCode code);

}  // namespace testing
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TESTS_CPP_RUNTIME_TEST_KERNELS_H_
