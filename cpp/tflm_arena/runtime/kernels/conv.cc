// CONV_2D glue: init / prepare / invoke over KernelContext (math in
// conv_math.cc).
//
// Persistent memory per node: ConvOpData (conv_glue.h) in init; for int8 /
// int16 one array of 2 x output-channels int32 (multipliers, then shifts) in
// prepare. TFLM allocates its OpDataConv (72 bytes on 64-bit) plus two int32
// arrays of output-channels entries, for float too. No scratch (TFLM requests
// scratch only for int4 filters, which we do not run).
#include "tflm_arena/runtime/kernels/conv.h"

#include <new>

#include "tflm_arena/runtime/kernels/conv_glue.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "CONV_2D";

Status ConvPrepare(KernelContext& context, Node& node) {
  return PrepareConvNode<ConvOptions>(context, node, kOp,
                                      model::OptionsTypeName(model::kConv2DOptions), PrepareConv,
                                      ConvOutputChannels, ConvMultipliers);
}

Status ConvInvoke(KernelContext& context, Node& node) {
  return InvokeConvNode(context, node, kOp, ConvFloat, ConvPerChannelInt8, ConvPerChannelInt16);
}

// Conv2DOptions: padding 0, stride_w 1, stride_h 2, fused_activation_function
// 3, dilation_w_factor 4 (default 1), dilation_h_factor 5 (default 1),
// quantized_bias_type 6.
void ReadConv(model::OptionsTable& table, ConvOptions& o) {
  o.padding = static_cast<model::Padding>(table.UInt8(0, 0));
  o.stride_w = table.Int32(1, 0);
  o.stride_h = table.Int32(2, 0);
  o.activation = static_cast<model::Activation>(table.UInt8(3, 0));
  o.dilation_w = table.Int32(4, 1);
  o.dilation_h = table.Int32(5, 1);
  o.quantized_bias_type = table.Int8(6, 0);
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinConv2D, kOp, InitOpData<ConvOpData>, ConvPrepare, ConvInvoke,
                     OptionsReader<ConvOptions, ReadConv>(model::kConv2DOptions));

}  // namespace

const KernelRegistration& Register_CONV_2D() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
