// Per-operator memory behaviour of TFLM kernels, as data: one row per
// builtin operator. The allocation model (allocation_trace.cc) replays a
// row; it never runs a kernel.
//
// A row says, per target ABI column (target_abi.h):
//  - params: the builtin-options struct the flatbuffer parser allocates in
//    the tail (size, alignof), or size 0 when the parser allocates nothing;
//  - opdata: bytes the kernel's Init asks of AllocatePersistentBuffer
//    (always 16-aligned in the tail), or 0 when there is no Init;
//  - prepare: the kernel's Prepare, in order, as far as memory goes: temp
//    TfLiteTensors it takes (alignof(TfLiteTensor) each,
//    plus quantization when the tensor is quantized), persistent arrays,
//    scratch-buffer requests. Temp memory is only reset after the node, so
//    order decides where each allocation lands;
//  - types: the type checks of Prepare that no arena size passes.
// A kernel variant (e.g. CMSIS-NN or ESP-NN, whose scratch sizes depend on the CPU
// features) is another table with its own rows and rules.
#ifndef TFLM_ARENA_TFLM_KERNEL_TABLE_H_
#define TFLM_ARENA_TFLM_KERNEL_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/tflm/kernel_refusals.h"
#include "tflm_arena/tflm/target_abi.h"

namespace tflm_arena {
namespace tflm {

enum class StepKind : uint8_t {
  kEnd = 0,
  // Temp TfLiteTensor for node input `a` (nothing if the input is absent
  // or -1), plus TfLiteAffineQuantization and a zero-point int array when
  // the tensor has scales and zero points (micro_allocator.cc).
  kTempInput,
  kTempInputRange,  // kTempInput for inputs a .. b (inclusive; stops at
                    // the node's last input)
  kTempOutput,      // the same for node output `a`
  // Two persistent int32 arrays (multiplier, shift) of dims[b] of input a.
  kPerChannelArrays,
  // The same, sized by input a's scale count, only when it is > 1
  // (FULLY_CONNECTED's per-channel path).
  kPerChannelArraysIfMultiScale,
  // Two persistent int16 LUTs of 513 entries when input 0 is INT16
  // (SOFTMAX).
  kInt16Luts,
  // Scratch requests; sizes from the node's tensors (see ScratchRule).
  kScratch,
  // A CMSIS-NN kernel's scratch requests and persistent buffers, sized by
  // CMSIS-NN's functions for the target's backend (cmsis_nn_kernels.h;
  // the rule is Step::a, a CmsisNnRule).
  kCmsisNn,
  // An ESP-NN kernel's scratch request, sized by esp-nn's functions for the
  // target's chip (esp_nn_kernels.h; the rule is Step::a, an EspNnRule).
  kEspNn,
  // VAR_HANDLE's Prepare: MicroResourceVariables::CreateIdIfNoneFound for
  // its (container, shared_name) options; its output's eval tensor then
  // holds the id, so that tensor is never planned (model/lifetimes.h).
  kVarHandle,
  // ASSIGN_VARIABLE's Prepare, after its temp value tensor (input 1): when
  // input 0 holds a resource id (a VAR_HANDLE of the same subgraph prepared
  // earlier), MicroResourceVariables::Allocate: the variable's buffer of
  // input 1's bytes, AllocatePersistentBuffer, the first time only.
  kAssignVariable,
  // AllocatePersistentBuffer in Prepare (16-aligned tail): Step::a bytes in
  // the x86-64 wheel column, Step::b in the cortex-m one (an OpData only
  // some types take, e.g. ADD_N's for int8).
  kPersistent,
  // CreateWritableTensorDimsWithCopy (TFLM's kernels/kernel_util.cc) for
  // node output `a`: a persistent TfLiteIntArray of its rank.
  kWritableDims,
  // BATCH_MATMUL's InitializeTemporaries (batch_matmul.cc), persistent:
  // the quantization data (7 int32) for int8/int16 lhs; for adj_x a
  // transposed lhs, for !adj_y a transposed rhs, each a TfLiteEvalTensor,
  // its dims array and its data.
  kBatchMatMulTemporaries,
  // AllocatePersistentBuffer in Prepare of Step::a bytes per node input
  // (the Arduino library's CONCATENATION: int8 input scales and zero
  // points, one float and one int32 array).
  kPersistentPerInput,
};

enum class ScratchRule : uint8_t {
  kNone = 0,
  kInt4Filter,                // input a is INT4: its element count (unpacked)
  kSvdf,                      // int8: batch*filters*4 and batch*units*4; float: first only
  kTransposeConv,             // int8 input: out elements*4; int16: *8 (+ int16 bias*8)
  kLstm,                      // 4 x batch*state*sizeof(cell state type)
  kMeanOrSum,                 // int8/int16: out elements*4; then rank*4, axis count*4
  kMeanOrSumAccumulatorOnly,  // before TFLM of 2026-01: int8/int16 out elements*4 only
  kReduceMinMax,              // input rank*4, axis count*4
  kMirrorPad,                 // 2 x input rank*4
  kPointerPerInput,           // sizeof(void*) * node inputs (ADD_N's input pointers)
};

// Step only taken when the condition holds for node input `cond_input`.
enum class StepCond : uint8_t { kAlways = 0, kInputNotFloat32, kInputIsInt8 };

struct Step {
  StepKind kind = StepKind::kEnd;
  int8_t a = 0;
  int8_t b = 0;
  ScratchRule rule = ScratchRule::kNone;
  StepCond cond = StepCond::kAlways;
  int8_t cond_input = 0;
};

constexpr size_t kMaxPrepareSteps = 16;

struct KernelRow {
  const char* op;                  // builtin name, e.g. "CONV_2D"
  const char* source;              // TFLM file(s) the row was read from
  SizeAlign params[kNumAbis];      // builtin-options struct; size 0 = none
  uint32_t opdata[kNumAbis];       // Init's persistent bytes; 0 = no Init
  Step prepare[kMaxPrepareSteps];  // ends at the first kEnd
  // Type checks in Prepare that refuse the model (kernel_refusals.h).
  TypeRule types = TypeRule::kNone;
};

// Step shorthands, so each row reads like the kernel's Prepare.
namespace steps {
// InRange(a, kAllInputs): inputs a .. the node's last.
constexpr int kAllInputs = 127;
constexpr Step In(int a) { return Step{StepKind::kTempInput, static_cast<int8_t>(a)}; }
constexpr Step InRange(int a, int b) {
  return Step{StepKind::kTempInputRange, static_cast<int8_t>(a), static_cast<int8_t>(b)};
}
constexpr Step Out(int a) { return Step{StepKind::kTempOutput, static_cast<int8_t>(a)}; }
constexpr Step PerChannel(int input, int dim) {
  return Step{StepKind::kPerChannelArrays, static_cast<int8_t>(input), static_cast<int8_t>(dim)};
}
constexpr Step PerChannelIfMulti(int input) {
  return Step{StepKind::kPerChannelArraysIfMultiScale, static_cast<int8_t>(input)};
}
constexpr Step Luts16() { return Step{StepKind::kInt16Luts}; }
constexpr Step Scratch(ScratchRule rule, int a = 0) {
  return Step{StepKind::kScratch, static_cast<int8_t>(a), 0, rule};
}
// `s` only when node input `input` is not FLOAT32.
constexpr Step IfQuantized(Step s, int input) {
  s.cond = StepCond::kInputNotFloat32;
  s.cond_input = static_cast<int8_t>(input);
  return s;
}
// `s` only when node input `input` is INT8.
constexpr Step IfInt8(Step s, int input) {
  s.cond = StepCond::kInputIsInt8;
  s.cond_input = static_cast<int8_t>(input);
  return s;
}
constexpr Step CmsisNn(uint8_t rule) { return Step{StepKind::kCmsisNn, static_cast<int8_t>(rule)}; }
constexpr Step EspNn(uint8_t rule) { return Step{StepKind::kEspNn, static_cast<int8_t>(rule)}; }
constexpr Step VarHandle() { return Step{StepKind::kVarHandle}; }
constexpr Step AssignVariable() { return Step{StepKind::kAssignVariable}; }
// `wheel` bytes on the x86-64 wheel, `cortex_m` on cortex-m (each <= 127).
constexpr Step Persistent(int wheel, int cortex_m) {
  return Step{StepKind::kPersistent, static_cast<int8_t>(wheel), static_cast<int8_t>(cortex_m)};
}
constexpr Step WritableDims(int output) {
  return Step{StepKind::kWritableDims, static_cast<int8_t>(output)};
}
constexpr Step BatchMatMulTemporaries() { return Step{StepKind::kBatchMatMulTemporaries}; }
constexpr Step PersistentPerInput(int bytes) {
  return Step{StepKind::kPersistentPerInput, static_cast<int8_t>(bytes)};
}
}  // namespace steps

// TFLM's reference kernels (tensorflow/lite/micro/kernels/*.cc).
Span<const KernelRow> ReferenceKernels();

// Row for a builtin name in `table`, or nullptr (also for a null name).
const KernelRow* FindKernel(Span<const KernelRow> table, const char* op);

// A kernel variant's whole table: its own rows (`own`), then every reference
// row for an operator `own` does not replace.
// Example: WithReferenceKernels(CmsisNnOwnKernels()) -> CMSIS-NN's CONV_2D
// row first, and the reference MIRROR_PAD row (CMSIS-NN has none) later.
std::vector<KernelRow> WithReferenceKernels(Span<const KernelRow> own);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_KERNEL_TABLE_H_
