// The build of stock TFLM whose arena we model: struct sizes and build
// switches that change what lands in the arena (docs/tflm_behaviour.md,
// sections "Struct sizes per target" and "The wheel's build").
//
// Two targets:
//  - "x86-64": the tflite-micro PyPI wheel (TFLM commit 8f6596d):
//    TF_LITE_STATIC_MEMORY, USE_TFLM_COMPRESSION on, LP64 sizes;
//  - "cortex-m": a TFLM Makefile build (commit 90b983c2b) for a 32-bit ARM
//    core: TF_LITE_STATIC_MEMORY, compression off, 4-byte pointers, AAPCS
//    alignment (int64/double members 8-aligned; equals i386 built with
//    -malign-double).
// Sizes were measured with sizeof/alignof on TFLM's own headers (g++ x86-64
// and arm-linux-gnueabihf-g++), not derived by hand.
#ifndef TFLM_ARENA_TFLM_TARGET_ABI_H_
#define TFLM_ARENA_TFLM_TARGET_ABI_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace tflm {

// Column index into the per-ABI columns of a kernel table.
enum class AbiId : uint8_t { kX86_64Wheel = 0, kCortexM = 1 };
constexpr size_t kNumAbis = 2;

struct SizeAlign {
  uint32_t size = 0;
  uint32_t align = 1;
};

struct TargetAbi {
  const char* name;
  AbiId id;
  bool compression;        // USE_TFLM_COMPRESSION
  uint32_t pointer_bytes;  // sizeof(void*) == sizeof(size_t)
  // Allocator objects created in the tail before anything else (TFLM's
  // MicroAllocator::Create / RecordingMicroAllocator::Create).
  SizeAlign single_arena_allocator;
  SizeAlign recording_single_arena_allocator;
  SizeAlign micro_allocator;
  SizeAlign recording_micro_allocator;
  SizeAlign greedy_planner;
  SizeAlign linear_planner;
  // The two-buffer MicroAllocator::Create(persistent, ..., non_persistent,
  // ...) creates these two in the persistent buffer instead of the
  // SingleArenaBufferAllocator (TFLM's micro_allocator.cc,
  // CreatePersistentArenaAllocator / CreateNonPersistentArenaAllocator).
  SizeAlign persistent_arena_allocator;
  SizeAlign non_persistent_arena_allocator;
  // StartModelAllocation and the interpreter's persistent structs (TFLM's
  // micro_allocator.cc, StartModelAllocation).
  SizeAlign builtin_data_allocator;
  SizeAlign subgraph_allocations;
  SizeAlign eval_tensor;
  SizeAlign node_and_registration;
  SizeAlign tflite_tensor;
  SizeAlign affine_quantization;
  SizeAlign scratch_buffer_request;  // head records, one per RequestScratchBufferInArena
  SizeAlign scratch_buffer_handle;   // tail array, one per request (FinishModelAllocation)
  SizeAlign allocation_info;         // temp during planning, one per tensor and request
  // MicroResourceVariables::Create (micro_resource_variable.cc): the object,
  // then an array of one MicroResourceVariable per variable (three pointers,
  // a size_t, an int8_t), both AllocatePersistentBuffer (16-aligned).
  SizeAlign resource_variables;
  SizeAlign resource_variable;
};

// nullptr for an unknown name. Users name build targets (build_targets.h),
// each of which names one of these layouts.
const TargetAbi* FindTarget(const char* name);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_TARGET_ABI_H_
