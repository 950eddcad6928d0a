// Decodes the builtin option tables declared in tflite_subset.fbs. The
// verifier has already checked these tables (they are union members the
// schema subset names), so reading them is safe.
#include "tflm_arena/model/builtin_options.h"

#include "tflm_arena/model/model.h"
#include "tflm_arena/model/schema_access.h"

namespace tflm_arena {
namespace model {

namespace fb = internal::fb;

namespace {
Activation Act(fb::ActivationFunctionType a) { return static_cast<Activation>(a); }
Padding Pad(fb::Padding p) { return static_cast<Padding>(p); }
}  // namespace

Status Model::builtin_options(size_t subgraph, size_t op, model::BuiltinOptions* out) const {
  OperatorInfo info;
  TFLM_ARENA_RETURN_IF_ERROR(this->op(subgraph, op, &info));
  const fb::Operator* o = internal::Root(root_)->subgraphs()->Get(subgraph)->operators()->Get(op);
  *out = model::BuiltinOptions();
  using Kind = model::BuiltinOptions::Kind;
  if (const fb::Conv2DOptions* c = o->builtin_options_as_Conv2DOptions()) {
    out->kind = Kind::kConv;
    out->conv = ConvOptions{Pad(c->padding()), c->stride_w(), c->stride_h(),
                            c->dilation_w_factor(), c->dilation_h_factor(),
                            Act(c->fused_activation_function()),
                            static_cast<int8_t>(c->quantized_bias_type())};
  } else if (const fb::DepthwiseConv2DOptions* d = o->builtin_options_as_DepthwiseConv2DOptions()) {
    out->kind = Kind::kDepthwiseConv;
    out->depthwise = DepthwiseConvOptions{Pad(d->padding()), d->stride_w(), d->stride_h(),
                                          d->depth_multiplier(), d->dilation_w_factor(),
                                          d->dilation_h_factor(),
                                          Act(d->fused_activation_function())};
  } else if (const fb::Pool2DOptions* p = o->builtin_options_as_Pool2DOptions()) {
    out->kind = Kind::kPool;
    out->pool = PoolOptions{Pad(p->padding()), p->stride_w(), p->stride_h(), p->filter_width(),
                            p->filter_height(), Act(p->fused_activation_function())};
  } else if (const fb::FullyConnectedOptions* f = o->builtin_options_as_FullyConnectedOptions()) {
    out->kind = Kind::kFullyConnected;
    out->fully_connected = FullyConnectedOptions{Act(f->fused_activation_function()),
                                                 static_cast<uint8_t>(f->weights_format()),
                                                 f->keep_num_dims()};
  } else if (const fb::SoftmaxOptions* s = o->builtin_options_as_SoftmaxOptions()) {
    out->kind = Kind::kSoftmax;
    out->softmax.beta = s->beta();
  } else if (const fb::AddOptions* a = o->builtin_options_as_AddOptions()) {
    out->kind = Kind::kAdd;
    out->add.activation = Act(a->fused_activation_function());
  } else if (const fb::ReshapeOptions* r = o->builtin_options_as_ReshapeOptions()) {
    out->kind = Kind::kReshape;
    out->reshape.has_new_shape = r->new_shape() != nullptr;
    out->reshape.new_shape = internal::ToSpan(r->new_shape());
  }
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena
