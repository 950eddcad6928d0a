#include "tflm_arena/tflm/cmsis_nn_kernels.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>

#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/tensor_type.h"
#include "tflm_arena/tflm/cmsis_nn_e98ee09_sizes.h"
#include "tflm_arena/tflm/kernel_shapes.h"

namespace tflm_arena {
namespace tflm {
namespace {

using model::TensorType;
using steps::CmsisNn;
using steps::IfQuantized;
using steps::In;
using steps::InRange;
using steps::Luts16;
using steps::Out;
using steps::PerChannel;
using steps::PerChannelIfMulti;

// CMSIS-NN's Include/arm_nnsupportfunctions.h at 4ab83cc.
constexpr int64_t kChInBlockMve = 124;                  // CH_IN_BLOCK_MVE
constexpr int64_t kReverseTcolEfficientThreshold = 16;  // REVERSE_TCOL_EFFICIENT_THRESHOLD
// CONVERT_DW_CONV_WITH_ONE_INPUT_CH_AND_OUTPUT_CH_ABOVE_THRESHOLD: 1 unless
// Arm Compiler >= 6.10.50 (8).
constexpr int64_t kDwOneInChThresholdGcc = 1;

// Every size is computed in 128 bits: the inputs are int32 values from the
// model, and no formula multiplies more than four of them, so nothing
// overflows; a result beyond int64 saturates (the rules refuse anything
// beyond CMSIS-NN's int32).
using Wide = __int128;
int64_t Sat(Wide v) {
  constexpr Wide kMax = INT64_MAX;
  return static_cast<int64_t>(v > kMax ? kMax : v < 0 ? 0 : v);
}
Wide RoundUp(Wide x, Wide n) { return (x + n - 1) / n * n; }

// arm_nn_is_convolve_1x1, arm_nn_is_convolve_1_x_n. (arm_nn_is_convolve_1x1_fast,
// stride 1, picks between two 1x1 kernels that both need 0 bytes under GCC.)
bool Is1x1(const CmsisConv& c) {
  return c.pad_w == 0 && c.pad_h == 0 && c.filter.w == 1 && c.filter.h == 1 && c.dilation_w == 1 &&
         c.dilation_h == 1 && c.input.c == c.filter.c;
}
bool Is1xN(const CmsisConv& c) {
  return c.input.h == 1 && c.dilation_w == 1 && c.filter.h == 1 &&
         (c.stride_w * c.input.c) % 4 == 0 && c.input.c == c.filter.c;
}

// arm_convolve_s8_get_buffer_size (not MVE): 2 * rhs_cols rounded up to 4, int16.
int64_t ConvS8Im2col(const CmsisDims& input, const CmsisDims& filter) {
  return Sat(2 * RoundUp(Wide{filter.w} * filter.h * input.c, 4) * 2);
}
// arm_convolve_s8_get_buffer_size_mve: 4 im2col columns of whole 16-lane registers.
int64_t ConvS8Mve(const CmsisDims& input, const CmsisDims& filter) {
  return Sat(4 * RoundUp(Wide{input.c} * filter.w * filter.h, 16));
}
// arm_convolve_1_x_n_s8_get_buffer_size_mve.
int64_t Conv1xNS8Mve(const CmsisConv& c) {
  if (c.stride_w <= 0) return ConvS8Mve(c.input, c.filter);  // the rules refuse it first
  const int64_t total_pad = (c.output.w - 1) * c.stride_w + c.filter.w - c.input.w;
  const int64_t asym_pad = total_pad % 2;
  const int64_t right_pad_num =
      c.pad_w + asym_pad != 0
          ? std::max<int64_t>(1, (c.pad_w + asym_pad + c.stride_w - 1) / c.stride_w)
          : 0;
  const int64_t left_pad_num =
      c.pad_w != 0 ? std::max<int64_t>(1, (c.pad_w + c.stride_w - 1) / c.stride_w) : 0;
  const int64_t no_pad_num = std::max<int64_t>(c.output.w - (right_pad_num + left_pad_num), 0);
  if (right_pad_num + no_pad_num + left_pad_num != c.output.w) {
    return ConvS8Mve(c.input, c.filter);
  }
  const Wide pad_size_left = Wide{c.pad_w} * c.input.c;
  const Wide pad_size_right = asym_pad ? Wide{right_pad_num} * c.input.c : pad_size_left;
  const Wide num_elem_left = Wide{c.filter.w} * c.input.c;
  const Wide num_elem_right = num_elem_left - c.input.c;
  return Sat(std::max(num_elem_left + pad_size_left, num_elem_right + pad_size_right));
}

}  // namespace

const char* CmsisNnBackendName(CmsisNnBackend backend) {
  switch (backend) {
    case CmsisNnBackend::kScalar:
      return "scalar";
    case CmsisNnBackend::kDsp:
      return "DSP";
    case CmsisNnBackend::kMve:
      return "MVE";
  }
  return "?";
}

int64_t ConvolveWrapperS8BufferSize(CmsisNnBackend backend, const CmsisConv& c) {
  if (Is1x1(c)) {
    // Fast (unit stride) 1x1: arm_convolve_1x1_s8_fast_get_buffer_size is
    // 2 * C int16 on DSP under Arm Compiler only; 0 under GCC and on the
    // other backends. The strided 1x1 kernel needs none.
    return 0;
  }
  if (backend == CmsisNnBackend::kMve) {
    return Is1xN(c) ? Conv1xNS8Mve(c) : ConvS8Mve(c.input, c.filter);
  }
  // Scalar and DSP: the 1xN kernel uses the im2col size too.
  return ConvS8Im2col(c.input, c.filter);
}

int64_t ConvolveWrapperS16BufferSize(CmsisNnBackend backend, const CmsisConv& c) {
  const Wide k = Wide{c.input.c} * c.filter.w * c.filter.h;
  if (backend == CmsisNnBackend::kMve) return Sat(4 * RoundUp(k, 8) * 2);  // 8-lane int16 registers
  return Sat(2 * k * 2);
}

int64_t DepthwiseConvWrapperS8BufferSize(CmsisNnBackend backend, const CmsisConv& c) {
  if (backend == CmsisNnBackend::kMve && c.input.c == 1 && c.output.c > kDwOneInChThresholdGcc) {
    // arm_deptwise_conv_s8_one_in_ch_get_buffer_size_mve: run as a regular
    // convolution (filter dims {c, h, w, n}) plus a copy of the filter.
    CmsisConv conv = c;
    conv.filter = CmsisDims{c.filter.c, c.filter.h, c.filter.w, c.filter.n};
    return Sat(Wide{ConvolveWrapperS8BufferSize(CmsisNnBackend::kMve, conv)} +
               Wide{c.filter.c} * c.filter.h * c.filter.w * c.filter.n);
  }
  if (c.input.c != c.output.c || c.input.n != 1 || c.dilation_w != 1 || c.dilation_h != 1) {
    return 0;
  }
  switch (backend) {
    case CmsisNnBackend::kMve:  // arm_depthwise_conv_s8_opt_get_buffer_size_mve
      return Sat(4 * Wide{kChInBlockMve} * c.filter.w * c.filter.h);
    case CmsisNnBackend::kDsp:
      // The 3x3 kernel with padding <= 1 needs none; otherwise
      // arm_depthwise_conv_s8_opt_get_buffer_size_dsp.
      if (c.filter.w == 3 && c.filter.h == 3 && c.pad_h <= 1 && c.pad_w <= 1) return 0;
      return Sat(Wide{c.input.c} * c.filter.w * c.filter.h * 2);
    case CmsisNnBackend::kScalar:
      return 0;
  }
  return 0;
}

int64_t DepthwiseConvWrapperS4BufferSize(CmsisNnBackend backend, const CmsisConv& c) {
  if (c.input.c != c.output.c || c.input.n != 1 || c.dilation_w != 1 || c.dilation_h != 1) {
    return 0;
  }
  // arm_depthwise_conv_s4_opt_get_buffer_size: the MVE size on MVE, the
  // DSP size on every other backend (scalar included).
  if (backend == CmsisNnBackend::kMve)
    return Sat(4 * Wide{kChInBlockMve} * c.filter.w * c.filter.h);
  return Sat(Wide{c.input.c} * c.filter.w * c.filter.h * 2);
}

int64_t FullyConnectedS8BufferSize(CmsisNnBackend backend, int64_t output_depth) {
  return backend == CmsisNnBackend::kMve ? Sat(Wide{output_depth} * 4) : 0;
}

int64_t AvgPoolBufferSize(CmsisNnBackend backend, int64_t channels) {
  return backend == CmsisNnBackend::kDsp ? Sat(Wide{channels} * 4) : 0;
}

int64_t SvdfS8BufferSize(CmsisNnBackend backend, int64_t num_filters) {
  return backend == CmsisNnBackend::kMve ? Sat(Wide{num_filters} * 4) : 0;
}

namespace {
bool ReverseConvUsed(const CmsisConv& c) {
  return c.stride_w <= 2 && c.stride_h <= 2 && c.input.c > kReverseTcolEfficientThreshold;
}
}  // namespace

int64_t TransposeConvS8BufferSize(CmsisNnBackend backend, const CmsisConv& c) {
  if (ReverseConvUsed(c)) {
    const CmsisDims reverse_input{c.input.n, c.input.h * c.stride_h, c.input.w * c.stride_w,
                                  c.input.c};
    return backend == CmsisNnBackend::kMve ? ConvS8Mve(reverse_input, c.filter)
                                           : ConvS8Im2col(reverse_input, c.filter);
  }
  // Column buffer. CMSIS-NN takes max(filter width, stride HEIGHT) here.
  const Wide buf_x =
      (Wide{c.input.w - 1} * c.stride_w + std::max(c.filter.w, c.stride_h)) * c.output.c;
  const Wide buf_y = std::max(c.filter.h, c.stride_h);
  return Sat(buf_x * buf_y * 4);
}

int64_t TransposeConvS8ReverseBufferSize(const CmsisConv& c) {
  return ReverseConvUsed(c) ? Sat(Wide{c.input.c} * c.filter.w * c.filter.h * c.filter.n) : 0;
}

namespace {

struct NodeView {
  const model::Model& model;
  size_t sg;
  size_t op_index;
  const model::OperatorInfo& op;
  const char* name;

  Status Tensor(bool output, int index, model::TensorInfo* t, bool* present) const {
    Span<const int32_t> list = output ? op.outputs : op.inputs;
    *present = index >= 0 && static_cast<size_t>(index) < list.size() && list[index] >= 0;
    if (!*present) return Status::Ok();
    return model.tensor(sg, static_cast<size_t>(list[index]), t);
  }
  // A tensor that must be there with `rank` dimensions (0: any rank >= 1).
  Status Need(bool output, int index, size_t rank, model::TensorInfo* t) const {
    bool present = false;
    TFLM_ARENA_RETURN_IF_ERROR(Tensor(output, index, t, &present));
    if (!present || t->shape.empty() || (rank != 0 && t->shape.size() != rank)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s operator %zu (subgraph %zu): %s %d missing or not of rank %zu", name,
                           op_index, sg, output ? "output" : "input", index, rank);
    }
    return Status::Ok();
  }
  // The operator's options as TFLM's parser reads them: a table of
  // another type is no table (builtin_options_as_<T>() is null, the params
  // keep their zero defaults), never read as if it were `type`.
  Status Options(model::OptionsType type, model::OptionsTable* table) const {
    TFLM_ARENA_RETURN_IF_ERROR(model.builtin_options(sg, op_index, table));
    if (table->present() && table->type() != type) *table = model::OptionsTable();
    return Status::Ok();
  }
  // CMSIS-NN divides by the strides.
  Status PositiveStrides(const CmsisConv& c) const {
    if (c.stride_w > 0 && c.stride_h > 0 && c.dilation_w > 0 && c.dilation_h > 0) {
      return Status::Ok();
    }
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s operator %zu (subgraph %zu): stride %lldx%lld, dilation %lldx%lld: "
                         "the CMSIS-NN size model needs positive values",
                         name, op_index, sg, static_cast<long long>(c.stride_w),
                         static_cast<long long>(c.stride_h), static_cast<long long>(c.dilation_w),
                         static_cast<long long>(c.dilation_h));
  }
  Status BadOptions() const {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s operator %zu (subgraph %zu): malformed builtin options", name,
                         op_index, sg);
  }
};

CmsisDims Nhwc(const model::TensorInfo& t) {
  return CmsisDims{t.shape[0], t.shape[1], t.shape[2], t.shape[3]};
}

void Scratch(std::vector<CmsisNnAllocation>* out, int64_t bytes, const char* what) {
  out->push_back(CmsisNnAllocation{false, static_cast<uint64_t>(bytes), what});
}
void Persistent(std::vector<CmsisNnAllocation>* out, int64_t bytes, const char* what) {
  out->push_back(CmsisNnAllocation{true, static_cast<uint64_t>(bytes), what});
}

// Conv2DOptions / DepthwiseConv2DOptions: padding, stride, dilation, and the
// padding CalculateOpDataConv / CalculateOpDataDepthwiseConv computes.
Status ConvGeometry(const NodeView& n, bool depthwise, const model::TensorInfo& in,
                    const model::TensorInfo& filter, const model::TensorInfo& output,
                    CmsisConv* c) {
  model::OptionsTable table;
  TFLM_ARENA_RETURN_IF_ERROR(
      n.Options(depthwise ? model::kDepthwiseConv2DOptions : model::kConv2DOptions, &table));
  const model::Padding padding = static_cast<model::Padding>(table.UInt8(0, 0));
  c->stride_w = table.Int32(1, 0);
  c->stride_h = table.Int32(2, 0);
  c->dilation_w = table.Int32(depthwise ? 5 : 4, 1);
  c->dilation_h = table.Int32(depthwise ? 6 : 5, 1);
  if (!table.ok()) return n.BadOptions();
  TFLM_ARENA_RETURN_IF_ERROR(n.PositiveStrides(*c));
  c->input = Nhwc(in);
  c->output = Nhwc(output);
  c->filter = CmsisDims{1, filter.shape[1], filter.shape[2], filter.shape[3]};
  c->pad_h = ConvPadding(padding, c->stride_h, c->dilation_h, in.shape[1], filter.shape[1]);
  c->pad_w = ConvPadding(padding, c->stride_w, c->dilation_w, in.shape[2], filter.shape[2]);
  return Status::Ok();
}

// A convolution's size functions at one CMSIS-NN commit.
struct ConvSizes {
  int64_t (*s8)(CmsisNnBackend, const CmsisConv&);
  int64_t (*s16)(CmsisNnBackend, const CmsisConv&);
};
constexpr ConvSizes kConvSizes4ab83cc{ConvolveWrapperS8BufferSize, ConvolveWrapperS16BufferSize};
constexpr ConvSizes kConvSizesE98ee09{ConvolveWrapperS8BufferSizeE98ee09,
                                      ConvolveWrapperS16BufferSizeE98ee09};
// A depthwise convolution's: int8 filters, int4 filters.
struct DepthwiseSizes {
  int64_t (*s8)(CmsisNnBackend, const CmsisConv&);
  int64_t (*s4)(CmsisNnBackend, const CmsisConv&);
};
constexpr DepthwiseSizes kDepthwiseSizes4ab83cc{DepthwiseConvWrapperS8BufferSize,
                                                DepthwiseConvWrapperS4BufferSize};
// e98ee09's kernel sizes every filter type with the s8 function.
constexpr DepthwiseSizes kDepthwiseSizesE98ee09{DepthwiseConvWrapperS8BufferSizeE98ee09,
                                                DepthwiseConvWrapperS8BufferSizeE98ee09};

Status ConvRule(const NodeView& n, CmsisNnBackend backend, const ConvSizes& sizes,
                std::vector<CmsisNnAllocation>* out) {
  model::TensorInfo in, filter, output;
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 0, 4, &in));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 1, 4, &filter));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(true, 0, 4, &output));
  if (in.type != TensorType::kInt8 && in.type != TensorType::kInt16) return Status::Ok();
  CmsisConv c;
  TFLM_ARENA_RETURN_IF_ERROR(ConvGeometry(n, false, in, filter, output, &c));
  // At 4ab83cc the bias is read with AllocateTempOutputTensor(node,
  // kConvBiasTensor), which finds no third output: bias_type is
  // kTfLiteNoType, so int16 always takes the CMSIS-NN path (e98ee09's kernel
  // does not look at the bias).
  const int64_t bytes = in.type == TensorType::kInt8 ? sizes.s8(backend, c) : sizes.s16(backend, c);
  if (bytes > 0) Scratch(out, bytes, "CMSIS-NN convolution buffer");
  return Status::Ok();
}

Status DepthwiseRule(const NodeView& n, CmsisNnBackend backend, const DepthwiseSizes& sizes,
                     std::vector<CmsisNnAllocation>* out) {
  model::TensorInfo in, filter, output;
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 0, 4, &in));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 1, 4, &filter));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(true, 0, 4, &output));
  if (in.type != TensorType::kInt8) return Status::Ok();
  CmsisConv c;
  TFLM_ARENA_RETURN_IF_ERROR(ConvGeometry(n, true, in, filter, output, &c));
  // input_dims.n: the batch; filter_dims {1, h, w, output depth}.
  c.filter.c = output.shape[3];
  const int64_t bytes =
      filter.type == TensorType::kInt4 ? sizes.s4(backend, c) : sizes.s8(backend, c);
  if (bytes > 0) Scratch(out, bytes, "CMSIS-NN depthwise buffer");
  return Status::Ok();
}

Status FullyConnectedRule(const NodeView& n, CmsisNnBackend backend,
                          std::vector<CmsisNnAllocation>* out) {
  model::TensorInfo in, filter, output, bias;
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 0, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 1, 0, &filter));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(true, 0, 0, &output));
  bool has_bias = false;
  TFLM_ARENA_RETURN_IF_ERROR(n.Tensor(false, 2, &bias, &has_bias));
  if (in.type != TensorType::kInt8 || filter.type == TensorType::kInt4) return Status::Ok();
  const int64_t accum_depth = filter.shape[filter.shape.size() - 1];
  const int64_t output_depth = output.shape[output.shape.size() - 1];
  const bool per_channel = filter.scale.size() > 1;  // CalculateOpDataFullyConnected
  if (output.shape.size() > 2 && accum_depth % 4 == 0) {
    // Run as a 1x1 convolution; per-tensor quantization is faked per
    // channel in a scratch of output_depth multipliers and shifts. The fast
    // 1x1 buffer is 0 under GCC.
    if (!per_channel) Scratch(out, output_depth * 4 * 2, "CMSIS-NN 1x1 per-channel quantization");
    return Status::Ok();
  }
  const int64_t bytes = FullyConnectedS8BufferSize(backend, output_depth);
  if (bytes <= 0) return Status::Ok();
  // KERNELS_OPTIMIZED_FOR_SPEED: kernel sums precomputed into a persistent
  // buffer when the filter (and bias, if any) are constant.
  if (filter.has_constant_data && (!has_bias || bias.has_constant_data)) {
    Persistent(out, bytes, "CMSIS-NN kernel sums");
  } else {
    Scratch(out, bytes, "CMSIS-NN fully connected buffer");
  }
  return Status::Ok();
}

// The Arduino library's cmsis_nn/fully_connected.cpp: an int8 layer whose
// output has rank > 2 and whose accumulation depth is a multiple of 4 runs
// as a 1x1 convolution, with per-channel multipliers and shifts in two
// persistent arrays; every buffer size is 0 at e98ee09.
Status FullyConnectedRuleE98ee09(const NodeView& n, std::vector<CmsisNnAllocation>* out) {
  model::TensorInfo in, filter, output;
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 0, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 1, 0, &filter));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(true, 0, 0, &output));
  if (in.type != TensorType::kInt8) return Status::Ok();
  const int64_t accum_depth = filter.shape[filter.shape.size() - 1];
  const int64_t output_depth = output.shape[output.shape.size() - 1];
  if (output.shape.size() > 2 && accum_depth % 4 == 0) {
    Persistent(out, Sat(Wide{output_depth} * 4), "CMSIS-NN 1x1 per-channel multipliers");
    Persistent(out, Sat(Wide{output_depth} * 4), "CMSIS-NN 1x1 per-channel shifts");
  }
  return Status::Ok();
}

Status AveragePoolRule(const NodeView& n, CmsisNnBackend backend,
                       std::vector<CmsisNnAllocation>* out) {
  model::TensorInfo in, output;
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 0, 4, &in));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(true, 0, 4, &output));
  if (in.type != TensorType::kInt8 && in.type != TensorType::kInt16) return Status::Ok();
  const int64_t bytes = AvgPoolBufferSize(backend, output.shape[3]);
  if (bytes > 0) Scratch(out, bytes, "CMSIS-NN average pool buffer");
  return Status::Ok();
}

Status SvdfRule(const NodeView& n, CmsisNnBackend backend, std::vector<CmsisNnAllocation>* out,
                std::string* refusal) {
  model::TensorInfo in, weights_feature, output;
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 0, 2, &in));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 1, 2, &weights_feature));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(true, 0, 2, &output));
  const int64_t batch = in.shape[0];
  const int64_t filters = weights_feature.shape[0];
  const int64_t units = output.shape[1];
  Scratch(out, Sat(Wide{batch} * filters * 4), "SVDF scratch");
  if (in.type != TensorType::kInt8) return Status::Ok();
  Scratch(out, Sat(Wide{batch} * units * 4), "SVDF output scratch");
  const int64_t bytes = SvdfS8BufferSize(backend, filters);
  if (bytes > 0) {
    // KERNELS_OPTIMIZED_FOR_SPEED: kernel sums in a persistent buffer.
    if (!weights_feature.has_constant_data) {
      out->clear();
      *refusal = "IsConstantTensor(weights_feature) was not true.";
      return Status::Ok();
    }
    Persistent(out, bytes, "CMSIS-NN kernel sums");
  }
  return Status::Ok();
}

Status LstmRule(const NodeView& n, std::vector<CmsisNnAllocation>* out) {
  // Input 0: activations; 18: hidden (output) state {batch, state};
  // 19: cell state.
  model::TensorInfo in, hidden, cell;
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 0, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 18, 2, &hidden));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 19, 0, &cell));
  const int64_t state = hidden.shape[1];
  const int64_t batch_state = Sat(Wide{hidden.num_elements});
  int buffers = 4;
  if (cell.type == TensorType::kInt16 &&
      (in.type == TensorType::kInt8 || in.type == TensorType::kInt16)) {
    // CMSIS_NN_PortOpData: 8 kernel-sum arrays (input and recurrent, per
    // gate) of state_dimension int32 (int8 activations) or int64 (int16).
    const int64_t width = in.type == TensorType::kInt8 ? 4 : 8;
    for (int i = 0; i < 8; ++i) Persistent(out, state * width, "CMSIS-NN LSTM kernel sums");
    buffers = 3;
  }
  const int64_t bytes = Sat(Wide{batch_state} * model::ElementByteSize(cell.type));
  for (int i = 0; i < buffers; ++i) Scratch(out, bytes, "LSTM scratch");
  return Status::Ok();
}

Status TransposeConvRule(const NodeView& n, CmsisNnBackend backend,
                         std::vector<CmsisNnAllocation>* out) {
  // Inputs: 0 output shape, 1 filter {out c, h, w, in c}, 2 input, 3 bias.
  model::TensorInfo in, filter, output, bias;
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 2, 4, &in));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(false, 1, 4, &filter));
  TFLM_ARENA_RETURN_IF_ERROR(n.Need(true, 0, 4, &output));
  bool has_bias = false;
  TFLM_ARENA_RETURN_IF_ERROR(n.Tensor(false, 3, &bias, &has_bias));
  if (in.type == TensorType::kInt8) {
    model::OptionsTable table;
    TFLM_ARENA_RETURN_IF_ERROR(n.Options(model::kTransposeConvOptions, &table));
    CmsisConv c;
    c.stride_w = table.Int32(1, 0);
    c.stride_h = table.Int32(2, 0);
    if (!table.ok()) return n.BadOptions();
    TFLM_ARENA_RETURN_IF_ERROR(n.PositiveStrides(c));
    c.input = Nhwc(in);
    c.output = Nhwc(output);
    c.filter = CmsisDims{filter.shape[0], filter.shape[1], filter.shape[2], in.shape[3]};
    // Both are requested even when 0 bytes.
    Scratch(out, TransposeConvS8BufferSize(backend, c), "CMSIS-NN transpose conv buffer");
    Scratch(out, TransposeConvS8ReverseBufferSize(c), "CMSIS-NN reversed filter");
  } else if (in.type == TensorType::kInt16) {
    Scratch(out, static_cast<int64_t>(output.num_elements) * 8, "int64 accumulators");
    // CalculateOpData: a 64-bit copy of a 16-bit bias.
    if (has_bias && bias.type == TensorType::kInt16) {
      Scratch(out, static_cast<int64_t>(bias.num_elements) * 8, "int64 bias copy");
    }
  }
  return Status::Ok();
}

// Opdata: sizeof of each cmsis_nn kernel's OpData, measured with
// arm-linux-gnueabihf-g++ (AAPCS, as on Cortex-M) on TFLM's and CMSIS-NN's
// headers. CMSIS-NN is built for Arm cores only, so the x86-64 column is never
// read (every CMSIS-NN target names the cortex-m layout); it repeats the
// cortex-m value.
// clang-format off: one row per kernel, its steps grouped as the kernel's Prepare does them.
constexpr KernelRow kCmsisNn[] = {
    // OpData = OpDataConv + buffer index. Bias is looked up among the
    // outputs (Out(2): nothing); per-channel arrays for int8/int16 only.
    {"CONV_2D",
     "cmsis_nn/conv.cc conv_common.cc",
     {{28, 4}, {28, 4}},
     {60, 60},
     {In(0), In(1), Out(0), Out(2), IfQuantized(PerChannel(1, 0), 0), In(0), In(1), In(2),
      Out(0),  // CalculateOpDataConv
      CmsisNn(static_cast<uint8_t>(CmsisNnRule::kConv))},
     TypeRule::kConv},
    {"DEPTHWISE_CONV_2D",
     "cmsis_nn/depthwise_conv.cc depthwise_conv_common.cc",
     {{28, 4}, {28, 4}},
     {60, 60},
     {In(0), In(1), Out(0), IfQuantized(PerChannel(1, 3), 0), In(0), In(1), In(2),
      Out(0),  // CalculateOpDataDepthwiseConv
      CmsisNn(static_cast<uint8_t>(CmsisNnRule::kDepthwiseConv))},
     TypeRule::kDepthwiseConv},
    // OpData = OpDataFullyConnected + 2 buffer indices, kernel-sum pointer,
    // batches, accum_depth, output_depth.
    {"FULLY_CONNECTED",
     "cmsis_nn/fully_connected.cc fully_connected_common.cc",
     {{16, 4}, {16, 4}},
     {72, 72},
     {In(0), In(1), In(2), Out(0), PerChannelIfMulti(1),
      CmsisNn(static_cast<uint8_t>(CmsisNnRule::kFullyConnected))},
     TypeRule::kFullyConnected},
    // OpData = CMSISNNSoftmaxParams (SoftmaxParams + num_rows, row_size).
    {"SOFTMAX",
     "cmsis_nn/softmax.cc softmax_common.cc",
     {{4, 4}, {4, 4}},
     {64, 64},
     {In(0), Out(0), Luts16()}},
    // OpData = OpDataPooling + buffer index; PoolingPrepare, then the
    // average pool's own temps and scratch.
    {"AVERAGE_POOL_2D",
     "cmsis_nn/pooling.cc pooling_common.cc",
     {{40, 4}, {40, 4}},
     {36, 36},
     {In(0), Out(0), In(0), Out(0), CmsisNn(static_cast<uint8_t>(CmsisNnRule::kAveragePool))}},
    {"MAX_POOL_2D",
     "cmsis_nn/pooling.cc pooling_common.cc",
     {{40, 4}, {40, 4}},
     {36, 36},
     {In(0), Out(0)}},
    // add.cc's own OpData (60 bytes, as the reference one).
    {"ADD", "cmsis_nn/add.cc", {{8, 4}, {8, 4}}, {60, 60}, {In(0), In(1), Out(0)}},
    // MulInit / MulPrepare of mul_common.cc.
    {"MUL", "cmsis_nn/mul.cc mul_common.cc", {{4, 4}, {4, 4}}, {36, 36}, {In(0), In(1), Out(0)}},
    // PadInit / PadPrepare of pad_common.cc.
    {"PAD",
     "cmsis_nn/pad.cc pad_common.cc (parser allocates nothing)",
     {{0, 1}, {0, 1}},
     {56, 56},
     {In(0), In(1), In(2), Out(0)}},
    {"TRANSPOSE",
     "cmsis_nn/transpose.cc transpose_common.cc (no Init, no options struct)",
     {{0, 1}, {0, 1}},
     {0, 0},
     {In(0), In(1), Out(0)}},
    {"MAXIMUM", "cmsis_nn/maximum_minimum.cc (no Init, no Prepare)", {{0, 1}, {0, 1}}, {0, 0}, {}},
    {"MINIMUM", "cmsis_nn/maximum_minimum.cc (no Init, no Prepare)", {{0, 1}, {0, 1}}, {0, 0}, {}},
    // OpData = CmsisNnOpDataSvdf (9 ints, kernel-sum pointer).
    {"SVDF",
     "cmsis_nn/svdf.cc",
     {{12, 4}, {12, 4}},
     {40, 40},
     {InRange(0, 4), Out(0), CmsisNn(static_cast<uint8_t>(CmsisNnRule::kSvdf))},
     TypeRule::kSvdf},
    // OpData = ConvParams + 3 buffer indices + 2 per-channel pointers.
    {"TRANSPOSE_CONV",
     "cmsis_nn/transpose_conv.cc",
     {{20, 4}, {20, 4}},
     {76, 76},
     {Out(0), In(2), In(1), PerChannel(1, 0),
      CmsisNn(static_cast<uint8_t>(CmsisNnRule::kTransposeConv)), IfQuantized(In(2), 2),
      IfQuantized(In(1), 2),  // CalculateOpData
      IfQuantized(In(3), 2), IfQuantized(Out(0), 2)},
     TypeRule::kTransposeConv},
    // OpData = OpDataLSTM + cmsis_nn_lstm_params.
    {"UNIDIRECTIONAL_SEQUENCE_LSTM",
     "cmsis_nn/unidirectional_sequence_lstm.cc lstm_eval.cc",
     {{16, 4}, {16, 4}},
     {912, 912},
     {InRange(0, 23), Out(0), CmsisNn(static_cast<uint8_t>(CmsisNnRule::kLstm))}},
};
// clang-format on

}  // namespace

Status CmsisNnPrepare(CmsisNnRule rule, CmsisNnBackend backend, const model::Model& model,
                      size_t sg, size_t op_index, const model::OperatorInfo& op,
                      std::vector<CmsisNnAllocation>* out, std::string* refusal_reason) {
  out->clear();
  refusal_reason->clear();
  const char* names[] = {"CONV_2D",
                         "DEPTHWISE_CONV_2D",
                         "FULLY_CONNECTED",
                         "AVERAGE_POOL_2D",
                         "SVDF",
                         "UNIDIRECTIONAL_SEQUENCE_LSTM",
                         "TRANSPOSE_CONV",
                         "CONV_2D",
                         "DEPTHWISE_CONV_2D",
                         "FULLY_CONNECTED"};
  const size_t r = static_cast<size_t>(rule);
  if (r >= sizeof(names) / sizeof(names[0])) {
    return Status::Error(StatusCode::kInternal, "unknown CMSIS-NN rule %zu", r);
  }
  const NodeView n{model, sg, op_index, op, names[r]};
  Status s = Status::Ok();
  switch (rule) {
    case CmsisNnRule::kConv:
      s = ConvRule(n, backend, kConvSizes4ab83cc, out);
      break;
    case CmsisNnRule::kDepthwiseConv:
      s = DepthwiseRule(n, backend, kDepthwiseSizes4ab83cc, out);
      break;
    case CmsisNnRule::kFullyConnected:
      s = FullyConnectedRule(n, backend, out);
      break;
    case CmsisNnRule::kAveragePool:
      s = AveragePoolRule(n, backend, out);
      break;
    case CmsisNnRule::kSvdf:
      s = SvdfRule(n, backend, out, refusal_reason);
      break;
    case CmsisNnRule::kLstm:
      s = LstmRule(n, out);
      break;
    case CmsisNnRule::kTransposeConv:
      s = TransposeConvRule(n, backend, out);
      break;
    case CmsisNnRule::kConvE98ee09:
      s = ConvRule(n, backend, kConvSizesE98ee09, out);
      break;
    case CmsisNnRule::kDepthwiseConvE98ee09:
      s = DepthwiseRule(n, backend, kDepthwiseSizesE98ee09, out);
      break;
    case CmsisNnRule::kFullyConnectedE98ee09:
      s = FullyConnectedRuleE98ee09(n, out);
      break;
  }
  TFLM_ARENA_RETURN_IF_ERROR(s);
  // CMSIS-NN and TFLM compute these sizes in int32.
  for (const CmsisNnAllocation& a : *out) {
    if (a.bytes > static_cast<uint64_t>(INT32_MAX)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s operator %zu (subgraph %zu): %s of %llu bytes overflows the int32 "
                           "that CMSIS-NN and TFLM compute it in",
                           names[r], op_index, sg, a.what,
                           static_cast<unsigned long long>(a.bytes));
    }
  }
  return Status::Ok();
}

Span<const KernelRow> CmsisNnOwnKernels() {
  return Span<const KernelRow>(kCmsisNn, sizeof(kCmsisNn) / sizeof(kCmsisNn[0]));
}

Span<const KernelRow> CmsisNnKernels() {
  // Built once and kept for the process.
  static const std::vector<KernelRow>* const table =
      new std::vector<KernelRow>(WithReferenceKernels(CmsisNnOwnKernels()));
  return Span<const KernelRow>(table->data(), table->size());
}

}  // namespace tflm
}  // namespace tflm_arena
