// CONV_2D glue: init / prepare / invoke over KernelContext (math in
// conv_math.cc).
//
// Persistent memory per node: ConvOpData (conv_glue.h) in init; for int8 /
// int16 one array of 2 x output-channels int32 (multipliers, then shifts) in
// prepare. TFLM allocates its OpDataConv (72 bytes on 64-bit) plus two int32
// arrays of output-channels entries, for float too. No scratch (TFLM requests
// scratch only for int4 filters, which we do not run).
#include "tflm_arena/runtime/kernels/conv.h"

#include "tflm_arena/runtime/kernels/conv_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "CONV_2D";

Status ConvPrepare(KernelContext& context, Node& node) {
  return PrepareConvNode<model::ConvOptions>(context, node, kOp, "Conv2DOptions", PrepareConv,
                                             ConvOutputChannels, ConvMultipliers);
}

Status ConvInvoke(KernelContext& context, Node& node) {
  return InvokeConvNode(context, node, kOp, ConvFloat, ConvPerChannelInt8, ConvPerChannelInt16);
}

}  // namespace

const KernelRegistration& Register_CONV_2D() {
  static const KernelRegistration registration = {3, kOp, InitWeightedOpData<ConvOpData>,
                                                  ConvPrepare, ConvInvoke, nullptr};
  return registration;
}

}  // namespace runtime
}  // namespace tflm_arena
