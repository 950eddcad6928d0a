// TFLM's Signal library operators (signal/micro/kernels/*.cc: the audio
// front end of TFLM's micro_speech example), registered by the
// tflite-micro wheel as custom operators "SignalWindow", "SignalRfft", ...:
// what each asks of the arena, read from its Init (persistent buffers sized
// by its flexbuffer custom options), its Prepare (temp tensors, scratch
// requests) and its parameter structs.
//
// Struct sizes per target: the x86-64 column follows LP64 (8-byte
// pointers and size_t, 8-aligned); the cortex-m column follows the 32-bit
// ARM AAPCS (4-byte pointers and size_t). They are derived from the
// structs' member lists (written next to each figure in signal_kernels.cc),
// not measured with sizeof: the x86-64 figures are checked against the
// wheel (tests_py/test_tflm_signal.py), the 32-bit ones are not measured
// on a 32-bit TFLM build.
//
// Modelled: every Signal operator the wheel registers (its op resolver,
// TFLM's python/tflite_micro/python_ops_resolver.cc): SignalWindow,
// SignalFftAutoScale, SignalRfft, SignalIrfft, SignalEnergy,
// SignalFilterBank, SignalFilterBankSquareRoot,
// SignalFilterBankSpectralSubtraction, SignalPCAN, SignalFilterBankLog,
// SignalFramer, SignalStacker, SignalOverlapAdd and SignalDelay. Any other
// custom operator is a named kUnimplemented error.
//
// Three of them (SignalFramer, SignalDelay, SignalOverlapAdd) also take
// persistent buffers in Prepare, after their temp tensors, sized by the
// node's input shape: SignalPrepareBuffers. Of Prepare's checks, only those
// the sizes depend on are modelled (a frame step dividing the innermost
// dimension, ...); their type and rank checks are not.
#ifndef TFLM_ARENA_TFLM_SIGNAL_KERNELS_H_
#define TFLM_ARENA_TFLM_SIGNAL_KERNELS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/tflm/target_abi.h"

namespace tflm_arena {
namespace tflm {

// A node tensor a kernel's Prepare takes as a temp TfLiteTensor.
struct NodeTensorRef {
  bool output = false;
  int index = 0;
};

// Persistent buffers a kernel's Prepare takes, by the node's input shape.
enum class SignalPrepareRule : uint8_t {
  kNone = 0,
  kFramer,      // framer.cc: per outer row a circular buffer of the frames
  kDelay,       // delay.cc: per outer row a circular buffer of the delay
  kOverlapAdd,  // overlap_add.cc: per outer row one frame of state
};

struct SignalOpMemory {
  const char* source = "";             // TFLM file the figures come from
  std::vector<uint64_t> init_buffers;  // Init's AllocatePersistentBuffer sizes
  std::vector<NodeTensorRef> temps;    // Prepare's temp tensors, in order
  std::vector<uint64_t> scratch;       // Prepare's scratch requests (bytes)
  SignalPrepareRule prepare = SignalPrepareRule::kNone;
  int64_t frame_size = 0;      // kFramer: option frame_size
  int64_t frame_step = 0;      // kFramer: option frame_step
  int64_t delay_length = 0;    // kDelay: option delay_length
  uint32_t element_bytes = 0;  // kOverlapAdd: 2 (INT16) or 4 (FLOAT32)
};

// Most outer rows (the product of all but the innermost input dimension)
// a Signal operator's Prepare is modelled for: each row is one persistent
// buffer in TFLM; audio front ends have a handful.
constexpr uint64_t kMaxSignalOuterRows = uint64_t{1} << 16;

// Whether `custom_code` names a Signal operator modelled here.
bool IsModelledSignalOp(const char* custom_code);

// The memory of one Signal operator (`op`: its custom code). `options` are
// the operator's custom options (a flexbuffer map; untrusted: a missing, truncated or mistyped
// option is kInvalidArgument naming the operator and the option).
Status SignalMemory(const char* op, Span<const uint8_t> options, const TargetAbi& abi,
                    SignalOpMemory* out);

// Prepare's AllocatePersistentBuffer sizes, in order, for `mem` (from
// SignalMemory) given `shape`, the shape of the node's input 0 (all dims
// >= 0).
// When TFLM's Prepare refuses the shape, *refusal gets TFLM's check (the
// TF_LITE_ENSURE text) and `buffers` stays empty; a shape TFLM would
// divide by zero on, or one beyond kMaxSignalOuterRows, is
// kInvalidArgument naming the operator.
Status SignalPrepareBuffers(const char* op, const SignalOpMemory& mem, Span<const int32_t> shape,
                            const TargetAbi& abi, std::vector<uint64_t>* buffers,
                            std::string* refusal);

// Flexbuffer map helpers (exposed for tests). A map's element `index` is
// the value of its index-th key in sorted order, as TFLM's
// FlexbufferWrapper reads it; `key` must be that key.
struct FlexMap {
  std::vector<std::string> keys;
  std::vector<int64_t> ints;  // each value as an integer (bools 0/1)
  std::vector<bool> is_int;   // value was an int, uint or bool
};
Status ParseFlexMap(Span<const uint8_t> options, FlexMap* out, std::string* error);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_SIGNAL_KERNELS_H_
