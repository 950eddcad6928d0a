#include "tflm_arena/tflm/esp_nn_kernels.h"

#include <cstdint>

#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/tensor_type.h"
#include "tflm_arena/tflm/kernel_shapes.h"

namespace tflm_arena {
namespace tflm {
namespace {

using model::TensorType;
using steps::EspNn;
using steps::In;
using steps::Luts16;
using steps::Out;
using steps::PerChannel;
using steps::PerChannelIfMulti;
using steps::Scratch;

const char* RuleOp(EspNnRule rule) {
  switch (rule) {
    case EspNnRule::kConv:
      return "CONV_2D";
    case EspNnRule::kDepthwiseConv:
      return "DEPTHWISE_CONV_2D";
    case EspNnRule::kSoftmax:
      return "SOFTMAX";
  }
  return "?";
}

Status NodeTensor(const model::Model& m, size_t sg, const model::OperatorInfo& op, bool output,
                  int index, model::TensorInfo* t, bool* present) {
  Span<const int32_t> list = output ? op.outputs : op.inputs;
  *present = index >= 0 && static_cast<size_t>(index) < list.size() && list[index] >= 0;
  if (!*present) return Status::Ok();
  return m.tensor(sg, static_cast<size_t>(list[index]), t);
}

Status Located(const Status& s, EspNnRule rule, size_t sg, size_t op_index) {
  return Status::Error(s.code(), "%s operator %zu (subgraph %zu): %s", RuleOp(rule), op_index, sg,
                       s.message());
}

// CONV_2D / DEPTHWISE_CONV_2D: the data_dims_t and params the kernel fills.
Status ConvArgs(const model::Model& m, size_t sg, size_t op_index, const model::OperatorInfo& op,
                bool depthwise, EspNnConv* c, bool* int8_input) {
  const EspNnRule rule = depthwise ? EspNnRule::kDepthwiseConv : EspNnRule::kConv;
  model::TensorInfo t[3];
  for (int i = 0; i < 3; ++i) {
    const bool output = i == 2;
    bool present = false;
    TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(m, sg, op, output, output ? 0 : i, &t[i], &present));
    if (!present || t[i].shape.size() != 4) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s operator %zu (subgraph %zu): %s missing or not of rank 4",
                           RuleOp(rule), op_index, sg,
                           i == 0   ? "input"
                           : i == 1 ? "filter"
                                    : "output");
    }
  }
  *int8_input = t[0].type == TensorType::kInt8;
  if (!*int8_input) return Status::Ok();
  model::OptionsTable table;
  TFLM_ARENA_RETURN_IF_ERROR(m.builtin_options(sg, op_index, &table));
  // A table of another type is no table to TFLM's parser (zero defaults).
  const model::OptionsType type =
      depthwise ? model::kDepthwiseConv2DOptions : model::kConv2DOptions;
  if (table.present() && table.type() != type) table = model::OptionsTable();
  // Conv2DOptions: padding 0, stride_w 1, stride_h 2, dilation 4, 5;
  // DepthwiseConv2DOptions: the same with depth_multiplier 3, dilation 5, 6.
  const model::Padding padding = static_cast<model::Padding>(table.UInt8(0, 0));
  c->stride_w = table.Int32(1, 0);
  c->stride_h = table.Int32(2, 0);
  c->ch_mult = depthwise ? table.Int32(3, 0) : 1;
  const int64_t dilation_w = table.Int32(depthwise ? 5 : 4, 1);
  const int64_t dilation_h = table.Int32(depthwise ? 6 : 5, 1);
  if (!table.ok()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s operator %zu (subgraph %zu): malformed builtin options", RuleOp(rule),
                         op_index, sg);
  }
  const model::TensorInfo& in = t[0];
  const model::TensorInfo& filter = t[1];
  const model::TensorInfo& output = t[2];
  c->input = EspNnDims{in.shape[2], in.shape[1], in.shape[3]};
  c->filter = EspNnDims{filter.shape[2], filter.shape[1], filter.shape[3]};
  c->output = EspNnDims{output.shape[2], output.shape[1], output.shape[3]};
  c->pad_h = ConvPadding(padding, c->stride_h, dilation_h, in.shape[1], filter.shape[1]);
  c->pad_w = ConvPadding(padding, c->stride_w, dilation_w, in.shape[2], filter.shape[2]);
  return Status::Ok();
}

}  // namespace

Status EspNnPrepare(EspNnRule rule, EspNnChip chip, EspNnVersion version, const model::Model& model,
                    size_t sg, size_t op_index, const model::OperatorInfo& op,
                    std::vector<uint64_t>* out) {
  out->clear();
  int64_t bytes = 0;
  switch (rule) {
    case EspNnRule::kConv:
    case EspNnRule::kDepthwiseConv: {
      const bool depthwise = rule == EspNnRule::kDepthwiseConv;
      EspNnConv c;
      bool int8_input = false;
      TFLM_ARENA_RETURN_IF_ERROR(ConvArgs(model, sg, op_index, op, depthwise, &c, &int8_input));
      if (!int8_input) return Status::Ok();
      const Status s = depthwise ? EspNnDepthwiseConvScratchSize(chip, version, c, &bytes)
                                 : EspNnConvScratchSize(chip, version, c, &bytes);
      if (!s.ok()) return Located(s, rule, sg, op_index);
      break;
    }
    case EspNnRule::kSoftmax: {
      model::TensorInfo in, output;
      bool in_present = false, out_present = false;
      TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(model, sg, op, false, 0, &in, &in_present));
      TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(model, sg, op, true, 0, &output, &out_present));
      if (!in_present || !out_present) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "SOFTMAX operator %zu (subgraph %zu): input or output missing",
                             op_index, sg);
      }
      if (in.type != TensorType::kInt8 || output.type != TensorType::kInt8) return Status::Ok();
      if (chip == EspNnChip::kAnsiC) return Status::Ok();
      // esp_nn/softmax.cc passes input->dims->data[1] as the width: beyond
      // the shape of a rank-1 input (undefined; no figure).
      if (in.shape.size() < 2) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "SOFTMAX operator %zu (subgraph %zu): ESP-NN's softmax reads input "
                             "dimension 1, which a rank-%zu input does not have",
                             op_index, sg, in.shape.size());
      }
      const Status s = EspNnSoftmaxScratchSize(chip, version, in.shape[1], &bytes);
      if (!s.ok()) return Located(s, rule, sg, op_index);
      break;
    }
  }
  // The kernels request scratch only when the size is > 0.
  if (bytes > 0) out->push_back(static_cast<uint64_t>(bytes));
  return Status::Ok();
}

namespace {

// Init's allocation of each esp_nn kernel, measured with sizeof on
// arm-linux-gnueabihf-g++ against esp-tflite-micro's headers (-DESP_NN):
// conv/depthwise NodeData 60, softmax NodeData 64, OpDataFullyConnected 48,
// OpDataPooling 32, OpDataAdd 60, OpDataMul 36. ESP-NN runs on 32-bit chips
// only, so the x86-64 column is never read (every ESP-NN target names the
// 32-bit layout); it repeats the 32-bit value.
// clang-format off: one row per kernel, its steps as the kernel's Prepare takes them.
constexpr KernelRow kEspNn[] = {
    // Prepare as conv_common.cc's ConvPrepare, then the ESP-NN scratch (int8).
    {"CONV_2D",
     "esp_nn/conv.cc conv_common.cc",
     {{28, 4}, {28, 4}},
     {60, 60},
     {Out(0), In(0), In(1), PerChannel(1, 0), In(0), In(1), In(2), Out(0),  // CalculateOpDataConv
      Scratch(ScratchRule::kInt4Filter, 1), EspNn(static_cast<uint8_t>(EspNnRule::kConv))},
     TypeRule::kConv},
    {"DEPTHWISE_CONV_2D",
     "esp_nn/depthwise_conv.cc depthwise_conv_common.cc",
     {{28, 4}, {28, 4}},
     {60, 60},
     {Out(0), In(0), In(1), PerChannel(1, 3), Scratch(ScratchRule::kInt4Filter, 1), In(0), In(1),
      In(2), Out(0),  // CalculateOpDataDepthwiseConv
      EspNn(static_cast<uint8_t>(EspNnRule::kDepthwiseConv))},
     TypeRule::kDepthwiseConv},
    {"FULLY_CONNECTED",
     "esp_nn/fully_connected.cc fully_connected_common.cc",
     {{16, 4}, {16, 4}},
     {48, 48},
     {In(0), In(1), In(2), Out(0), Scratch(ScratchRule::kInt4Filter, 1), PerChannelIfMulti(1)},
     TypeRule::kFullyConnected},
    // CalculateSoftmaxParams (int16 LUTs), then the ESP-NN scratch (int8 in and out).
    {"SOFTMAX",
     "esp_nn/softmax.cc softmax_common.cc",
     {{4, 4}, {4, 4}},
     {64, 64},
     {In(0), Out(0), Luts16(), EspNn(static_cast<uint8_t>(EspNnRule::kSoftmax))}},
    {"AVERAGE_POOL_2D",
     "esp_nn/pooling.cc pooling_common.cc",
     {{40, 4}, {40, 4}},
     {32, 32},
     {In(0), Out(0)}},
    {"MAX_POOL_2D",
     "esp_nn/pooling.cc pooling_common.cc",
     {{40, 4}, {40, 4}},
     {32, 32},
     {In(0), Out(0)}},
    {"ADD", "esp_nn/add.cc add_common.cc", {{8, 4}, {8, 4}}, {60, 60}, {In(0), In(1), Out(0)}},
    {"MUL", "esp_nn/mul.cc mul_common.cc", {{4, 4}, {4, 4}}, {36, 36}, {In(0), In(1), Out(0)}},
};
// clang-format on

}  // namespace

Span<const KernelRow> EspNnOwnKernels() {
  return Span<const KernelRow>(kEspNn, sizeof(kEspNn) / sizeof(kEspNn[0]));
}

Span<const KernelRow> EspNnKernels() {
  // Built once and kept for the process.
  static const std::vector<KernelRow>* const table =
      new std::vector<KernelRow>(WithReferenceKernels(EspNnOwnKernels()));
  return Span<const KernelRow>(table->data(), table->size());
}

}  // namespace tflm
}  // namespace tflm_arena
