// Checks a stock TFLM kernel makes in Prepare that fail at every arena size
// (no memory question: TFLM refuses the model), e.g. a hybrid model (float32
// activations, int8 weights), which TFLM's conv_common.cc rejects with
// "Hybrid models are not supported on TFLite Micro.".
//
// Only type checks are modelled; each reason is TFLM's own message text
// (the TF_LITE_ENSURE_* macros' "a != b (x != y)" form where TFLM uses one,
// with type names in place of enum numbers).
#ifndef TFLM_ARENA_TFLM_KERNEL_REFUSALS_H_
#define TFLM_ARENA_TFLM_KERNEL_REFUSALS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace tflm {

// Which kernel's checks a kernel-table row takes (kernel_table.h).
enum class TypeRule : uint8_t {
  kNone = 0,
  kConv,            // conv_common.cc ConvPrepare
  kDepthwiseConv,   // depthwise_conv_common.cc DepthwiseConvPrepare
  kTransposeConv,   // transpose_conv.cc TransposeConvPrepare
  kFullyConnected,  // fully_connected.cc FullyConnectedPrepare
  kSvdf,            // svdf_common.cc PrepareSvdf
  kBatchMatMul,     // batch_matmul.cc BatchMatMulPrepare
  // The Arduino library's transpose_conv.cpp (TFLM of 2023-02): no type
  // check in Prepare, but an int16 input without a bias crashes it.
  kTransposeConvArduino,
};

// Stock TFLM refuses the model: which operator, and why.
struct Refusal {
  bool refused = false;
  std::string reason;   // TFLM's message
  std::string source;   // the TFLM file and function that refuses
  std::string op_name;  // "CONV_2D", or a custom operator's name
  size_t subgraph = 0;
  size_t op_index = 0;  // within the subgraph
};

// The status a refusal travels as: kFailedPrecondition (TFLM's Prepare
// precondition does not hold), message "stock TFLM refuses the model: ...".
// Nothing else in tflm/ returns kFailedPrecondition with `refusal` set.
Status RefusalStatus(const Refusal& refusal);

// Fills *refusal (refused = true) when `rule`'s checks fail for operator
// `op_index` of subgraph `sg`; errors only for an unreadable model.
Status CheckKernelTypes(TypeRule rule, const char* op_name, const model::Model& model, size_t sg,
                        size_t op_index, const model::OperatorInfo& op, Refusal* refusal);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_KERNEL_REFUSALS_H_
