#include "test_builder.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "tflm_arena/model/tflite_subset_generated.h"

namespace tflm_arena {
namespace testing {
namespace {

namespace fb = ::tflm_arena::tflite;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

template <typename T>
auto VectorOrNull(FlatBufferBuilder& b, const std::vector<T>& v) -> decltype(b.CreateVector(v)) {
  if (v.empty()) return 0;
  return b.CreateVector(v);
}

Offset<fb::Tensor> BuildTensor(FlatBufferBuilder& b, const TTensor& t) {
  auto shape = b.CreateVector(t.shape);
  auto name = t.name.empty() ? 0 : b.CreateString(t.name);
  auto signature = VectorOrNull(b, t.shape_signature);
  Offset<fb::QuantizationParameters> q = 0;
  if (!t.scale.empty() || !t.zero_point.empty()) {
    auto scale = VectorOrNull(b, t.scale);
    auto zp = VectorOrNull(b, t.zero_point);
    q = fb::CreateQuantizationParameters(b, 0, 0, scale, zp, t.quantized_dimension);
  }
  return fb::CreateTensor(b, shape, static_cast<fb::TensorType>(t.type), t.buffer, name, q,
                          t.is_variable, signature);
}

Offset<fb::Operator> BuildOp(FlatBufferBuilder& b, const TOp& op) {
  auto inputs = b.CreateVector(op.inputs);
  auto outputs = b.CreateVector(op.outputs);
  auto intermediates = VectorOrNull(b, op.intermediates);
  fb::BuiltinOptions type = fb::BuiltinOptions::NONE;
  Offset<void> options = 0;
  switch (op.options) {
    case TOptions::kIf:
      type = fb::BuiltinOptions::IfOptions;
      options = fb::CreateIfOptions(b, op.sub_a, op.sub_b).Union();
      break;
    case TOptions::kWhile:
      type = fb::BuiltinOptions::WhileOptions;
      options = fb::CreateWhileOptions(b, op.sub_a, op.sub_b).Union();
      break;
    case TOptions::kCallOnce:
      type = fb::BuiltinOptions::CallOnceOptions;
      options = fb::CreateCallOnceOptions(b, op.sub_a).Union();
      break;
    case TOptions::kVarHandle:
      type = fb::BuiltinOptions::VarHandleOptions;
      options =
          fb::CreateVarHandleOptions(b, b.CreateString(""), b.CreateString(op.shared_name)).Union();
      break;
    case TOptions::kConv2D:
      type = fb::BuiltinOptions::Conv2DOptions;
      options =
          fb::CreateConv2DOptions(b, static_cast<fb::Padding>(op.padding), op.stride, op.stride,
                                  fb::ActivationFunctionType::NONE, op.dilation, op.dilation)
              .Union();
      break;
    case TOptions::kDepthwiseConv2D:
      type = fb::BuiltinOptions::DepthwiseConv2DOptions;
      options = fb::CreateDepthwiseConv2DOptions(b, static_cast<fb::Padding>(op.padding), op.stride,
                                                 op.stride, 1, fb::ActivationFunctionType::NONE,
                                                 op.dilation, op.dilation)
                    .Union();
      break;
    case TOptions::kPool2D:
      type = fb::BuiltinOptions::Pool2DOptions;
      options = fb::CreatePool2DOptions(b, static_cast<fb::Padding>(op.padding), op.stride,
                                        op.stride, op.filter, op.filter)
                    .Union();
      break;
    case TOptions::kNone:
      break;
  }
  auto custom = VectorOrNull(b, op.custom_options);
  // custom_options_format 0: FLEXBUFFERS.
  return fb::CreateOperator(b, op.opcode, inputs, outputs, type, options, custom, 0, 0,
                            intermediates);
}

Offset<fb::SubGraph> BuildSubgraph(FlatBufferBuilder& b, const TSubgraph& g) {
  std::vector<Offset<fb::Tensor>> tensors;
  for (const TTensor& t : g.tensors) tensors.push_back(BuildTensor(b, t));
  std::vector<Offset<fb::Operator>> ops;
  for (const TOp& op : g.ops) ops.push_back(BuildOp(b, op));
  auto name = g.name.empty() ? 0 : b.CreateString(g.name);
  return fb::CreateSubGraph(b, b.CreateVector(tensors), b.CreateVector(g.inputs),
                            b.CreateVector(g.outputs), b.CreateVector(ops), name);
}

void PutWord(std::vector<uint8_t>* out, int32_t w) {
  const uint32_t u = static_cast<uint32_t>(w);
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<uint8_t>(u >> (8 * i)));
}

}  // namespace

std::vector<uint8_t> Build(const TModel& m, const std::vector<uint8_t>& trailing) {
  FlatBufferBuilder b;
  std::vector<Offset<fb::OperatorCode>> codes;
  for (const TOpCode& c : m.opcodes) {
    auto custom = c.custom_code.empty() ? 0 : b.CreateString(c.custom_code);
    codes.push_back(
        fb::CreateOperatorCode(b, c.deprecated_builtin_code, custom, c.version, c.builtin_code));
  }
  std::vector<Offset<fb::SubGraph>> subgraphs;
  for (const TSubgraph& g : m.subgraphs) subgraphs.push_back(BuildSubgraph(b, g));
  std::vector<Offset<fb::Buffer>> buffers;
  for (const TBuffer& buf : m.buffers) {
    Offset<flatbuffers::Vector<uint8_t>> data = 0;
    if (!buf.data.empty()) {
      b.ForceVectorAlignment(buf.data.size(), 1, 16);
      // 4 bytes after the data (the builder writes back to front) shift it.
      if (buf.misalign_by_4) b.PushElement<uint32_t>(0);
      data = b.CreateVector(buf.data);
    }
    buffers.push_back(fb::CreateBuffer(b, data, buf.offset, buf.size));
  }
  std::vector<Offset<fb::Metadata>> metadata;
  for (const auto& md : m.metadata) {
    metadata.push_back(fb::CreateMetadata(b, b.CreateString(md.first), md.second));
  }
  auto description = m.description.empty() ? 0 : b.CreateString(m.description);
  auto root =
      fb::CreateModel(b, m.version, b.CreateVector(codes), b.CreateVector(subgraphs), description,
                      b.CreateVector(buffers), VectorOrNull(b, m.metadata_buffer),
                      metadata.empty() ? 0 : b.CreateVector(metadata));
  fb::FinishModelBuffer(b, root);
  std::vector<uint8_t> out(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  out.insert(out.end(), trailing.begin(), trailing.end());
  return out;
}

TOpCode Builtin(int32_t code) {
  TOpCode c;
  c.builtin_code = code;
  c.deprecated_builtin_code = static_cast<int8_t>(code < 127 ? code : 127);
  return c;
}

void AddOfflinePlanWords(TModel* m, const std::vector<int32_t>& words) {
  TBuffer buf;
  for (int32_t w : words) PutWord(&buf.data, w);
  m->buffers.push_back(buf);
  m->metadata.emplace_back(model::kOfflinePlanMetadataName,
                           static_cast<uint32_t>(m->buffers.size() - 1));
}

void AddOfflinePlan(TModel* m, const std::vector<int32_t>& offsets) {
  std::vector<int32_t> words = {0, static_cast<int32_t>(m->subgraphs.size()),
                                static_cast<int32_t>(offsets.size())};
  words.insert(words.end(), offsets.begin(), offsets.end());
  AddOfflinePlanWords(m, words);
}

uint32_t AddConstBuffer(TModel* m, size_t bytes) {
  TBuffer buf;
  buf.data.assign(bytes, 0x5a);
  m->buffers.push_back(buf);
  return static_cast<uint32_t>(m->buffers.size() - 1);
}

model::Model MustLoad(const std::vector<uint8_t>& bytes) {
  model::Model m;
  Status s = model::Model::FromBuffer(bytes.data(), bytes.size(), &m);
  EXPECT_TRUE(s.ok()) << s.message();
  return m;
}

Loaded BuildAndLoad(const TModel& m) {
  Loaded l;
  l.bytes = Build(m);
  l.model = MustLoad(l.bytes);
  return l;
}

std::string SharedModelsDir() { return TFLM_ARENA_SHARED_MODELS; }

bool InCi() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::strcmp(ci, "true") == 0;
}

bool ReadFile(const std::string& path, std::vector<uint8_t>* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out->assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

}  // namespace testing
}  // namespace tflm_arena
