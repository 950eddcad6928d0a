#include "tflm_arena/tflm/kernel_table.h"

#include <cstring>

namespace tflm_arena {
namespace tflm {
namespace {

using steps::AssignVariable;
using steps::BatchMatMulTemporaries;
using steps::IfInt8;
using steps::IfQuantized;
using steps::In;
using steps::InRange;
using steps::Luts16;
using steps::Out;
using steps::PerChannel;
using steps::PerChannelIfMulti;
using steps::Persistent;
using steps::Scratch;
using steps::VarHandle;
using steps::WritableDims;

using steps::kAllInputs;

// Columns: {x86-64 wheel (compression on), cortex-m (compression off)}.
// Sizes measured with sizeof/alignof on TFLM's headers at 90b983c2b;
// TfLiteFullyConnectedParams is 32 B / 8-aligned at the wheel's 8f6596d
// (docs/tflm_behaviour.md, section "The wheel's build"). Opdata that
// differs carries the compression scratch indices.
// clang-format off: one row per kernel, its steps grouped as the kernel's Prepare does them.
constexpr KernelRow kReference[] = {
    {"CONV_2D",
     "conv.cc conv_common.cc",
     {{28, 4}, {28, 4}},
     {80, 56},
     {Out(0), In(0), In(1), PerChannel(1, 0), In(0), In(1), In(2), Out(0),  // CalculateOpDataConv
      Scratch(ScratchRule::kInt4Filter, 1)},
     TypeRule::kConv},
    {"DEPTHWISE_CONV_2D",
     "depthwise_conv.cc depthwise_conv_common.cc",
     {{28, 4}, {28, 4}},
     {80, 56},
     {Out(0), In(0), In(1), PerChannel(1, 3), Scratch(ScratchRule::kInt4Filter, 1), In(0), In(1),
      In(2), Out(0)},  // CalculateOpDataDepthwiseConv
     TypeRule::kDepthwiseConv},
    {"FULLY_CONNECTED",
     "fully_connected.cc fully_connected_common.cc",
     {{32, 8}, {16, 4}},
     {72, 48},
     {In(0), In(1), In(2), Out(0), Scratch(ScratchRule::kInt4Filter, 1), PerChannelIfMulti(1)},
     TypeRule::kFullyConnected},
    {"SOFTMAX",
     "softmax.cc softmax_common.cc",
     {{4, 4}, {4, 4}},
     {80, 56},
     {In(0), Out(0), Luts16()}},
    {"AVERAGE_POOL_2D",
     "pooling.cc pooling_common.cc",
     {{40, 4}, {40, 4}},
     {32, 32},
     {In(0), Out(0)}},
    {"MAX_POOL_2D", "pooling.cc pooling_common.cc", {{40, 4}, {40, 4}}, {32, 32}, {In(0), Out(0)}},
    {"RESHAPE",
     "reshape.cc reshape_common.cc (no Init)",
     {{36, 4}, {36, 4}},
     {0, 0},
     {In(0), Out(0)}},
    {"ADD", "add.cc add_common.cc", {{8, 4}, {8, 4}}, {60, 60}, {In(0), In(1), Out(0)}},
    {"SUB", "sub.cc sub_common.cc", {{8, 4}, {8, 4}}, {52, 52}, {In(0), In(1), Out(0)}},
    {"QUANTIZE",
     "quantize.cc quantize_common.cc (parser allocates nothing)",
     {{0, 1}, {0, 1}},
     {32, 32},
     {In(0), Out(0)}},
    {"SVDF",
     "svdf.cc svdf_common.cc",
     {{12, 4}, {12, 4}},
     {36, 36},
     {InRange(0, 4), Out(0), Scratch(ScratchRule::kSvdf)},
     TypeRule::kSvdf},
    {"LEAKY_RELU",
     "leaky_relu.cc leaky_relu_common.cc",
     {{4, 4}, {4, 4}},
     {24, 24},
     {In(0), Out(0)}},
    {"PAD",
     "pad.cc pad_common.cc (parser allocates nothing)",
     {{0, 1}, {0, 1}},
     {56, 56},
     {In(0), In(1), In(2), Out(0)}},
    {"STRIDED_SLICE",
     "strided_slice.cc strided_slice_common.cc",
     {{24, 4}, {24, 4}},
     {84, 84},
     {In(0), In(1), In(2), In(3), Out(0)}},
    {"TRANSPOSE_CONV",
     "transpose_conv.cc",
     {{20, 4}, {20, 4}},
     {88, 72},
     {Out(0), In(2), In(1), PerChannel(1, 0), Scratch(ScratchRule::kTransposeConv),
      IfQuantized(In(2), 2), IfQuantized(In(1), 2),  // CalculateOpData
      IfQuantized(In(3), 2), IfQuantized(Out(0), 2)},
     TypeRule::kTransposeConv},
    {"UNIDIRECTIONAL_SEQUENCE_LSTM",
     "unidirectional_sequence_lstm.cc lstm_eval.cc",
     {{16, 4}, {16, 4}},
     {688, 688},
     {InRange(0, 23), Out(0), Scratch(ScratchRule::kLstm)}},
    {"MUL", "mul.cc mul_common.cc", {{4, 4}, {4, 4}}, {36, 36}, {In(0), In(1), Out(0)}},
    // PrepareMeanOrSumHelper, then PrepareSimple (output only for int8).
    {"MEAN",
     "reduce.cc reduce_common.cc",
     {{1, 1}, {1, 1}},
     {44, 44},
     {In(0), Out(0), In(1), Scratch(ScratchRule::kMeanOrSum), In(0), In(1), IfInt8(Out(0), 0)}},
    {"SUM",
     "reduce.cc reduce_common.cc",
     {{1, 1}, {1, 1}},
     {44, 44},
     {In(0), Out(0), In(1), Scratch(ScratchRule::kMeanOrSum), In(0), In(1), IfInt8(Out(0), 0)}},
    // PrepareSimple first, then PrepareMinMaxHelper.
    {"REDUCE_MAX",
     "reduce.cc reduce_common.cc",
     {{1, 1}, {1, 1}},
     {44, 44},
     {In(0), In(1), IfInt8(Out(0), 0), In(0), Out(0), In(1), Scratch(ScratchRule::kReduceMinMax)}},
    {"REDUCE_MIN",
     "reduce.cc reduce_common.cc",
     {{1, 1}, {1, 1}},
     {44, 44},
     {In(0), In(1), IfInt8(Out(0), 0), In(0), Out(0), In(1), Scratch(ScratchRule::kReduceMinMax)}},
    {"TRANSPOSE",
     "transpose.cc transpose_common.cc (no Init, no options struct)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), In(1), Out(0)}},
    // OpData = ConcatenationParams (+ 10 compression scratch indices).
    {"CONCATENATION",
     "concatenation.cc",
     {{8, 4}, {8, 4}},
     {80, 24},
     {In(0), Out(0), InRange(0, kAllInputs)}},
    {"LOGISTIC", "logistic.cc logistic_common.cc", {{0, 1}, {0, 1}}, {16, 16}, {In(0), Out(0)}},
    {"TANH", "tanh.cc", {{0, 1}, {0, 1}}, {16, 16}, {In(0), In(0), Out(0)}},
    {"DEQUANTIZE",
     "dequantize.cc dequantize_common.cc",
     {{0, 1}, {0, 1}},
     {32, 32},
     {In(0), Out(0)}},
    {"RELU", "activations.cc activations_common.cc", {{0, 1}, {0, 1}}, {28, 28}, {In(0), Out(0)}},
    {"RELU6", "activations.cc activations_common.cc", {{0, 1}, {0, 1}}, {8, 8}, {In(0)}},
    {"HARD_SWISH",
     "hard_swish.cc hard_swish_common.cc",
     {{0, 1}, {0, 1}},
     {20, 20},
     {In(0), Out(0)}},
    {"SQUEEZE", "squeeze.cc (no Init)", {{36, 4}, {36, 4}}, {0, 0}, {In(0), Out(0)}},
    {"EXPAND_DIMS",
     "expand_dims.cc (no Init, no options struct)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), In(1), Out(0)}},
    {"SPLIT",
     "split.cc (no Init; only the axis tensor in Prepare)",
     {{4, 4}, {4, 4}},
     {0, 0},
     {In(0)}},
    {"PACK", "pack.cc (no Init, no Prepare)", {{8, 4}, {8, 4}}, {0, 0}, {}},
    {"UNPACK", "unpack.cc (no Init, no Prepare)", {{8, 4}, {8, 4}}, {0, 0}, {}},
    // No Init at 90b983c2b; the wheel's 8f6596d asks 12 bytes in Init
    // (its recording figures: 'Persistent buffer data' 3 allocations,
    // 28 bytes requested = 12 + the two 8-byte I/O pointer arrays).
    {"GATHER", "gather.cc", {{8, 4}, {8, 4}}, {12, 0}, {In(0), In(1), Out(0)}},
    {"RESIZE_NEAREST_NEIGHBOR",
     "resize_nearest_neighbor.cc (no Init)",
     {{2, 1}, {2, 1}},
     {0, 0},
     {In(0), In(1), Out(0)}},
    {"MAXIMUM", "maximum_minimum.cc (no Init, no Prepare)", {{0, 1}, {0, 1}}, {0, 0}, {}},
    {"MINIMUM", "maximum_minimum.cc (no Init, no Prepare)", {{0, 1}, {0, 1}}, {0, 0}, {}},
    {"DIV", "div.cc", {{4, 4}, {4, 4}}, {28, 28}, {In(0), In(1), Out(0)}},
    {"PRELU", "prelu.cc prelu_common.cc", {{0, 1}, {0, 1}}, {28, 28}, {In(0), In(1), Out(0)}},
    {"SHAPE", "shape.cc (no Init; Prepare allocates nothing)", {{4, 4}, {4, 4}}, {0, 0}, {}},
    // elementwise.cc: ABS and RSQRT keep an OpDataAbsRsqrt; the others
    // (GenericPrepare) have no Init.
    {"ABS", "elementwise.cc", {{0, 1}, {0, 1}}, {28, 28}, {In(0), Out(0)}},
    {"RSQRT", "elementwise.cc", {{0, 1}, {0, 1}}, {28, 28}, {In(0), Out(0)}},
    {"SIN", "elementwise.cc", {{0, 1}, {0, 1}}, {0, 0}, {In(0), Out(0)}},
    {"COS", "elementwise.cc", {{0, 1}, {0, 1}}, {0, 0}, {In(0), Out(0)}},
    {"LOG", "elementwise.cc", {{0, 1}, {0, 1}}, {0, 0}, {In(0), Out(0)}},
    {"SQRT", "elementwise.cc", {{0, 1}, {0, 1}}, {0, 0}, {In(0), Out(0)}},
    {"SQUARE", "elementwise.cc", {{0, 1}, {0, 1}}, {0, 0}, {In(0), Out(0)}},
    {"LOGICAL_NOT", "elementwise.cc", {{0, 1}, {0, 1}}, {0, 0}, {In(0), Out(0)}},
    {"NEG", "neg.cc (no Init, no Prepare)", {{0, 1}, {0, 1}}, {0, 0}, {}},
    {"FLOOR", "floor.cc (no Init, no Prepare)", {{0, 1}, {0, 1}}, {0, 0}, {}},
    {"CEIL", "ceil.cc (no Init)", {{0, 1}, {0, 1}}, {0, 0}, {In(0), Out(0)}},
    {"ROUND", "round.cc (no Init)", {{0, 1}, {0, 1}}, {0, 0}, {In(0), Out(0)}},
    {"EXP", "exp.cc (no Init)", {{0, 1}, {0, 1}}, {0, 0}, {In(0), Out(0)}},
    {"CAST", "cast.cc (no Init)", {{8, 4}, {8, 4}}, {0, 0}, {In(0), Out(0)}},
    {"ZEROS_LIKE", "zeros_like.cc (no Init)", {{0, 1}, {0, 1}}, {0, 0}, {In(0), Out(0)}},
    {"FILL", "fill.cc (no Init)", {{0, 1}, {0, 1}}, {0, 0}, {In(0), In(1), Out(0)}},
    {"SLICE", "slice.cc (no Init)", {{0, 1}, {0, 1}}, {0, 0}, {In(0), In(1), In(2), Out(0)}},
    {"ARG_MAX", "arg_min_max.cc (no Init, no Prepare)", {{4, 4}, {4, 4}}, {0, 0}, {}},
    {"ARG_MIN", "arg_min_max.cc (no Init, no Prepare)", {{4, 4}, {4, 4}}, {0, 0}, {}},
    // comparisons.cc: OpData = ComparisonParams; Prepare reads both inputs.
    {"EQUAL", "comparisons.cc", {{0, 1}, {0, 1}}, {32, 32}, {In(0), In(1)}},
    {"NOT_EQUAL", "comparisons.cc", {{0, 1}, {0, 1}}, {32, 32}, {In(0), In(1)}},
    {"GREATER", "comparisons.cc", {{0, 1}, {0, 1}}, {32, 32}, {In(0), In(1)}},
    {"GREATER_EQUAL", "comparisons.cc", {{0, 1}, {0, 1}}, {32, 32}, {In(0), In(1)}},
    {"LESS", "comparisons.cc", {{0, 1}, {0, 1}}, {32, 32}, {In(0), In(1)}},
    {"LESS_EQUAL", "comparisons.cc", {{0, 1}, {0, 1}}, {32, 32}, {In(0), In(1)}},
    {"LOGICAL_AND", "logical.cc (no Init, no Prepare)", {{0, 1}, {0, 1}}, {0, 0}, {}},
    {"LOGICAL_OR", "logical.cc (no Init, no Prepare)", {{0, 1}, {0, 1}}, {0, 0}, {}},
    // OpData = bool + ArithmeticParams.
    {"SQUARED_DIFFERENCE",
     "squared_difference.cc",
     {{0, 1}, {0, 1}},
     {112, 112},
     {In(0), In(1), Out(0)}},
    {"SELECT_V2", "select.cc", {{0, 1}, {0, 1}}, {1, 1}, {In(0), In(1), In(2), Out(0)}},
    {"FLOOR_DIV",
     "floor_div.cc (Init allocates nothing)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), In(1), Out(0)}},
    {"FLOOR_MOD",
     "floor_mod.cc (Init allocates nothing)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), In(1), Out(0)}},
    {"SPACE_TO_BATCH_ND", "space_to_batch_nd.cc", {{0, 1}, {0, 1}}, {4, 4}, {In(0), Out(0)}},
    {"BATCH_TO_SPACE_ND",
     "batch_to_space_nd.cc (no Init)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), Out(0)}},
    {"RESIZE_BILINEAR",
     "resize_bilinear.cc (no Init)",
     {{2, 1}, {2, 1}},
     {0, 0},
     {In(0), In(1), Out(0)}},
    {"BROADCAST_TO", "broadcast_to.cc (no Init)", {{0, 1}, {0, 1}}, {0, 0}, {In(0), In(1), Out(0)}},
    {"L2_NORMALIZATION", "l2norm.cc", {{4, 4}, {4, 4}}, {4, 4}, {In(0), Out(0)}},
    {"MIRROR_PAD",
     "mirror_pad.cc",
     {{4, 4}, {4, 4}},
     {20, 20},
     {In(0), In(1), Out(0), Scratch(ScratchRule::kMirrorPad)}},
    // Resource variables and CALL_ONCE (streaming models). Options structs:
    // TfLiteVarHandleParams (two char pointers), TfLiteCallOnceParams and
    // TfLiteSplitVParams (one int); READ_VARIABLE and ASSIGN_VARIABLE have no
    // parser allocation. OpData: VAR_HANDLE's resource id (int32),
    // CALL_ONCE's {int, bool}, ASSIGN_VARIABLE's compression scratch index
    // (USE_TFLM_COMPRESSION only). CALL_ONCE prepares nothing: the init
    // subgraph is prepared with every subgraph and run at the first Invoke.
    {"VAR_HANDLE", "var_handle.cc", {{16, 8}, {8, 4}}, {4, 4}, {VarHandle()}},
    {"READ_VARIABLE", "read_variable.cc (no Init)", {{0, 1}, {0, 1}}, {0, 0}, {In(0)}},
    {"ASSIGN_VARIABLE",
     "assign_variable.cc (Init only with compression)",
     {{0, 1}, {0, 1}},
     {4, 0},
     {In(1), AssignVariable()}},
    {"CALL_ONCE", "call_once.cc (Prepare allocates nothing)", {{4, 4}, {4, 4}}, {8, 8}, {}},
    {"SPLIT_V",
     "split_v.cc (no Init; only the axis tensor in Prepare)",
     {{4, 4}, {4, 4}},
     {0, 0},
     {In(2)}},
    // The operators below: "writable dims" is CreateWritableTensorDimsWithCopy
    // on the output (a persistent TfLiteIntArray of its rank); Persistent()
    // is an OpData Prepare allocates, not Init.
    // ADD_N: temp input 0 and output, then each other input; float32 asks
    // a scratch array of input pointers, int8 also its OpData (10 int32).
    {"ADD_N",
     "add_n.cc (no Init; parser allocates nothing)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), Out(0), InRange(1, kAllInputs), IfInt8(Persistent(40, 40), 0),
      Scratch(ScratchRule::kPointerPerInput)}},
    // TfLiteBatchMatMulParams: three bools. OpData: three pointers and
    // three bools.
    {"BATCH_MATMUL",
     "batch_matmul.cc batch_matmul_common.cc",
     {{3, 1}, {3, 1}},
     {32, 16},
     {In(0), In(1), Out(0), BatchMatMulTemporaries(), WritableDims(0)},
     TypeRule::kBatchMatMul},
    {"BROADCAST_ARGS",
     "broadcast_args.cc (no Init, no options struct)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), In(1), Out(0)}},
    // TfLiteCumsumParams: two bools; int8 takes an OpData of 9 int32.
    {"CUMSUM",
     "cumsum.cc (no Init)",
     {{2, 1}, {2, 1}},
     {0, 0},
     {In(0), In(1), Out(0), IfInt8(Persistent(36, 36), 0)}},
    {"DEPTH_TO_SPACE",
     "depth_to_space.cc (no Init)",
     {{4, 4}, {4, 4}},
     {0, 0},
     {In(0), Out(0), WritableDims(0)}},
    {"DYNAMIC_UPDATE_SLICE",
     "dynamic_update_slice.cc (no Init, no options struct)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), In(1), In(2), Out(0)}},
    // OpData: an int8 lookup table of 256 entries (every type).
    {"ELU", "elu.cc (no options struct)", {{0, 1}, {0, 1}}, {256, 256}, {In(0), Out(0)}},
    // OpData {float, size_t}, allocated in Prepare.
    {"EMBEDDING_LOOKUP",
     "embedding_lookup.cc (no Init, no options struct)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), In(1), Out(0), WritableDims(0), Persistent(16, 8)}},
    {"GATHER_ND",
     "gather_nd.cc (no Init, no options struct)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), In(1), Out(0), WritableDims(0)}},
    // TfLiteIfParams and OpData: two ints. The branches are prepared with
    // every subgraph; Prepare reads only the condition.
    {"IF", "if.cc", {{8, 4}, {8, 4}}, {8, 8}, {In(0)}},
    {"L2_POOL_2D",
     "l2_pool_2d.cc (no Init)",
     {{40, 4}, {40, 4}},
     {0, 0},
     {Out(0), In(0), WritableDims(0)}},
    // int8 takes an OpData of five int32 and two size_t.
    {"LOG_SOFTMAX",
     "log_softmax.cc (no Init, no options struct)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), Out(0), IfInt8(Persistent(40, 28), 0)}},
    {"PADV2",
     "pad.cc pad_common.cc (parser allocates nothing)",
     {{0, 1}, {0, 1}},
     {56, 56},
     {In(0), In(1), In(2), Out(0)}},
    // PrepareAllHelper: its three temps, then PrepareSimple (no output:
    // the input is bool), then the two scratch arrays of REDUCE_MAX.
    {"REDUCE_ALL",
     "reduce.cc reduce_common.cc",
     {{1, 1}, {1, 1}},
     {44, 44},
     {In(0), Out(0), In(1), In(0), In(1), Scratch(ScratchRule::kReduceMinMax)}},
    {"REVERSE_V2",
     "reverse.cc (no Init, no options struct)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), In(1), Out(0)}},
    {"SPACE_TO_DEPTH",
     "space_to_depth.cc (no Init)",
     {{4, 4}, {4, 4}},
     {0, 0},
     {In(0), Out(0), WritableDims(0)}},
    // TfLiteWhileParams and OpData: two ints; Prepare allocates nothing
    // (cond and body are prepared with every subgraph).
    {"WHILE", "while.cc (Prepare allocates nothing)", {{8, 4}, {8, 4}}, {8, 8}, {}},
};
// clang-format on

}  // namespace

Span<const KernelRow> ReferenceKernels() {
  return Span<const KernelRow>(kReference, sizeof(kReference) / sizeof(kReference[0]));
}

const KernelRow* FindKernel(Span<const KernelRow> table, const char* op) {
  if (op == nullptr) return nullptr;  // a code with no name has no row
  for (size_t i = 0; i < table.size(); ++i) {
    if (std::strcmp(table[i].op, op) == 0) return &table[i];
  }
  return nullptr;
}

std::vector<KernelRow> WithReferenceKernels(Span<const KernelRow> own) {
  std::vector<KernelRow> rows(own.begin(), own.end());
  for (const KernelRow& ref : ReferenceKernels()) {
    if (FindKernel(own, ref.op) == nullptr) rows.push_back(ref);
  }
  return rows;
}

}  // namespace tflm
}  // namespace tflm_arena
