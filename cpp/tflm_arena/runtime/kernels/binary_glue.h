// Shared by the two-input elementwise kernels (SUB, MUL, DIV, MAXIMUM,
// MINIMUM): numpy-style broadcasting checked at prepare and walked at
// invoke, and the KernelContext preambles. Header-only so both the glue and
// the math libraries can use it.
//
// Broadcasting (TFLM's ProcessBroadcastShapes / NdArrayDesc rule): shapes are
// right-aligned (missing leading dims are 1); in every dimension each input
// extent equals the output's or is 1, and the output extent is the inputs'
// common one. Up to rank 6 (TFLM's largest broadcast; MUL's float / int32
// path stops at 4, a superset here).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_BINARY_GLUE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_BINARY_GLUE_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/add.h"  // BroadcastDims, kMaxBroadcastRank
#include "tflm_arena/runtime/kernels/elementwise_util.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {

// Validates broadcasting of `in1` and `in2` to `out` and fills `dims`
// (kUnimplemented above rank 6, kInvalidArgument when the shapes do not
// broadcast to `out` or, unless `allow_negative_extent` (ADD's
// MakeBroadcastDims, which never checked it), an output extent is negative),
// naming `op`.
inline Status BinaryBroadcastDims(const char* op, Span<const int32_t> in1, Span<const int32_t> in2,
                                  Span<const int32_t> out, BroadcastDims* dims,
                                  bool allow_negative_extent = false) {
  const size_t max_rank = static_cast<size_t>(kMaxBroadcastRank);
  if (in1.size() > max_rank || in2.size() > max_rank || out.size() > max_rank) {
    return Status::Error(StatusCode::kUnimplemented,
                         "%s: broadcasting needs ranks <= %d (got %zu, %zu -> %zu)", op,
                         kMaxBroadcastRank, in1.size(), in2.size(), out.size());
  }
  auto extent = [](Span<const int32_t> s, int k) -> int32_t {
    const int lead = kMaxBroadcastRank - static_cast<int>(s.size());
    return k < lead ? 1 : s[static_cast<size_t>(k - lead)];
  };
  size_t s1 = 1, s2 = 1;
  for (int k = kMaxBroadcastRank - 1; k >= 0; --k) {
    const int32_t e1 = extent(in1, k);
    const int32_t e2 = extent(in2, k);
    const int32_t eo = extent(out, k);
    const int32_t common = e1 == 1 ? e2 : e1;
    if ((e2 != common && e2 != 1) || eo != common || (eo < 0 && !allow_negative_extent)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: shapes do not broadcast: dimension %d has extents %d and %d, "
                           "output %d",
                           op, k - kMaxBroadcastRank, e1, e2, eo);
    }
    dims->output[k] = eo;
    dims->stride1[k] = e1 == 1 ? 0 : s1;
    dims->stride2[k] = e2 == 1 ? 0 : s2;
    s1 *= static_cast<size_t>(e1);
    s2 *= static_cast<size_t>(e2);
  }
  return Status::Ok();
}

// Visits the output in row-major order; out[i] = f(in1[..], in2[..]).
template <typename T, typename U, typename F>
void BroadcastBinary(const BroadcastDims& d, const T* in1, const T* in2, U* out, F f) {
  constexpr int kLast = kMaxBroadcastRank - 1;
  size_t total = 1;
  for (int k = 0; k < kMaxBroadcastRank; ++k) total *= static_cast<size_t>(d.output[k]);
  if (total == 0) return;
  const size_t inner = static_cast<size_t>(d.output[kLast]);
  const size_t step1 = d.stride1[kLast], step2 = d.stride2[kLast];
  int32_t index[kMaxBroadcastRank] = {0};
  size_t base1 = 0, base2 = 0;
  for (size_t o = 0; o < total; o += inner) {
    size_t p1 = base1, p2 = base2;
    for (size_t c = 0; c < inner; ++c) {
      out[o + c] = f(in1[p1], in2[p2]);
      p1 += step1;
      p2 += step2;
    }
    for (int k = kLast - 1; k >= 0; --k) {  // odometer over the outer dims
      base1 += d.stride1[k];
      base2 += d.stride2[k];
      if (++index[k] < d.output[k]) break;
      base1 -= d.stride1[k] * static_cast<size_t>(d.output[k]);
      base2 -= d.stride2[k] * static_cast<size_t>(d.output[k]);
      index[k] = 0;
    }
  }
}

// Same shapes: out[i] = f(in1[i], in2[i]) for `n` elements.
template <typename T, typename U, typename F>
void ElementwiseBinary(size_t n, const T* in1, const T* in2, U* out, F f) {
  for (size_t i = 0; i < n; ++i) out[i] = f(in1[i], in2[i]);
}

// Either of the two above: `dims` is used only when `broadcast`.
template <typename T, typename U, typename F>
void RunBinary(bool broadcast, const BroadcastDims& dims, size_t n, const T* in1, const T* in2,
               U* out, F f) {
  if (broadcast) {
    BroadcastBinary(dims, in1, in2, out, f);
  } else {
    ElementwiseBinary(n, in1, in2, out, f);
  }
}

// Prepare preamble: OpData allocated when `needs_user_data` (kernels
// without init have none), exactly 2 inputs (neither omitted) and 1
// writable output, then their facts; the shapes are checked to broadcast
// (same shapes: the output's equals them), `*broadcast` says whether they
// differ.
inline Status GetBinaryNodeInfo(const KernelContext& context, const Node& node, const char* op,
                                bool needs_user_data, model::TensorInfo* in1,
                                model::TensorInfo* in2, model::TensorInfo* out, bool* broadcast) {
  if (needs_user_data && node.user_data == nullptr) return NodeNotPrepared(op);
  if (node.inputs.size() != 2 || node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: expected 2 inputs and 1 output, got %zu and %zu", op,
                         node.inputs.size(), node.outputs.size());
  }
  if (node.inputs[0] < 0 || node.inputs[1] < 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: input %d is omitted but both inputs are required", op,
                         node.inputs[0] < 0 ? 0 : 1);
  }
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, in1));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 1, in2));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(op, *out));
  *broadcast = !SameShape(in1->shape, in2->shape);
  if (*broadcast) {
    BroadcastDims unused;
    return BinaryBroadcastDims(op, in1->shape, in2->shape, out->shape, &unused);
  }
  if (!SameShape(out->shape, in1->shape)) {
    char out_text[64], in_text[64];
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output '%s' shape %s differs from the inputs' %s", op, out->name,
                         FormatShape(out->shape, out_text, sizeof(out_text)),
                         FormatShape(in1->shape, in_text, sizeof(in_text)));
  }
  return Status::Ok();
}

// Prepare: both inputs and the output have the type `out.type`.
inline Status RequireSameTypes(const char* op, const model::TensorInfo& in1,
                               const model::TensorInfo& in2, const model::TensorInfo& out,
                               bool type_ok) {
  if (!type_ok || in1.type != out.type || in2.type != out.type) {
    return Status::Error(StatusCode::kUnimplemented,
                         "%s: inputs %s, %s and output %s not supported", op,
                         model::TensorTypeName(in1.type), model::TensorTypeName(in2.type),
                         model::TensorTypeName(out.type));
  }
  return Status::Ok();
}

// Prepare of SUB / MUL on int32: TFLM runs only unquantized int32 tensors
// (kUnimplemented naming `op`), clamped to the activation's int32 range.
inline Status PrepareUnquantizedInt32(const char* op, model::Activation activation,
                                      const model::TensorInfo& in1, const model::TensorInfo& in2,
                                      const model::TensorInfo& out, int32_t* act_min,
                                      int32_t* act_max) {
  if (!in1.scale.empty() || !in2.scale.empty() || !out.scale.empty()) {
    return Status::Error(StatusCode::kUnimplemented, "%s: quantized INT32 tensors not supported",
                         op);
  }
  Int32ActivationRange(activation, act_min, act_max);
  return Status::Ok();
}

// Invoke preamble: both inputs and the output with data (NodeNotPrepared
// otherwise); `*count` gets the output's element count (0: nothing to do),
// `*broadcast` whether the input shapes differ, and then `dims` is filled
// from the tensors' current shapes (checked again: invoke trusts nothing
// prepare did not see).
inline Status GetBinaryTensors(const KernelContext& context, const Node& node, const char* op,
                               const EvalTensor** in1, const EvalTensor** in2, EvalTensor** out,
                               size_t* count, bool* broadcast, BroadcastDims* dims) {
  *in1 = context.input(node, 0);
  *in2 = context.input(node, 1);
  *out = context.output(node, 0);
  if (*in1 == nullptr || *in2 == nullptr || *out == nullptr) return NodeNotPrepared(op);
  const Span<const int32_t> s1((*in1)->dims, static_cast<size_t>((*in1)->rank));
  const Span<const int32_t> s2((*in2)->dims, static_cast<size_t>((*in2)->rank));
  const Span<const int32_t> so((*out)->dims, static_cast<size_t>((*out)->rank));
  const int64_t n = SafeElementCount(so);
  *count = n > 0 ? static_cast<size_t>(n) : 0;
  *broadcast = !SameShape(s1, s2);
  if (*broadcast) {
    TFLM_ARENA_RETURN_IF_ERROR(BinaryBroadcastDims(op, s1, s2, so, dims));
  } else if (!SameShape(so, s1)) {
    return NodeNotPrepared(op);
  }
  if (*count == 0) return Status::Ok();
  if ((*in1)->data == nullptr || (*in2)->data == nullptr || (*out)->data == nullptr) {
    return NodeNotPrepared(op);
  }
  return Status::Ok();
}

// Options of a node with builtin options: absent ones read as the format's
// defaults (TFLM zero-fills them).
template <typename Options>
Options OptionsOrDefault(const Node& node) {
  return node.builtin_data != nullptr ? node.options<Options>() : Options();
}

// The signatures every SUB / MUL / DIV kernel declares its functions with
// (`BinaryPrepareFn<MulOptions, MulOpData> PrepareMul;`), one source for
// the shape BinaryKernelFns stores.
//
// Prepare: checks the tensors' types and quantization (the shapes are
// checked by GetBinaryNodeInfo) and fills the OpData.
template <typename Options, typename OpData>
using BinaryPrepareFn = Status(const Options& options, const model::TensorInfo& input1,
                               const model::TensorInfo& input2, const model::TensorInfo& output,
                               OpData* data);
// Math on one output type T given the OpData: `broadcast` false: same
// shapes, `n` elements; true: walks `dims`.
template <typename T, typename OpData>
using BinaryMathFn = void(const OpData& data, bool broadcast, const BroadcastDims& dims, size_t n,
                          const T* in1, const T* in2, T* out);
// FLOAT32 math given the fused activation instead (SUB, DIV).
using BinaryFloatActivationFn = void(model::Activation activation, bool broadcast,
                                     const BroadcastDims& dims, size_t n, const float* in1,
                                     const float* in2, float* out);

// Prepare of a two-input kernel with OpData and options (SUB, MUL, DIV): the
// preamble, then the operator's own `prepare` over the node's options.
template <typename Options, typename OpData>
Status PrepareBinaryOp(const KernelContext& context, Node& node, const char* op,
                       BinaryPrepareFn<Options, OpData>* prepare) {
  model::TensorInfo in1, in2, out;
  bool broadcast = false;
  TFLM_ARENA_RETURN_IF_ERROR(
      GetBinaryNodeInfo(context, node, op, true, &in1, &in2, &out, &broadcast));
  return prepare(OptionsOrDefault<Options>(node), in1, in2, out,
                 static_cast<OpData*>(node.user_data));
}

// The invoke-time tensors of a two-input kernel with OpData.
struct BinaryTensors {
  const EvalTensor* in1 = nullptr;
  const EvalTensor* in2 = nullptr;
  EvalTensor* out = nullptr;
  size_t count = 0;
  bool broadcast = false;
  BroadcastDims dims;

  // fn(first, broadcast, dims, count, in1, in2, out) over the data as T: the
  // shape of every SUB / MUL / DIV per-type function.
  template <typename T, typename Fn, typename First>
  void Run(Fn fn, const First& first) const {
    fn(first, broadcast, dims, count, in1->as<const T>(), in2->as<const T>(), out->as<T>());
  }
};

// Invoke preamble of such a kernel: NodeNotPrepared without OpData, then
// GetBinaryTensors.
inline Status GetBinaryOpTensors(const KernelContext& context, const Node& node, const char* op,
                                 BinaryTensors* t) {
  if (node.user_data == nullptr) return NodeNotPrepared(op);
  return GetBinaryTensors(context, node, op, &t->in1, &t->in2, &t->out, &t->count, &t->broadcast,
                          &t->dims);
}

// Invoke: the output type has no path (kUnimplemented naming `op`).
inline Status BinaryOutputTypeUnsupported(const char* op, model::TensorType type) {
  return Status::Error(StatusCode::kUnimplemented, "%s: output type %s not supported", op,
                       model::TensorTypeName(type));
}

// One two-input kernel with OpData and options (SUB, MUL, DIV): its name,
// builtin code and options union member, its prepare over the options and,
// per output type, its math in the shape
// BinaryTensors::Run calls; nullptr = that type is not supported. FLOAT32
// takes either the fused activation (float_activation) or the OpData
// (float32).
template <typename Options, typename OpData>
struct BinaryKernelFns {
  using OptionsType = Options;
  using OpDataType = OpData;
  template <typename T>
  using Fn = BinaryMathFn<T, OpData>*;

  const char* op;
  model::BuiltinCode code;
  model::OptionsType options_type;
  BinaryPrepareFn<Options, OpData>* prepare;
  BinaryFloatActivationFn* float_activation;
  Fn<float> float32;
  Fn<int32_t> int32;
  Fn<int8_t> int8;
  Fn<int16_t> int16;
};

// Invoke of such a kernel: the preamble, then the output type's math
// (kUnimplemented naming `op` for a type without one).
template <typename Options, typename OpData>
Status InvokeBinaryOp(const KernelContext& context, const Node& node, const char* op,
                      const BinaryKernelFns<Options, OpData>& fns) {
  BinaryTensors t;
  TFLM_ARENA_RETURN_IF_ERROR(GetBinaryOpTensors(context, node, op, &t));
  if (t.count == 0) return Status::Ok();
  const auto& data = *static_cast<const OpData*>(node.user_data);
  switch (t.out->type) {
    case model::TensorType::kFloat32:
      if (fns.float_activation != nullptr) {
        t.Run<float>(fns.float_activation, OptionsOrDefault<Options>(node).activation);
        return Status::Ok();
      }
      if (fns.float32 == nullptr) break;
      t.Run<float>(fns.float32, data);
      return Status::Ok();
    case model::TensorType::kInt32:
      if (fns.int32 == nullptr) break;
      t.Run<int32_t>(fns.int32, data);
      return Status::Ok();
    case model::TensorType::kInt8:
      if (fns.int8 == nullptr) break;
      t.Run<int8_t>(fns.int8, data);
      return Status::Ok();
    case model::TensorType::kInt16:
      if (fns.int16 == nullptr) break;
      t.Run<int16_t>(fns.int16, data);
      return Status::Ok();
    default:
      break;
  }
  return BinaryOutputTypeUnsupported(op, t.out->type);
}

// Options whose one field is fused_activation_function (field 0): MUL's and
// DIV's, and the start of SUB's.
template <typename Options>
void ReadFusedActivation(model::OptionsTable& table, Options& o) {
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
}

// The registration entry points of the kernel `kFns` (a BinaryKernelFns
// with static storage).
template <const auto& kFns>
Status PrepareBinaryKernel(KernelContext& context, Node& node) {
  return PrepareBinaryOp(context, node, kFns.op, kFns.prepare);
}

template <const auto& kFns>
Status InvokeBinaryKernel(KernelContext& context, Node& node) {
  return InvokeBinaryOp(context, node, kFns.op, kFns);
}

// The registration of the kernel `kFns`: its OpData allocated at init, its
// options read by `read` (Register_<OP>() returns kRegistration).
template <const auto& kFns, auto read>
struct BinaryRegistration {
  using Fns = std::remove_cv_t<std::remove_reference_t<decltype(kFns)>>;
  static constexpr KernelRegistration kRegistration = MakeRegistration(
      kFns.code, kFns.op, InitOpData<typename Fns::OpDataType>, PrepareBinaryKernel<kFns>,
      InvokeBinaryKernel<kFns>, OptionsReader<typename Fns::OptionsType, read>(kFns.options_type));
};

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_BINARY_GLUE_H_
