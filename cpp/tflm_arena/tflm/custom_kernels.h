// TFLM's custom operators outside the Signal library (signal_kernels.h)
// that the modelled op resolver registers (the tflite-micro wheel's, TFLM's
// python/tflite_micro/python_ops_resolver.cc, and MicroMutableOpResolver's
// AddCircularBuffer, AddDetectionPostprocess, AddEthosU): what each asks of
// the arena, read from its kernel file at TFLM 90b983c2b.
//
//   CIRCULAR_BUFFER               kernels/circular_buffer{,_common}.cc
//   TFLite_Detection_PostProcess  kernels/detection_postprocess.cc
//   TFLM_DECODE                   kernels/decode.cc, decode_state_*.cc
//   ethos-u                       kernels/ethos_u/ethosu.cc (only in a build
//                                 with the Ethos-U kernel)
//
// Everything a node needs is fixed by its options and its tensors' shapes,
// so it is computed once per node (CustomKernelMemoryFor) and replayed by
// the allocation model in TFLM's order: Init's persistent buffers with every
// Init, then Prepare's steps node by node. A check of Prepare that no arena
// passes is a refusal with TFLM's text; a model TFLM would read out of
// bounds on (a rank too small for the dims Prepare reads) is
// kInvalidArgument naming the operator.
#ifndef TFLM_ARENA_TFLM_CUSTOM_KERNELS_H_
#define TFLM_ARENA_TFLM_CUSTOM_KERNELS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/tflm/signal_kernels.h"
#include "tflm_arena/tflm/target_abi.h"

namespace tflm_arena {
namespace tflm {

// One memory step of a custom kernel's Prepare, in TFLM's order.
struct CustomStep {
  enum Kind : uint8_t { kTemp, kPersistent, kScratch } kind = kTemp;
  NodeTensorRef tensor;  // kTemp: the node tensor taken as a temp TfLiteTensor
  // kTemp: the kernel reads the tensor's whole quantization struct and zero
  // points after later allocations (so a tail that overlaps them corrupts).
  bool whole_quantization = false;
  uint64_t bytes = 0;  // kPersistent, kScratch
  const char* what = "";
};

struct CustomKernelMemory {
  const char* source = "";             // TFLM file(s) the figures come from
  std::vector<uint64_t> init_buffers;  // Init's AllocatePersistentBuffer sizes
  std::vector<CustomStep> prepare;     // Prepare's steps, in order
  // Non-empty: a check of Prepare that fails at every arena size (TFLM's
  // TF_LITE_ENSURE text); the steps before it are still taken.
  std::string refusal;
  size_t refusal_after = 0;  // number of `prepare` steps taken before the check
};

// Whether `custom_code` names a custom operator modelled here. `ethos_u`:
// the target's TFLM is built with the Ethos-U kernel (otherwise TFLM's
// Register_ETHOSU is null and "ethos-u" is not registered).
bool IsModelledCustomOp(const char* custom_code, bool ethos_u);

// The memory of node `op_index` of subgraph `sg`, a custom operator modelled
// here. Options and shapes are untrusted: a missing or mistyped option TFLM
// sizes a buffer by, a negative size, or a shape Prepare would read out of
// bounds is kInvalidArgument naming the operator.
Status CustomKernelMemoryFor(const model::Model& model, size_t sg, size_t op_index,
                             const model::OperatorInfo& op, const TargetAbi& abi,
                             CustomKernelMemory* out);

// The smallest decompression memory region (one region given to TFLM with
// MicroInterpreter::SetDecompressionMemory, 16-aligned) that holds every
// tensor the model's DECODE operators output, so none of them is planned
// in the arena: each DECODE's Prepare restarts the region at offset 0 and
// places its outputs first-fit, in order, each at a 16-aligned address
// (micro_context.cc, AllocateDecompressionMemory), so it is the largest
// over DECODE operators of that packing's end. 0 when the model has no
// DECODE.
Status DecompressionRegionBytes(const model::Model& model, uint64_t* bytes);

// A Vela model's fast scratch: the largest tensor an ethos-u operator takes
// as input 3 (Vela's scratch_fast, the NPU's base address 2) when it is a
// tensor of its own of another size than input 2 (the scratch): Vela 5
// writes the same tensor twice when the memory mode has no separate fast
// memory, and earlier Velas (TFLM's own person_detect_vela, Vela 3.11) a
// second tensor of the scratch's size at the same offset. Its size is
// Vela's "Total SRAM used" in the Dedicated_Sram mode. TFLM plans that
// tensor in the arena like any other (the figures include it); the driver
// uses the fast memory given to ethosu_init instead when there is one.
// 0 without such an operator.
Status EthosUFastScratchBytes(const model::Model& model, uint64_t* bytes);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_CUSTOM_KERNELS_H_
