// DEPTHWISE_CONV_2D glue: init / prepare / invoke over KernelContext (math in
// depthwise_conv_math.cc).
//
// Persistent memory per node: ConvOpData (conv_glue.h) in init; for int8 one
// array of 2 x output-channels int32 (multipliers, then shifts) in prepare.
// TFLM allocates its OpDataConv (72 bytes on 64-bit) plus two int32 arrays of
// output-channels entries, for float too. No scratch (TFLM requests scratch
// only for int4 filters, which we do not run).
#include "tflm_arena/runtime/kernels/depthwise_conv.h"

#include "tflm_arena/runtime/kernels/conv_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "DEPTHWISE_CONV_2D";

// PrepareDepthwiseConv accepts only FLOAT32 and INT8 inputs, so the
// per-channel multipliers PrepareConvNode computes for every non-float input
// are exactly the int8 ones.
Status DepthwisePrepare(KernelContext& context, Node& node) {
  return PrepareConvNode<model::DepthwiseConvOptions>(
      context, node, kOp, "DepthwiseConv2DOptions", PrepareDepthwiseConv,
      DepthwiseOutputChannels, DepthwiseConvMultipliers);
}

Status DepthwiseInvoke(KernelContext& context, Node& node) {
  return InvokeConvNode(context, node, kOp, DepthwiseConvFloat, DepthwiseConvPerChannelInt8,
                        /*run_int16=*/nullptr);
}

}  // namespace

const KernelRegistration& Register_DEPTHWISE_CONV_2D() {
  static const KernelRegistration registration = {
      4, kOp, InitWeightedOpData<ConvOpData>, DepthwisePrepare, DepthwiseInvoke, nullptr};
  return registration;
}

}  // namespace runtime
}  // namespace tflm_arena
