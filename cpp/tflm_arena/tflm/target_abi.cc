#include "tflm_arena/tflm/target_abi.h"

#include "tflm_arena/tflm/named_rows.h"

namespace tflm_arena {
namespace tflm {
namespace {

// sizeof / alignof measured on TFLM's headers (see target_abi.h).
constexpr TargetAbi kTargets[] = {
    {"x86-64",
     AbiId::kX86_64Wheel,
     /*compression=*/true,
     /*pointer_bytes=*/8,
     /*single_arena_allocator=*/{72, 8},
     /*recording_single_arena_allocator=*/{104, 8},
     /*micro_allocator=*/{72, 8},
     /*recording_micro_allocator=*/{272, 8},  // 248 without compression
     /*greedy_planner=*/{72, 8},
     /*linear_planner=*/{8216, 8},
     /*persistent_arena_allocator=*/{32, 8},
     /*non_persistent_arena_allocator=*/{56, 8},
     /*builtin_data_allocator=*/{16, 8},
     /*subgraph_allocations=*/{24, 8},  // 16 + CompressedTensorList
     /*eval_tensor=*/{24, 8},
     /*node_and_registration=*/{64, 8},
     /*tflite_tensor=*/{64, 8},
     /*affine_quantization=*/{24, 8},
     /*scratch_buffer_request=*/{16, 8},
     /*scratch_buffer_handle=*/{8, 8},
     /*allocation_info=*/{32, 8},
     /*resource_variables=*/{16, 8},
     /*resource_variable=*/{40, 8}},
    {"cortex-m", AbiId::kCortexM,
     /*compression=*/false,
     /*pointer_bytes=*/4,
     /*single_arena_allocator=*/{36, 4},
     /*recording_single_arena_allocator=*/{52, 4},
     /*micro_allocator=*/{36, 4},
     /*recording_micro_allocator=*/{124, 4},
     /*greedy_planner=*/{44, 4},
     /*linear_planner=*/{4108, 4},
     /*persistent_arena_allocator=*/{16, 4},
     /*non_persistent_arena_allocator=*/{32, 4},
     /*builtin_data_allocator=*/{8, 4},
     /*subgraph_allocations=*/{8, 4},
     /*eval_tensor=*/{12, 4},
     /*node_and_registration=*/{32, 4},
     /*tflite_tensor=*/{40, 4},
     /*affine_quantization=*/{12, 4},
     /*scratch_buffer_request=*/{12, 4},
     /*scratch_buffer_handle=*/{4, 4},
     /*allocation_info=*/{24, 4},
     // From the fields (pointer and int 4 bytes, AAPCS); not yet run on a
     // 32-bit build.
     /*resource_variables=*/{12, 4},
     /*resource_variable=*/{20, 4}},
    // The Arduino library (tflite-micro-arduino-examples, TFLM of
    // 2023-02-27) as the Arduino IDE compiles it: the cortex-m layout but
    // without TF_LITE_STATIC_MEMORY (no build flag defines it), so
    // TfLiteTensor (64) and TfLiteNode (40, NodeAndRegistration 44) carry
    // their full-TFLite fields. Measured with sizeof on that library's
    // headers, arm-linux-gnueabihf-g++ with the Nano 33 BLE core's flags.
    {"cortex-m-arduino",
     AbiId::kCortexM,
     /*compression=*/false,
     /*pointer_bytes=*/4,
     /*single_arena_allocator=*/{36, 4},
     /*recording_single_arena_allocator=*/{52, 4},
     /*micro_allocator=*/{36, 4},
     /*recording_micro_allocator=*/{124, 4},
     /*greedy_planner=*/{44, 4},
     /*linear_planner=*/{4108, 4},
     /*persistent_arena_allocator=*/{16, 4},
     /*non_persistent_arena_allocator=*/{32, 4},
     /*builtin_data_allocator=*/{8, 4},
     /*subgraph_allocations=*/{8, 4},
     /*eval_tensor=*/{12, 4},
     /*node_and_registration=*/{44, 4},
     /*tflite_tensor=*/{64, 4},
     /*affine_quantization=*/{12, 4},
     /*scratch_buffer_request=*/{12, 4},
     /*scratch_buffer_handle=*/{4, 4},
     /*allocation_info=*/{24, 4},
     /*resource_variables=*/{12, 4},
     /*resource_variable=*/{20, 4}},
};

}  // namespace

const TargetAbi* FindTarget(const char* name) { return FindByName(kTargets, name); }

}  // namespace tflm
}  // namespace tflm_arena
