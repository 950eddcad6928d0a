#include "tflm_arena/tflm/esp_nn_kernels.h"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "tflm_arena/core/enum_names.h"
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

// esp-nn computes in int (32 bits) from int32 arguments it first narrows to
// uint16_t; the products here reach at most four uint16 factors, so 128 bits
// hold every intermediate exactly.
using Wide = __int128;

// The uint16_t locals of esp-nn's S3 and P4 size functions.
Wide U16(int64_t v) { return static_cast<uint16_t>(static_cast<uint64_t>(v)); }

Status Overflow(const char* fn) {
  return Status::Error(StatusCode::kInvalidArgument,
                       "%s: the result overflows the int esp-nn computes it in", fn);
}
Status DivideByZero(const char* fn, const char* what) {
  return Status::Error(StatusCode::kInvalidArgument,
                       "%s divides by %s, which is 0 for this operator (as esp-nn reads it, "
                       "narrowed to 16 bits)",
                       fn, what);
}
Status Result(const char* fn, Wide v, int64_t* out) {
  if (v > INT32_MAX || v < INT32_MIN) return Overflow(fn);
  *out = static_cast<int64_t>(v);
  return Status::Ok();
}

// esp_nn_conv_esp32s3.c, esp_nn_get_conv_scratch_size_esp32s3.
Status ConvS3(const EspNnConv& c, int64_t* out) {
  constexpr const char* kFn = "esp_nn_get_conv_scratch_size_esp32s3";
  const Wide in_wd = U16(c.input.width), in_ht = U16(c.input.height);
  const Wide in_ch = U16(c.input.channels);
  const Wide f_wd = U16(c.filter.width), f_ht = U16(c.filter.height);
  const Wide out_ch = U16(c.output.channels);
  const Wide pad_wd = U16(c.pad_w), pad_ht = U16(c.pad_h);
  const Wide stride_wd = U16(c.stride_w), stride_ht = U16(c.stride_h);
  const Wide align_buf = 64;  // alignment (16) + assembly access margin (48)
  if (f_wd == 1 && f_ht == 1 && pad_wd == 0 && pad_ht == 0 && stride_wd == 1 && stride_ht == 1) {
    const Wide new_ch = (in_ch + 7) / 8 * 8;
    const Wide transpose = in_wd * in_ht < 8 ? 0 : 2 * (8 * new_ch);
    const Wide input_scratch = in_ch % 8 != 0 ? in_wd * in_ht * new_ch : 0;
    return Result(kFn, input_scratch + new_ch * out_ch + transpose + align_buf, out);
  }
  const Wide row = f_wd * in_ch;
  const Wide window = f_wd * f_ht * in_ch;
  if (row < 16 && window >= 16) {  // im2col path
    const Wide window_aligned = (window + 15) / 16 * 16;
    return Result(kFn, out_ch * 4 + 16 + out_ch * window_aligned + 16 + window_aligned + align_buf,
                  out);
  }
  const Wide new_ch = (in_ch + 15) / 16 * 16;
  const Wide input_scratch =
      pad_wd == 0 && pad_ht == 0 ? 0 : (in_wd + 2 * pad_wd) * (in_ht + 2 * pad_ht) * in_ch;
  const Wide filter_scratch = f_wd * f_ht * new_ch * out_ch;
  const Wide filter_alignment = (row + 15) / 16 * 16 * f_ht * out_ch;
  // output_dims->width/height are read as int32 here, not narrowed.
  const Wide pad_right = std::max<Wide>(0, Wide{c.output.width} * stride_wd + f_wd - 1 - in_wd);
  const Wide pad_bottom = std::max<Wide>(0, Wide{c.output.height} * stride_ht + f_ht - 1 - in_ht);
  const Wide boundary =
      pad_right > 0 || pad_bottom > 0 ? (in_wd + pad_right) * (in_ht + pad_bottom) * in_ch : 0;
  return Result(
      kFn, input_scratch + filter_scratch + filter_alignment + boundary + align_buf + out_ch * 4,
      out);
}

// esp_nn_conv_esp32p4.c, esp_nn_get_conv_scratch_size_esp32p4.
Status ConvP4(const EspNnConv& c, int64_t* out) {
  constexpr const char* kFn = "esp_nn_get_conv_scratch_size_esp32p4";
  constexpr Wide kL1dBudget = 32768;  // L1D_BUDGET, same file
  const Wide in_wd = U16(c.input.width), in_ht = U16(c.input.height);
  const Wide in_ch = U16(c.input.channels);
  const Wide f_wd = U16(c.filter.width), f_ht = U16(c.filter.height);
  const Wide out_ch = U16(c.output.channels);
  const Wide pad_wd = U16(c.pad_w), pad_ht = U16(c.pad_h);
  const Wide stride_wd = U16(c.stride_w), stride_ht = U16(c.stride_h);
  const Wide align_buf = 32;
  if (f_wd == 1 && f_ht == 1 && pad_wd == 0 && pad_ht == 0 && stride_wd == 1 && stride_ht == 1) {
    if (in_ch < 16) {  // channel-padding path
      return Result(kFn, out_ch * 4 + 16 * out_ch + 32 + align_buf, out);
    }
    const Wide new_ch = (in_ch + 7) / 8 * 8;
    const Wide transpose = in_wd * in_ht < 8 ? 0 : 2 * (8 * new_ch);
    const Wide input_scratch = in_ch % 8 != 0 ? in_wd * in_ht * new_ch : 0;
    return Result(kFn, input_scratch + new_ch * out_ch + transpose + align_buf, out);
  }
  const Wide new_ch = (in_ch + 15) / 16 * 16;
  const Wide offset_acc = out_ch * 4;
  if (pad_wd == 0 && pad_ht == 0 && f_wd * in_ch >= 16) {  // direct, no padding
    return Result(kFn, f_wd * f_ht * new_ch * out_ch + align_buf + offset_acc, out);
  }
  if (f_wd * f_ht * in_ch >= 16) {  // im2col: one window
    return Result(kFn, offset_acc + f_wd * f_ht * in_ch + align_buf, out);
  }
  if (pad_wd == 0 && pad_ht == 0) {  // window < 16 elements: tiled
    if (f_wd == 0) return DivideByZero(kFn, "the filter width");
    const Wide eff_ch = ((16 + f_wd - 1) / f_wd + 15) / 16 * 16;
    return Result(
        kFn, offset_acc + f_wd * f_ht * eff_ch * out_ch + in_wd * in_ht * eff_ch + align_buf, out);
  }
  const Wide padded_wd = in_wd + 2 * pad_wd;
  const Wide full_input = padded_wd * (in_ht + 2 * pad_ht) * in_ch;
  Wide input_scratch = 0;
  Wide filter_scratch = 0;
  if (full_input + offset_acc > kL1dBudget) {  // tiled
    Wide eff_ch = in_ch;
    Wide filt_aligned = 0;
    if (f_wd * in_ch < 16) {
      if (f_wd == 0) return DivideByZero(kFn, "the filter width");
      eff_ch = ((16 + f_wd - 1) / f_wd + 15) / 16 * 16;
      filt_aligned = f_wd * f_ht * eff_ch * out_ch;
    }
    const Wide tile_row = padded_wd * eff_ch;
    const Wide budget = kL1dBudget - offset_acc - filt_aligned;
    Wide tile_t = 1;
    if (budget > 0 && f_ht * tile_row <= budget) {
      if (stride_ht * tile_row == 0) return DivideByZero(kFn, "stride height x tile row bytes");
      tile_t = (budget - f_ht * tile_row) / (stride_ht * tile_row) + 1;  // truncates as C does
      // output_dims->height is read as int32 here, not narrowed.
      if (tile_t > c.output.height) tile_t = c.output.height;
    }
    input_scratch = ((tile_t - 1) * stride_ht + f_ht + 2 * pad_ht) * tile_row;
    filter_scratch = filt_aligned;
  } else {  // monolithic padded
    input_scratch = full_input;
    filter_scratch = f_wd * f_ht * new_ch * out_ch;
  }
  return Result(kFn, input_scratch + filter_scratch + align_buf + offset_acc, out);
}

// esp_nn_depthwise_conv_s8_esp32s3.c, esp_nn_get_depthwise_conv_scratch_size_esp32s3.
Status DepthwiseS3(const EspNnConv& c, int64_t* out) {
  constexpr const char* kFn = "esp_nn_get_depthwise_conv_scratch_size_esp32s3";
  const Wide in_wd = U16(c.input.width), in_ht = U16(c.input.height);
  const Wide channels = U16(c.input.channels);
  const Wide f_wd = U16(c.filter.width), f_ht = U16(c.filter.height);
  const Wide ch_mult = U16(c.ch_mult);
  const Wide out_wd = U16(c.output.width), out_ht = U16(c.output.height);
  const Wide pad_wd = U16(c.pad_w), pad_ht = U16(c.pad_h);
  const Wide stride_wd = U16(c.stride_w), stride_ht = U16(c.stride_h);
  const Wide filter_size = f_wd * f_ht * channels * ch_mult;
  if (ch_mult == 1 && channels % 8 == 0) {
    if (f_wd == 3 && f_ht == 3) {
      if (channels % 16 == 0) {
        Wide pad_width = 0, pad_height = 0;
        if (pad_wd != 0 || pad_ht != 0) {
          pad_width = pad_wd * 2;
          pad_height = pad_ht * 2;
        } else {  // may be negative, as in esp-nn
          pad_width = out_wd * stride_wd + f_wd - 1 - in_wd;
          pad_height = out_ht * stride_ht + f_ht - 1 - in_ht;
        }
        if (pad_width == 0 && pad_height == 0) return Result(kFn, filter_size + 16, out);
        const Wide full_input = (in_wd + pad_width) * (in_ht + pad_height) * channels;
        if (full_input <= Wide{40} * 1024) return Result(kFn, filter_size + full_input + 16, out);
        return Result(kFn, filter_size + (in_wd + pad_width) * f_ht * channels + 16, out);
      }
      if (channels >= 12) {  // pad channels to 16, then compact
        const Wide new_ch = (channels + 15) / 16 * 16;
        const Wide total_pad_wd = pad_wd * 2 + std::max<Wide>(0, out_wd * stride_wd + 2 - in_wd);
        const Wide total_pad_ht = pad_ht * 2 + std::max<Wide>(0, out_ht * stride_ht + 2 - in_ht);
        const Wide new_input = (in_wd + total_pad_wd) * (in_ht + total_pad_ht) * new_ch;
        return Result(kFn, 9 * new_ch + new_input + out_wd * out_ht * new_ch + 64, out);
      }
      return Result(kFn, 2 * (filter_size + in_wd * in_ht * channels) + 32, out);  // 8 channels
    }
    const Wide total_s16 = 2 * (filter_size + in_wd * in_ht * channels);
    if (total_s16 <= Wide{48} * 1024) return Result(kFn, total_s16 + 32, out);
    return Result(kFn, 2 * filter_size + 2 * in_wd * f_ht * channels + 32, out);
  }
  if (ch_mult == 1 && channels > 3) {
    // Padded to 8 channels; four 16-aligned regions (in size_t, 32 bits on the chip).
    const Wide padded = (channels + 7) / 8 * 8;
    const Wide filter_bytes = f_wd * f_ht * padded * 2;
    const Wide input_start = (filter_bytes + 15) / 16 * 16;
    const Wide out_start = (input_start + in_wd * in_ht * padded * 2 + 15) / 16 * 16;
    const Wide bias_start = (out_start + out_wd * out_ht * padded + 15) / 16 * 16;
    const Wide total = bias_start + 3 * (padded * 4);
    if (total + 16 > UINT32_MAX) return Overflow(kFn);
    return Result(kFn, total + 16, out);
  }
  if (ch_mult % 4 == 0) return Result(kFn, 2 * (filter_size + in_wd * in_ht * channels) + 32, out);
  *out = 32;  // default
  return Status::Ok();
}

}  // namespace

const char* EspNnChipName(EspNnChip chip) {
  static constexpr EnumName<EspNnChip> kNames[] = {
      {EspNnChip::kAnsiC, "ANSI C"},
      {EspNnChip::kEsp32, "ESP32 (generic optimized)"},
      {EspNnChip::kEsp32S3, "ESP32-S3"},
      {EspNnChip::kEsp32P4, "ESP32-P4"},
  };
  return NameOf(kNames, chip, "?");
}

Status EspNnConvScratchSize(EspNnChip chip, const EspNnConv& conv, int64_t* out) {
  switch (chip) {
    case EspNnChip::kAnsiC:  // esp_nn_conv_ansi.c
    case EspNnChip::kEsp32:  // esp_nn_conv_opt.c
      *out = 0;
      return Status::Ok();
    case EspNnChip::kEsp32S3:
      return ConvS3(conv, out);
    case EspNnChip::kEsp32P4:
      return ConvP4(conv, out);
  }
  *out = 0;
  return Status::Ok();
}

Status EspNnDepthwiseConvScratchSize(EspNnChip chip, const EspNnConv& conv, int64_t* out) {
  // ANSI (esp_nn_depthwise_conv_ansi.c), generic optimized
  // (esp_nn_depthwise_conv_opt.c) and P4 (esp_nn_depthwise_conv_esp32p4.c) return 0.
  if (chip == EspNnChip::kEsp32S3) return DepthwiseS3(conv, out);
  *out = 0;
  return Status::Ok();
}

Status EspNnSoftmaxScratchSize(EspNnChip chip, int64_t width, int64_t* out) {
  if (chip == EspNnChip::kAnsiC) {  // esp_nn_softmax_ansi.c
    *out = 0;
    return Status::Ok();
  }
  // esp_nn_softmax_opt.c, esp_nn_softmax_s8_esp32s3.c, esp_nn_softmax_s8_esp32p4.c: width * 4.
  return Result("esp_nn_get_softmax_scratch_size", Wide{width} * 4, out);
}

namespace {

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

Status EspNnPrepare(EspNnRule rule, EspNnChip chip, const model::Model& model, size_t sg,
                    size_t op_index, const model::OperatorInfo& op, std::vector<uint64_t>* out) {
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
      const Status s = depthwise ? EspNnDepthwiseConvScratchSize(chip, c, &bytes)
                                 : EspNnConvScratchSize(chip, c, &bytes);
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
      const Status s = EspNnSoftmaxScratchSize(chip, in.shape[1], &bytes);
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
