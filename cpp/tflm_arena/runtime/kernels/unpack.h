// UNPACK: the input split into `num` tensors along dimension `axis`, which
// each output drops, for FLOAT32, INT8, INT16 and INT32 (TFLM's reference
// kernel's types). Matches TFLM's unpack.cc (it only moves elements).
//
// TFLM has no prepare for UNPACK; here prepare checks what its invoke
// assumes: as many outputs as num, all of the input's type, axis in [-rank,
// rank), and every output shape equal to the input's without axis (whose
// extent is num). Math: pack.h (UnstackCopy).
//
// Memory per node, as TFLM: no init, no persistent memory; the 8-byte
// options struct (tail).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_UNPACK_H_
#define TFLM_ARENA_RUNTIME_KERNELS_UNPACK_H_

#include <cstdint>

namespace tflm_arena {
namespace runtime {

// UNPACK's builtin options, laid out like TfLiteUnpackParams.
struct UnpackOptions {
  int32_t num = 0;
  int32_t axis = 0;
};

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_UNPACK_H_
