#include "tflm_arena/tflm/registered_ops.h"

#include <cstring>

namespace tflm_arena {
namespace tflm {
namespace {

constexpr const char* kBuiltins[] = {
    "ABS",
    "ADD",
    "ADD_N",
    "ARG_MAX",
    "ARG_MIN",
    "ASSIGN_VARIABLE",
    "AVERAGE_POOL_2D",
    "BATCH_MATMUL",
    "BATCH_TO_SPACE_ND",
    "BROADCAST_ARGS",
    "BROADCAST_TO",
    "CALL_ONCE",
    "CAST",
    "CEIL",
    "CONCATENATION",
    "CONV_2D",
    "COS",
    "CUMSUM",
    "DEPTHWISE_CONV_2D",
    "DEPTH_TO_SPACE",
    "DEQUANTIZE",
    "DIV",
    "DYNAMIC_UPDATE_SLICE",
    "ELU",
    "EMBEDDING_LOOKUP",
    "EQUAL",
    "EXP",
    "EXPAND_DIMS",
    "FILL",
    "FLOOR",
    "FLOOR_DIV",
    "FLOOR_MOD",
    "FULLY_CONNECTED",
    "GATHER",
    "GATHER_ND",
    "GREATER",
    "GREATER_EQUAL",
    "HARD_SWISH",
    "IF",
    "L2_NORMALIZATION",
    "L2_POOL_2D",
    "LEAKY_RELU",
    "LESS",
    "LESS_EQUAL",
    "LOG",
    "LOGICAL_AND",
    "LOGICAL_NOT",
    "LOGICAL_OR",
    "LOGISTIC",
    "LOG_SOFTMAX",
    "MAXIMUM",
    "MAX_POOL_2D",
    "MEAN",
    "MINIMUM",
    "MIRROR_PAD",
    "MUL",
    "NEG",
    "NOT_EQUAL",
    "PACK",
    "PAD",
    "PADV2",
    "PRELU",
    "QUANTIZE",
    "READ_VARIABLE",
    "REDUCE_ALL",
    "REDUCE_MAX",
    "REDUCE_MIN",
    "RELU",
    "RELU6",
    "RESHAPE",
    "RESIZE_BILINEAR",
    "RESIZE_NEAREST_NEIGHBOR",
    "REVERSE_V2",
    "ROUND",
    "RSQRT",
    "SELECT_V2",
    "SHAPE",
    "SIN",
    "SLICE",
    "SOFTMAX",
    "SPACE_TO_BATCH_ND",
    "SPACE_TO_DEPTH",
    "SPLIT",
    "SPLIT_V",
    "SQRT",
    "SQUARE",
    "SQUARED_DIFFERENCE",
    "SQUEEZE",
    "STRIDED_SLICE",
    "SUB",
    "SUM",
    "SVDF",
    "TANH",
    "TRANSPOSE",
    "TRANSPOSE_CONV",
    "UNIDIRECTIONAL_SEQUENCE_LSTM",
    "UNPACK",
    "VAR_HANDLE",
    "WHILE",
    "ZEROS_LIKE",
};

constexpr const char* kCustomOps[] = {
    "ethos-u",
    "TFLite_Detection_PostProcess",
    "CIRCULAR_BUFFER",
    "TFLM_DECODE",
    "SignalDelay",
    "SignalEnergy",
    "SignalFftAutoScale",
    "SignalFilterBank",
    "SignalFilterBankLog",
    "SignalFilterBankSquareRoot",
    "SignalFilterBankSpectralSubtraction",
    "SignalFramer",
    "SignalIrfft",
    "SignalOverlapAdd",
    "SignalPCAN",
    "SignalRfft",
    "SignalStacker",
    "SignalWindow",
};

}  // namespace

Span<const char* const> TflmRegisteredBuiltins() {
  return Span<const char* const>(kBuiltins, sizeof(kBuiltins) / sizeof(kBuiltins[0]));
}

Span<const char* const> TflmRegisteredCustomOps() {
  return Span<const char* const>(kCustomOps, sizeof(kCustomOps) / sizeof(kCustomOps[0]));
}

bool IsTflmRegisteredBuiltin(const char* name) {
  if (name == nullptr) return false;
  for (const char* b : kBuiltins) {
    if (std::strcmp(b, name) == 0) return true;
  }
  return false;
}

}  // namespace tflm
}  // namespace tflm_arena
