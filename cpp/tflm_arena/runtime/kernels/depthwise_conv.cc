// DEPTHWISE_CONV_2D glue: init / prepare / invoke over KernelContext (math in
// depthwise_conv_math.cc).
//
// Persistent memory per node: ConvOpData (conv_glue.h) in init; for int8 one
// array of 2 x output-channels int32 (multipliers, then shifts) in prepare.
// TFLM allocates its OpDataConv (72 bytes on 64-bit) plus two int32 arrays of
// output-channels entries, for float too. No scratch (TFLM requests scratch
// only for int4 filters, which we do not run).
#include "tflm_arena/runtime/kernels/depthwise_conv.h"

#include <new>

#include "tflm_arena/runtime/kernels/conv_glue.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "DEPTHWISE_CONV_2D";

// PrepareDepthwiseConv accepts only FLOAT32 and INT8 inputs, so the
// per-channel multipliers PrepareConvNode computes for every non-float input
// are exactly the int8 ones.
Status DepthwisePrepare(KernelContext& context, Node& node) {
  return PrepareConvNode<DepthwiseConvOptions>(
      context, node, kOp, model::OptionsTypeName(model::kDepthwiseConv2DOptions),
      PrepareDepthwiseConv, DepthwiseOutputChannels, DepthwiseConvMultipliers);
}

Status DepthwiseInvoke(KernelContext& context, Node& node) {
  return InvokeConvNode(context, node, kOp, DepthwiseConvFloat, DepthwiseConvPerChannelInt8,
                        /*run_int16=*/nullptr);
}

// DepthwiseConv2DOptions: padding 0, stride_w 1, stride_h 2,
// depth_multiplier 3, fused_activation_function 4, dilation_w_factor 5
// (default 1), dilation_h_factor 6 (default 1).
void ReadDepthwiseConv(model::OptionsTable& table, DepthwiseConvOptions& o) {
  o.padding = static_cast<model::Padding>(table.UInt8(0, 0));
  o.stride_w = table.Int32(1, 0);
  o.stride_h = table.Int32(2, 0);
  o.depth_multiplier = table.Int32(3, 0);
  o.activation = static_cast<model::Activation>(table.UInt8(4, 0));
  o.dilation_w = table.Int32(5, 1);
  o.dilation_h = table.Int32(6, 1);
}

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinDepthwiseConv2D, kOp, InitOpData<ConvOpData>, DepthwisePrepare, DepthwiseInvoke,
    OptionsReader<DepthwiseConvOptions, ReadDepthwiseConv>(model::kDepthwiseConv2DOptions));

}  // namespace

const KernelRegistration& Register_DEPTHWISE_CONV_2D() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
