// Name table of the format's BuiltinOperator enum, one entry per code from 0
// upwards (the enum is dense). Source of the facts: the TFLite schema as
// shipped with the tflite-micro package this project tests against.
#include "tflm_arena/model/builtin_ops.h"

#include <cstring>

namespace tflm_arena {
namespace model {
namespace {

constexpr const char* kNames[] = {
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D",
    "DEPTH_TO_SPACE", "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR",
    "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D",
    "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM",
    "MAX_POOL_2D", "MUL", "RELU", "RELU_N1_TO_1", "RELU6", "RESHAPE",
    "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH",
    "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM",
    "EMBEDDING_LOOKUP_SPARSE", "PAD", "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER",
    "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB",
    "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE",
    "BIDIRECTIONAL_SEQUENCE_RNN", "EXP", "TOPK_V2", "SPLIT", "LOG_SOFTMAX",
    "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU", "MAXIMUM",
    "ARG_MAX", "MINIMUM", "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL",
    "LESS_EQUAL", "SELECT", "SLICE", "SIN", "TRANSPOSE_CONV",
    "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL", "NOT_EQUAL", "LOG",
    "SUM", "SQRT", "RSQRT", "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT",
    "REDUCE_PROD", "REDUCE_MAX", "PACK", "LOGICAL_OR", "ONE_HOT",
    "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN", "FLOOR_DIV",
    "REDUCE_ANY", "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD", "RANGE",
    "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE",
    "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N",
    "GATHER_ND", "COS", "WHERE", "RANK", "ELU", "REVERSE_SEQUENCE",
    "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG", "ROUND", "HARD_SWISH", "IF",
    "WHILE", "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND",
    "SELECT_V2", "DENSIFY", "SEGMENT_SUM", "BATCH_MATMUL",
    "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE", "BROADCAST_TO",
    "RFFT2D", "CONV_3D", "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE",
    "HASHTABLE_FIND", "HASHTABLE_IMPORT", "HASHTABLE_SIZE", "REDUCE_ALL",
    "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE",
    "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM",
    "MULTINOMIAL", "GELU", "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1",
    "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX", "UNSORTED_SEGMENT_SUM",
    "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST", "BITWISE_XOR",
    "RIGHT_SHIFT", "STABLEHLO_LOGISTIC", "STABLEHLO_ADD", "STABLEHLO_DIVIDE",
    "STABLEHLO_MULTIPLY", "STABLEHLO_MAXIMUM", "STABLEHLO_RESHAPE",
    "STABLEHLO_CLAMP", "STABLEHLO_CONCATENATE", "STABLEHLO_BROADCAST_IN_DIM",
    "STABLEHLO_CONVOLUTION", "STABLEHLO_SLICE", "STABLEHLO_CUSTOM_CALL",
    "STABLEHLO_REDUCE", "STABLEHLO_ABS", "STABLEHLO_AND", "STABLEHLO_COSINE",
    "STABLEHLO_EXPONENTIAL", "STABLEHLO_FLOOR", "STABLEHLO_LOG",
    "STABLEHLO_MINIMUM", "STABLEHLO_NEGATE", "STABLEHLO_OR",
    "STABLEHLO_POWER", "STABLEHLO_REMAINDER", "STABLEHLO_RSQRT",
    "STABLEHLO_SELECT", "STABLEHLO_SUBTRACT", "STABLEHLO_TANH",
    "STABLEHLO_SCATTER", "STABLEHLO_COMPARE", "STABLEHLO_CONVERT",
    "STABLEHLO_DYNAMIC_SLICE", "STABLEHLO_DYNAMIC_UPDATE_SLICE",
    "STABLEHLO_PAD", "STABLEHLO_IOTA", "STABLEHLO_DOT_GENERAL",
    "STABLEHLO_REDUCE_WINDOW", "STABLEHLO_SORT", "STABLEHLO_WHILE",
    "STABLEHLO_GATHER", "STABLEHLO_TRANSPOSE", "DILATE",
    "STABLEHLO_RNG_BIT_GENERATOR", "REDUCE_WINDOW", "STABLEHLO_COMPOSITE",
    "STABLEHLO_SHIFT_LEFT", "STABLEHLO_CBRT", "STABLEHLO_CASE",
};
static_assert(sizeof(kNames) / sizeof(kNames[0]) == kNumNamedBuiltinCodes,
              "name table and kNumNamedBuiltinCodes disagree");

constexpr bool SameName(const char* a, const char* b) {
  return *a == *b && (*a == '\0' || SameName(a + 1, b + 1));
}
constexpr bool Named(BuiltinCode code, const char* name) {
  return SameName(kNames[code], name);
}
static_assert(Named(kBuiltinAdd, "ADD") && Named(kBuiltinAveragePool2D, "AVERAGE_POOL_2D") &&
                  Named(kBuiltinConv2D, "CONV_2D") &&
                  Named(kBuiltinDepthwiseConv2D, "DEPTHWISE_CONV_2D") &&
                  Named(kBuiltinDequantize, "DEQUANTIZE") &&
                  Named(kBuiltinFullyConnected, "FULLY_CONNECTED") &&
                  Named(kBuiltinMaxPool2D, "MAX_POOL_2D") && Named(kBuiltinReshape, "RESHAPE") &&
                  Named(kBuiltinSoftmax, "SOFTMAX") && Named(kBuiltinCustom, "CUSTOM") &&
                  Named(kBuiltinLeakyRelu, "LEAKY_RELU") &&
                  Named(kBuiltinQuantize, "QUANTIZE") && Named(kBuiltinIf, "IF") &&
                  Named(kBuiltinWhile, "WHILE") && Named(kBuiltinCallOnce, "CALL_ONCE"),
              "a named builtin code disagrees with the format's name table");

}  // namespace

const char* BuiltinCodeName(BuiltinCode code) {
  if (code < 0 || code >= kNumNamedBuiltinCodes) return nullptr;
  return kNames[code];
}

bool BuiltinCodeFromName(const char* name, BuiltinCode* code) {
  if (name == nullptr) return false;
  for (BuiltinCode i = 0; i < kNumNamedBuiltinCodes; ++i) {
    if (std::strcmp(kNames[i], name) == 0) {
      *code = i;
      return true;
    }
  }
  return false;
}

}  // namespace model
}  // namespace tflm_arena
