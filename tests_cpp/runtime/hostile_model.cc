#include "hostile_model.h"

#include <gtest/gtest.h>

#include "tflm_arena/model/model.h"
#include "tflm_arena/model/tflite_subset_generated.h"
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/kernels/all_kernels.h"
#include "tflm_arena/runtime/op_resolver.h"

namespace tflm_arena {
namespace testing {
namespace {

namespace fb = ::tflm_arena::tflite;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

Offset<void> BuildOptions(FlatBufferBuilder& b, const HOptions& o, fb::BuiltinOptions* type) {
  const auto pad = o.valid_padding ? fb::Padding::VALID : fb::Padding::SAME;
  const auto act = static_cast<fb::ActivationFunctionType>(o.activation);
  switch (o.kind) {
    case HOptions::Kind::kNone:
      *type = fb::BuiltinOptions::NONE;
      return 0;
    case HOptions::Kind::kConv:
      *type = fb::BuiltinOptions::Conv2DOptions;
      return fb::CreateConv2DOptions(b, pad, o.stride_w, o.stride_h, act, o.dilation_w,
                                     o.dilation_h,
                                     static_cast<fb::TensorType>(o.quantized_bias_type))
          .Union();
    case HOptions::Kind::kDepthwise:
      *type = fb::BuiltinOptions::DepthwiseConv2DOptions;
      return fb::CreateDepthwiseConv2DOptions(b, pad, o.stride_w, o.stride_h, o.depth_multiplier,
                                              act, o.dilation_w, o.dilation_h)
          .Union();
    case HOptions::Kind::kPool:
      *type = fb::BuiltinOptions::Pool2DOptions;
      return fb::CreatePool2DOptions(b, pad, o.stride_w, o.stride_h, o.filter_w, o.filter_h, act)
          .Union();
    case HOptions::Kind::kFc:
      *type = fb::BuiltinOptions::FullyConnectedOptions;
      return fb::CreateFullyConnectedOptions(b, act, o.weights_format).Union();
    case HOptions::Kind::kSoftmax:
      *type = fb::BuiltinOptions::SoftmaxOptions;
      return fb::CreateSoftmaxOptions(b, o.beta).Union();
    case HOptions::Kind::kAdd:
      *type = fb::BuiltinOptions::AddOptions;
      return fb::CreateAddOptions(b, act).Union();
    case HOptions::Kind::kReshape:
      *type = fb::BuiltinOptions::ReshapeOptions;
      return fb::CreateReshapeOptions(b).Union();
  }
  *type = fb::BuiltinOptions::NONE;
  return 0;
}

}  // namespace

HTensor Activation(std::vector<int32_t> shape, int8_t type, std::vector<float> scale,
                   std::vector<int64_t> zero_point) {
  HTensor t;
  t.shape = std::move(shape);
  t.type = type;
  t.scale = std::move(scale);
  t.zero_point = std::move(zero_point);
  return t;
}

std::vector<uint8_t> BuildHostile(const HModel& m) {
  FlatBufferBuilder b;
  std::vector<Offset<fb::Buffer>> buffers = {fb::CreateBuffer(b)};  // 0: sentinel
  std::vector<Offset<fb::Tensor>> tensors;
  std::vector<int32_t> graph_inputs;
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const HTensor& t = m.tensors[i];
    uint32_t buffer = 0;
    if (!t.data.empty()) {
      b.ForceVectorAlignment(t.data.size(), 1, 16);
      auto data = b.CreateVector(t.data);
      buffers.push_back(fb::CreateBuffer(b, data));
      buffer = static_cast<uint32_t>(buffers.size() - 1);
    }
    Offset<fb::QuantizationParameters> q = 0;
    if (!t.scale.empty() || !t.zero_point.empty()) {
      auto scale = t.scale.empty() ? 0 : b.CreateVector(t.scale);
      auto zp = t.zero_point.empty() ? 0 : b.CreateVector(t.zero_point);
      q = fb::CreateQuantizationParameters(b, 0, 0, scale, zp, t.quantized_dimension);
    }
    auto name = b.CreateString("t" + std::to_string(i));
    tensors.push_back(fb::CreateTensor(b, b.CreateVector(t.shape),
                                       static_cast<fb::TensorType>(t.type), buffer, name, q));
  }
  for (int32_t in : m.op_inputs) {
    if (in >= 0 && static_cast<size_t>(in) < m.tensors.size() &&
        m.tensors[static_cast<size_t>(in)].data.empty()) {
      graph_inputs.push_back(in);
    }
  }
  fb::BuiltinOptions options_type = fb::BuiltinOptions::NONE;
  Offset<void> options = BuildOptions(b, m.options, &options_type);
  auto op = fb::CreateOperator(b, 0, b.CreateVector(m.op_inputs), b.CreateVector(m.op_outputs),
                               options_type, options);
  std::vector<Offset<fb::Operator>> ops = {op};
  auto subgraph = fb::CreateSubGraph(b, b.CreateVector(tensors), b.CreateVector(graph_inputs),
                                     b.CreateVector(m.op_outputs), b.CreateVector(ops));
  std::vector<Offset<fb::SubGraph>> subgraphs = {subgraph};
  const int8_t deprecated = static_cast<int8_t>(m.builtin_code < 127 ? m.builtin_code : 127);
  std::vector<Offset<fb::OperatorCode>> codes = {
      fb::CreateOperatorCode(b, deprecated, 0, 1, m.builtin_code)};
  auto root = fb::CreateModel(b, 3, b.CreateVector(codes), b.CreateVector(subgraphs), 0,
                              b.CreateVector(buffers));
  fb::FinishModelBuffer(b, root);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

HostileOutcome RunHostile(const HModel& m, size_t arena_bytes, uint8_t input_byte) {
  HostileOutcome result;
  // 8-aligned copy of the model (vector storage is), as the loader requires.
  const std::vector<uint8_t> bytes = BuildHostile(m);
  model::Model model;
  const Status loaded = model::Model::FromBuffer(bytes.data(), bytes.size(), &model);
  if (!loaded.ok()) {
    // Refused at load (model_validate.cc checks quantization arrays and
    // constant sizes too): a clean outcome, nothing ran.
    result.allocate = loaded;
    result.guards_intact = true;
    return result;
  }
  runtime::MutableOpResolver<16> resolver;
  const Status added = runtime::AddKernelsForModel(model, &resolver);
  EXPECT_TRUE(added.ok()) << added.message();

  // [guard 64][arena][guard 64], the arena 16-aligned.
  constexpr size_t kGuard = 64;
  constexpr uint8_t kPattern = 0xA5;
  std::vector<uint8_t> storage(arena_bytes + 2 * kGuard + 16, kPattern);
  const uintptr_t raw = reinterpret_cast<uintptr_t>(storage.data()) + kGuard;
  uint8_t* arena = storage.data() + kGuard + (16 - raw % 16) % 16;
  auto guards_intact = [&]() {
    for (size_t i = 1; i <= kGuard; ++i) {
      if (arena[-static_cast<ptrdiff_t>(i)] != kPattern) return false;
    }
    for (size_t i = 0; i < kGuard; ++i) {
      if (arena[arena_bytes + i] != kPattern) return false;
    }
    return true;
  };

  runtime::Interpreter it(model, resolver, arena, arena_bytes);
  result.allocate = it.AllocateTensors();
  if (result.allocate.ok()) {
    for (size_t i = 0; i < it.inputs_size(); ++i) {
      runtime::EvalTensor* t = it.input(i);
      size_t tensor_bytes = 0;
      if (model.tensor_bytes(0, static_cast<size_t>(it.input_tensor_index(i)), &tensor_bytes)
              .ok() &&
          t != nullptr && t->data != nullptr) {
        std::memset(t->data, input_byte, tensor_bytes);
      }
    }
    result.invoke = it.Invoke();
    result.invoked = true;
  }
  result.guards_intact = guards_intact();
  return result;
}

}  // namespace testing
}  // namespace tflm_arena
