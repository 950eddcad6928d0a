#include "test_kernels.h"

#include <cstring>

namespace tflm_arena {
namespace testing {
namespace {

using runtime::EvalTensor;
using runtime::KernelContext;
using runtime::KernelRegistration;
using runtime::Node;

constexpr int kMaxProbeScratch = 16;

size_t Bytes(const EvalTensor* t) {
  return static_cast<size_t>(t->num_elements()) * model::ElementByteSize(t->type);
}

Status Fail(const char* what) {
  return Status::Error(StatusCode::kInternal, "test kernel: %s", what);
}

Status CopyInvoke(KernelContext& context, Node& node) {
  ++Config().invoke_calls;
  EvalTensor* in = context.input(node, 0);
  EvalTensor* out = context.output(node, 0);
  if (in == nullptr || out == nullptr) return Fail("missing input or output");
  if (in->data == nullptr || out->data == nullptr) return Fail("null data");
  const size_t n = Bytes(in) < Bytes(out) ? Bytes(in) : Bytes(out);
  memmove(out->data, in->data, n);
  return Status::Ok();
}

Status AddInvoke(KernelContext& context, Node& node) {
  ++Config().invoke_calls;
  EvalTensor* a = context.input(node, 0);
  EvalTensor* b = context.input(node, 1);
  EvalTensor* out = context.output(node, 0);
  if (a == nullptr || b == nullptr || out == nullptr) return Fail("missing tensor");
  const int64_t n = out->num_elements();
  for (int64_t i = 0; i < n; ++i) {
    out->as<float>()[i] = a->as<float>()[i] + b->as<float>()[i];
  }
  return Status::Ok();
}

// Scratch indices are kept in a persistent int array from init.
Status ScratchInit(KernelContext& context, Node& node) {
  return context.AllocatePersistentBuffer(sizeof(int) * kMaxProbeScratch, &node.user_data);
}
Status ScratchPrepare(KernelContext& context, Node& node) {
  int* idx = static_cast<int*>(node.user_data);
  for (int r = 0; r < Config().scratch_requests; ++r) {
    TFLM_ARENA_RETURN_IF_ERROR(context.RequestScratchBufferInArena(
        Config().scratch_bytes, &idx[r < kMaxProbeScratch ? r : 0]));
  }
  return Status::Ok();
}
Status ScratchInvoke(KernelContext& context, Node& node) {
  const int* idx = static_cast<const int*>(node.user_data);
  for (int r = 0; r < Config().scratch_requests && r < kMaxProbeScratch; ++r) {
    void* p = context.GetScratchBuffer(idx[r]);
    if (p == nullptr) return Fail("null scratch buffer");
    if (Config().last_scratch == nullptr) Config().last_scratch = p;
    memset(p, 0x5a, Config().scratch_bytes);
  }
  return CopyInvoke(context, node);
}

Status PersistentInit(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(
      context.AllocatePersistentBuffer(Config().persistent_bytes, &node.user_data));
  if (Config().persistent_bytes >= sizeof(int32_t)) {
    *static_cast<int32_t*>(node.user_data) = 0;
  }
  return Status::Ok();
}
Status PersistentInvoke(KernelContext& context, Node& node) {
  if (Config().persistent_bytes >= sizeof(int32_t)) {
    ++*static_cast<int32_t*>(node.user_data);
  }
  return CopyInvoke(context, node);
}
void PersistentReset(KernelContext&, Node& node) {
  ++Config().reset_calls;
  if (node.user_data != nullptr && Config().persistent_bytes >= sizeof(int32_t)) {
    *static_cast<int32_t*>(node.user_data) = 0;
  }
}

Status TempPrepare(KernelContext& context, Node&) {
  uint8_t* p = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(context.AllocateTempBuffer(Config().temp_bytes, 16, &p));
  memset(p, 1, Config().temp_bytes);
  return Status::Ok();
}

Status SvdfPrepare(KernelContext& context, Node& node) {
  const EvalTensor* in = context.input(node, 0);
  const EvalTensor* weights = context.input(node, 1);
  const EvalTensor* out = context.output(node, 0);
  if (in == nullptr || weights == nullptr || out == nullptr) return Fail("svdf tensors");
  const size_t batch = static_cast<size_t>(in->dim(0));
  int ignored = 0;
  TFLM_ARENA_RETURN_IF_ERROR(context.RequestScratchBufferInArena(
      batch * static_cast<size_t>(weights->dim(0)) * 4, &ignored));
  return context.RequestScratchBufferInArena(batch * static_cast<size_t>(out->dim(1)) * 4,
                                             &ignored);
}

Status NopInvoke(KernelContext&, Node&) {
  ++Config().invoke_calls;
  return Status::Ok();
}

Status FailPrepare(KernelContext&, Node&) {
  return Config().fail_prepare ? Fail("prepare failed on purpose") : Status::Ok();
}
Status FailInvoke(KernelContext&, Node&) { return Fail("invoke failed on purpose"); }

// ---- phase probe ----
Status ProbeInit(KernelContext& context, Node& node) {
  PhaseProbe& p = Probe();
  p.init_persistent_ok = context.AllocatePersistentBuffer(sizeof(int), &node.user_data).ok();
  int idx = 0;
  p.init_scratch_refused =
      context.RequestScratchBufferInArena(16, &idx).code() == StatusCode::kFailedPrecondition &&
      idx == -1;
  uint8_t* t = nullptr;
  p.init_temp_refused =
      context.AllocateTempBuffer(16, 16, &t).code() == StatusCode::kFailedPrecondition &&
      t == nullptr;
  return Status::Ok();
}
Status ProbePrepare(KernelContext& context, Node& node) {
  PhaseProbe& p = Probe();
  void* q = nullptr;
  p.prepare_persistent_ok = context.AllocatePersistentBuffer(8, &q).ok() && q != nullptr;
  int* idx = static_cast<int*>(node.user_data);
  p.prepare_scratch_ok = context.RequestScratchBufferInArena(32, idx).ok() && *idx >= 0;
  uint8_t* t = nullptr;
  p.prepare_temp_ok = context.AllocateTempBuffer(24, 8, &t).ok() && t != nullptr;
  p.prepare_get_scratch_null = context.GetScratchBuffer(*idx) == nullptr;
  model::TensorInfo info;
  p.info_ok = context.input_info(node, 0, &info).ok() && context.output_info(node, 0, &info).ok() &&
              !context.input_info(node, 99, &info).ok() &&
              !context.tensor_info(node, -1, &info).ok();
  p.tensor_lookup_ok = context.input(node, 0) == context.tensor(node.inputs[0]) &&
                       context.input(node, 99) == nullptr && context.tensor(-1) == nullptr &&
                       context.tensor(100000) == nullptr;
  return Status::Ok();
}
Status ProbeInvoke(KernelContext& context, Node& node) {
  PhaseProbe& p = Probe();
  void* q = nullptr;
  p.invoke_persistent_refused =
      context.AllocatePersistentBuffer(8, &q).code() == StatusCode::kFailedPrecondition;
  int idx = 0;
  p.invoke_scratch_refused =
      context.RequestScratchBufferInArena(8, &idx).code() == StatusCode::kFailedPrecondition;
  uint8_t* t = nullptr;
  p.invoke_temp_refused =
      context.AllocateTempBuffer(8, 8, &t).code() == StatusCode::kFailedPrecondition;
  p.invoke_get_scratch_ok = context.GetScratchBuffer(*static_cast<int*>(node.user_data)) != nullptr;
  p.invoke_get_bad_index_null =
      context.GetScratchBuffer(-1) == nullptr && context.GetScratchBuffer(1000) == nullptr;
  return CopyInvoke(context, node);
}
void ProbeReset(KernelContext& context, Node&) {
  void* q = nullptr;
  Probe().reset_persistent_refused = !context.AllocatePersistentBuffer(8, &q).ok();
}

KernelRegistration Make(model::BuiltinCode code, const char* name,
                        Status (*init)(KernelContext&, Node&),
                        Status (*prepare)(KernelContext&, Node&),
                        Status (*invoke)(KernelContext&, Node&),
                        void (*reset)(KernelContext&, Node&) = nullptr) {
  KernelRegistration r;
  r.builtin_code = code;
  r.name = name;
  r.init = init;
  r.prepare = prepare;
  r.invoke = invoke;
  r.reset = reset;
  return r;
}

}  // namespace

TestKernelConfig& Config() {
  static TestKernelConfig config;
  return config;
}

PhaseProbe& Probe() {
  static PhaseProbe probe;
  return probe;
}

KernelRegistration AddKernel(model::BuiltinCode code) {
  return Make(code, "test_add", nullptr, nullptr, AddInvoke);
}
KernelRegistration CopyKernel(model::BuiltinCode code) {
  return Make(code, "test_copy", nullptr, nullptr, CopyInvoke);
}
KernelRegistration ScratchKernel(model::BuiltinCode code) {
  return Make(code, "test_scratch", ScratchInit, ScratchPrepare, ScratchInvoke);
}
KernelRegistration PersistentKernel(model::BuiltinCode code) {
  return Make(code, "test_persistent", PersistentInit, nullptr, PersistentInvoke, PersistentReset);
}
KernelRegistration TempKernel(model::BuiltinCode code) {
  return Make(code, "test_temp", nullptr, TempPrepare, CopyInvoke);
}
KernelRegistration SvdfScratchKernel(model::BuiltinCode code) {
  return Make(code, "test_svdf_scratch", nullptr, SvdfPrepare, NopInvoke);
}
KernelRegistration NopKernel(model::BuiltinCode code) {
  return Make(code, "test_nop", nullptr, nullptr, NopInvoke);
}
KernelRegistration FailingKernel(model::BuiltinCode code) {
  return Make(code, "test_fail", nullptr, FailPrepare, FailInvoke);
}
KernelRegistration PhaseProbeKernel(model::BuiltinCode code) {
  return Make(code, "test_probe", ProbeInit, ProbePrepare, ProbeInvoke, ProbeReset);
}

}  // namespace testing
}  // namespace tflm_arena
