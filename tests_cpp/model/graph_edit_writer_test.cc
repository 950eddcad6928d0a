// Writing a model copy whose subgraph 0 runs a new operator list: the copy
// verifies and reads back with the original tensors, operators and buffers
// unchanged, the new tensors (shapes, types, shared quantization, constant
// data), the new operators (codes, indices, options), and refuses wrong
// edits and broken models with a message naming the fault.
#include "tflm_arena/model/graph_edit_writer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "test_builder.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace model {
namespace {

constexpr int32_t kAdd = 0, kConcatenation = 2, kRelu = 19, kCumsum = 128;
constexpr int32_t kInt8 = 9, kInt32 = 2;

// in (int8, quantized) + bias (constant) -> mid -> RELU -> out.
testing::TModel Chain() {
  testing::TModel t;
  t.opcodes = {testing::Builtin(kAdd), testing::Builtin(kRelu)};
  t.description = "chain";
  const uint32_t bias = testing::AddConstBuffer(&t, 8);
  testing::TSubgraph g;
  g.name = "main";
  for (int i = 0; i < 4; ++i) {
    testing::TTensor tensor;
    tensor.shape = {1, 4, 2};
    tensor.type = kInt8;
    tensor.name = "t" + std::to_string(i);
    tensor.scale = {0.25f + static_cast<float>(i)};
    tensor.zero_point = {-3 + i};
    g.tensors.push_back(tensor);
  }
  g.tensors[3].buffer = bias;
  g.inputs = {0};
  g.outputs = {2};
  testing::TOp add, relu;
  add.opcode = 0;
  add.inputs = {0, 3};
  add.outputs = {1};
  relu.opcode = 1;
  relu.inputs = {1};
  relu.outputs = {2};
  g.ops = {add, relu};
  t.subgraphs = {g};
  return t;
}

std::vector<uint8_t> Edit(const std::vector<uint8_t>& in, const GraphEdit& edit, Status* status) {
  std::vector<uint8_t> out;
  *status = WriteGraphEdit(in.data(), in.size(), edit, &out);
  return out;
}

std::vector<int32_t> Vec(Span<const int32_t> s) { return std::vector<int32_t>(s.begin(), s.end()); }

OperatorRef Orig(int32_t i) { return OperatorRef{false, i}; }
OperatorRef New(int32_t i) { return OperatorRef{true, i}; }

// Tensors, operators and buffers of `a` read back equal in `b` (b may have more).
void ExpectOriginalKept(const Model& a, const Model& b) {
  EXPECT_STREQ(a.description(), b.description());
  EXPECT_EQ(a.version(), b.version());
  SubgraphInfo ga, gb;
  ASSERT_TRUE(a.subgraph(0, &ga).ok());
  ASSERT_TRUE(b.subgraph(0, &gb).ok());
  EXPECT_STREQ(ga.name, gb.name);
  EXPECT_EQ(Vec(ga.inputs), Vec(gb.inputs));
  EXPECT_EQ(Vec(ga.outputs), Vec(gb.outputs));
  ASSERT_GE(b.num_tensors(0), a.num_tensors(0));
  for (size_t t = 0; t < a.num_tensors(0); ++t) {
    TensorInfo x, y;
    ASSERT_TRUE(a.tensor(0, t, &x).ok());
    ASSERT_TRUE(b.tensor(0, t, &y).ok());
    EXPECT_STREQ(x.name, y.name) << t;
    EXPECT_EQ(Vec(x.shape), Vec(y.shape)) << t;
    EXPECT_EQ(x.type, y.type) << t;
    EXPECT_EQ(x.buffer, y.buffer) << t;
    EXPECT_EQ(std::vector<float>(x.scale.begin(), x.scale.end()),
              std::vector<float>(y.scale.begin(), y.scale.end()))
        << t;
    EXPECT_EQ(std::vector<int64_t>(x.zero_point.begin(), x.zero_point.end()),
              std::vector<int64_t>(y.zero_point.begin(), y.zero_point.end()))
        << t;
    EXPECT_EQ(x.has_constant_data, y.has_constant_data) << t;
  }
  ASSERT_GE(b.num_buffers(), a.num_buffers());
  for (size_t i = 0; i < a.num_buffers(); ++i) {
    BufferInfo x, y;
    ASSERT_TRUE(a.buffer(i, &x).ok());
    ASSERT_TRUE(b.buffer(i, &y).ok());
    EXPECT_EQ(std::vector<uint8_t>(x.data.begin(), x.data.end()),
              std::vector<uint8_t>(y.data.begin(), y.data.end()))
        << i;
    EXPECT_EQ(x.external, y.external) << i;
  }
  ASSERT_GE(b.num_operator_codes(), a.num_operator_codes());
  for (size_t i = 0; i < a.num_operator_codes(); ++i) {
    OperatorCodeInfo x, y;
    ASSERT_TRUE(a.operator_code(i, &x).ok());
    ASSERT_TRUE(b.operator_code(i, &y).ok());
    EXPECT_EQ(x.builtin_code, y.builtin_code) << i;
    EXPECT_EQ(x.version, y.version) << i;
  }
  EXPECT_EQ(b.num_subgraphs(), a.num_subgraphs());
  EXPECT_EQ(b.num_metadata(), a.num_metadata());
}

void ExpectSameOperator(const Model& a, size_t ia, const Model& b, size_t ib) {
  OperatorInfo x, y;
  ASSERT_TRUE(a.op(0, ia, &x).ok());
  ASSERT_TRUE(b.op(0, ib, &y).ok());
  EXPECT_EQ(x.builtin_code, y.builtin_code);
  EXPECT_EQ(x.opcode_index, y.opcode_index);
  EXPECT_EQ(Vec(x.inputs), Vec(y.inputs));
  EXPECT_EQ(Vec(x.outputs), Vec(y.outputs));
}

TEST(GraphEditWriter, IdentityEditReadsBackEqual) {
  const std::vector<uint8_t> bytes = testing::Build(Chain());
  const Model original = testing::MustLoad(bytes);
  GraphEdit edit;
  edit.order = {Orig(0), Orig(1)};
  Status s;
  const std::vector<uint8_t> out = Edit(bytes, edit, &s);
  ASSERT_TRUE(s.ok()) << s.message();
  const Model m = testing::MustLoad(out);
  ExpectOriginalKept(original, m);
  EXPECT_EQ(m.num_tensors(0), original.num_tensors(0));
  EXPECT_EQ(m.num_buffers(), original.num_buffers());
  EXPECT_EQ(m.num_operator_codes(), original.num_operator_codes());
  ASSERT_EQ(m.num_operators(0), 2u);
  ExpectSameOperator(original, 0, m, 0);
  ExpectSameOperator(original, 1, m, 1);
  // The original file follows the prefix unchanged.
  ASSERT_GT(out.size(), bytes.size());
  EXPECT_EQ(std::memcmp(out.data() + (out.size() - bytes.size()), bytes.data(), bytes.size()), 0);
  EXPECT_EQ((out.size() - bytes.size()) % 16, 0u);
}

TEST(GraphEditWriter, DroppingAndReorderingOriginalOperators) {
  const std::vector<uint8_t> bytes = testing::Build(Chain());
  const Model original = testing::MustLoad(bytes);
  GraphEdit edit;
  edit.order = {Orig(1)};
  Status s;
  const std::vector<uint8_t> out = Edit(bytes, edit, &s);
  ASSERT_TRUE(s.ok()) << s.message();
  const Model m = testing::MustLoad(out);
  ASSERT_EQ(m.num_operators(0), 1u);
  ExpectSameOperator(original, 1, m, 0);
  EXPECT_EQ(m.num_tensors(0), 4u);  // unused tensors stay
}

// Two tiles: each ADD (with AddOptions) on a new activation, then two
// CONCATENATIONs with ConcatenationOptions: the ADD code is reused, the
// CONCATENATION code appended once.
TEST(GraphEditWriter, NewOperatorsWithOptionsAndCodes) {
  const std::vector<uint8_t> bytes = testing::Build(Chain());
  const Model original = testing::MustLoad(bytes);
  GraphEdit edit;
  NewTensor a, b, c;
  a.shape = {1, 2, 2};
  a.like = 0;
  a.name = "tile_a";
  b = a;
  b.name = "tile_b";
  c.shape = {1, 4, 2};
  c.like = 1;
  c.name = "joined";
  edit.tensors = {a, b, c};  // tensors 4, 5, 6
  NewOperator add;
  add.builtin_code = kAdd;
  add.inputs = {0, 3};
  add.outputs = {4};
  add.options_type = kAddOptions;
  add.options = {{0, 1, 3}};  // fused_activation_function = RELU6
  NewOperator add2 = add;
  add2.outputs = {5};
  add2.options = {{1, 1, 0}};  // pot_scale_int16 = false
  NewOperator concat;
  concat.builtin_code = kConcatenation;
  concat.inputs = {4, 5};
  concat.outputs = {6};
  concat.options_type = kConcatenationOptions;
  concat.options = {{0, 4, -2}, {1, 1, 1}};  // axis -2, RELU
  NewOperator concat2 = concat;
  concat2.inputs = {6, -1};
  concat2.outputs = {1};
  concat2.options = {};
  edit.operators = {add, add2, concat, concat2};
  edit.order = {New(1), New(0), New(2), New(3), Orig(1)};
  Status s;
  const std::vector<uint8_t> out = Edit(bytes, edit, &s);
  ASSERT_TRUE(s.ok()) << s.message();
  const Model m = testing::MustLoad(out);
  ExpectOriginalKept(original, m);

  ASSERT_EQ(m.num_operator_codes(), 3u);
  OperatorCodeInfo code;
  ASSERT_TRUE(m.operator_code(2, &code).ok());
  EXPECT_EQ(code.raw_builtin_code, kConcatenation);
  EXPECT_EQ(code.deprecated_builtin_code, kConcatenation);
  EXPECT_EQ(code.version, 1);
  EXPECT_STREQ(code.custom_code, "");

  ASSERT_EQ(m.num_operators(0), 5u);
  const std::vector<std::vector<int32_t>> inputs = {{0, 3}, {0, 3}, {4, 5}, {6, -1}, {1}};
  const std::vector<std::vector<int32_t>> outputs = {{5}, {4}, {6}, {1}, {2}};
  const std::vector<int32_t> codes = {kAdd, kAdd, kConcatenation, kConcatenation, kRelu};
  const std::vector<uint32_t> opcode_index = {0, 0, 2, 2, 1};
  for (size_t k = 0; k < 5; ++k) {
    OperatorInfo op;
    ASSERT_TRUE(m.op(0, k, &op).ok());
    EXPECT_EQ(Vec(op.inputs), inputs[k]) << k;
    EXPECT_EQ(Vec(op.outputs), outputs[k]) << k;
    EXPECT_EQ(op.builtin_code, codes[k]) << k;
    EXPECT_EQ(op.opcode_index, opcode_index[k]) << k;
    EXPECT_TRUE(op.intermediates.empty());
  }
  OptionsTable o;
  ASSERT_TRUE(m.builtin_options(0, 0, &o).ok());  // add2
  ASSERT_TRUE(o.present());
  EXPECT_EQ(o.type(), kAddOptions);
  EXPECT_EQ(o.UInt8(0, 77), 77);  // absent: the default
  EXPECT_FALSE(o.Bool(1, true));
  ASSERT_TRUE(m.builtin_options(0, 1, &o).ok());  // add
  EXPECT_EQ(o.UInt8(0, 0), 3);
  EXPECT_TRUE(o.Bool(1, true));
  ASSERT_TRUE(m.builtin_options(0, 2, &o).ok());  // concat
  EXPECT_EQ(o.type(), kConcatenationOptions);
  EXPECT_EQ(o.Int32(0, 0), -2);
  EXPECT_EQ(o.UInt8(1, 0), 1);
  EXPECT_TRUE(o.ok());
  ASSERT_TRUE(m.builtin_options(0, 3, &o).ok());  // concat2: an empty table
  EXPECT_TRUE(o.present());
  EXPECT_EQ(o.Int32(0, 5), 5);
  ASSERT_TRUE(m.builtin_options(0, 4, &o).ok());  // original RELU: none
  EXPECT_FALSE(o.present());

  ASSERT_EQ(m.num_tensors(0), 7u);
  TensorInfo t;
  ASSERT_TRUE(m.tensor(0, 4, &t).ok());
  EXPECT_STREQ(t.name, "tile_a");
  EXPECT_EQ(Vec(t.shape), (std::vector<int32_t>{1, 2, 2}));
  EXPECT_EQ(t.type, TensorType::kInt8);
  EXPECT_EQ(t.buffer, 0u);  // activation
  EXPECT_FALSE(t.has_constant_data);
  EXPECT_FALSE(t.is_variable);
  ASSERT_TRUE(m.tensor(0, 6, &t).ok());
  EXPECT_STREQ(t.name, "joined");
  EXPECT_EQ(Vec(t.shape), (std::vector<int32_t>{1, 4, 2}));
  EXPECT_EQ(m.num_buffers(), original.num_buffers());  // buffer 0 is empty: no new buffer
}

// Quantization is linked to the `like` tensor's table, not copied; a tensor
// without `like` has the explicit type and no quantization.
TEST(GraphEditWriter, QuantizationSharedWithLike) {
  const std::vector<uint8_t> bytes = testing::Build(Chain());
  const Model original = testing::MustLoad(bytes);
  GraphEdit edit;
  NewTensor a, f;
  a.shape = {2};
  a.like = 2;
  a.name = "q";
  f.shape = {3};
  f.type = 0;  // FLOAT32
  f.name = "f";
  edit.tensors = {a, f};
  NewOperator relu;
  relu.builtin_code = kRelu;
  relu.inputs = {4};
  relu.outputs = {5};
  edit.operators = {relu};
  edit.order = {Orig(0), New(0), Orig(1)};
  Status s;
  const std::vector<uint8_t> out = Edit(bytes, edit, &s);
  ASSERT_TRUE(s.ok()) << s.message();
  const Model m = testing::MustLoad(out);
  TensorInfo like, q, fl;
  ASSERT_TRUE(m.tensor(0, 2, &like).ok());
  ASSERT_TRUE(m.tensor(0, 4, &q).ok());
  ASSERT_TRUE(m.tensor(0, 5, &fl).ok());
  EXPECT_EQ(q.type, TensorType::kInt8);
  ASSERT_EQ(q.scale.size(), 1u);
  EXPECT_EQ(q.scale[0], 2.25f);
  ASSERT_EQ(q.zero_point.size(), 1u);
  EXPECT_EQ(q.zero_point[0], -1);
  EXPECT_EQ(q.scale.data(), like.scale.data());  // the same table
  EXPECT_EQ(q.zero_point.data(), like.zero_point.data());
  EXPECT_EQ(fl.type, TensorType::kFloat32);
  EXPECT_TRUE(fl.scale.empty());
  EXPECT_TRUE(fl.zero_point.empty());
  EXPECT_EQ(m.num_operator_codes(), 2u);  // RELU reused
  OperatorInfo op;
  ASSERT_TRUE(m.op(0, 1, &op).ok());
  EXPECT_EQ(op.opcode_index, 1u);
}

// Constants get one new 16-byte aligned buffer each, holding their data.
TEST(GraphEditWriter, ConstantTensorsReadBack) {
  const std::vector<uint8_t> bytes = testing::Build(Chain());
  const Model original = testing::MustLoad(bytes);
  GraphEdit edit;
  NewTensor begin, end, sliced;
  begin.shape = {3};
  begin.type = kInt32;
  begin.name = "begin";
  const int32_t begin_values[3] = {0, 1, -7};
  begin.data.resize(sizeof(begin_values));
  std::memcpy(begin.data.data(), begin_values, sizeof(begin_values));
  end = begin;
  end.name = "end";
  end.data.assign(12, 0xab);
  sliced.shape = {1, 2, 2};
  sliced.like = 1;
  edit.tensors = {begin, end, sliced};  // 4, 5, 6
  NewOperator slice;
  slice.builtin_code = 45;  // STRIDED_SLICE
  slice.inputs = {1, 4, 5, 4};
  slice.outputs = {6};
  NewOperator cumsum;  // a code above 127
  cumsum.builtin_code = kCumsum;
  cumsum.inputs = {6, 4};
  cumsum.outputs = {2};
  edit.operators = {slice, cumsum};
  edit.order = {Orig(0), New(0), New(1)};
  Status s;
  const std::vector<uint8_t> out = Edit(bytes, edit, &s);
  ASSERT_TRUE(s.ok()) << s.message();
  const Model m = testing::MustLoad(out);
  ExpectOriginalKept(original, m);
  ASSERT_EQ(m.num_buffers(), original.num_buffers() + 2);
  TensorInfo t;
  ASSERT_TRUE(m.tensor(0, 4, &t).ok());
  EXPECT_EQ(t.type, TensorType::kInt32);
  EXPECT_EQ(t.buffer, original.num_buffers());
  ASSERT_TRUE(t.has_constant_data);
  ASSERT_EQ(t.constant_data.size(), 12u);
  int32_t read[3];
  std::memcpy(read, t.constant_data.data(), sizeof(read));
  EXPECT_EQ(read[0], 0);
  EXPECT_EQ(read[1], 1);
  EXPECT_EQ(read[2], -7);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.constant_data.data()) % 16, 0u);
  EXPECT_TRUE(t.scale.empty());
  ASSERT_TRUE(m.tensor(0, 5, &t).ok());
  EXPECT_EQ(t.buffer, original.num_buffers() + 1);
  EXPECT_EQ(std::vector<uint8_t>(t.constant_data.begin(), t.constant_data.end()),
            std::vector<uint8_t>(12, 0xab));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.constant_data.data()) % 16, 0u);
  ASSERT_TRUE(m.tensor(0, 6, &t).ok());
  EXPECT_EQ(t.buffer, 0u);
  EXPECT_STREQ(t.name, "");

  ASSERT_EQ(m.num_operator_codes(), 4u);
  OperatorCodeInfo code;
  ASSERT_TRUE(m.operator_code(3, &code).ok());
  EXPECT_EQ(code.builtin_code, kCumsum);
  EXPECT_EQ(code.raw_builtin_code, kCumsum);
  EXPECT_EQ(code.deprecated_builtin_code, 127);
  OperatorInfo op;
  ASSERT_TRUE(m.op(0, 2, &op).ok());
  EXPECT_EQ(op.builtin_code, kCumsum);
  EXPECT_EQ(op.opcode_index, 3u);
}

// Buffer 0 holding data: activations get an appended empty buffer (one for
// all of them).
TEST(GraphEditWriter, ActivationsGetAnEmptyBufferWhenBufferZeroIsNot) {
  testing::TModel t = Chain();
  t.buffers[0].data.assign(8, 1);  // bias moved to buffer 0, buffer 1 now empty
  t.buffers[1].data.clear();
  for (testing::TTensor& tensor : t.subgraphs[0].tensors) tensor.buffer = 1;
  t.subgraphs[0].tensors[3].buffer = 0;
  const std::vector<uint8_t> bytes = testing::Build(t);
  const Model original = testing::MustLoad(bytes);
  GraphEdit edit;
  NewTensor a;
  a.shape = {1, 4, 2};
  a.like = 1;
  NewTensor k;
  k.shape = {1};
  k.type = kInt32;
  k.data = {1, 0, 0, 0};
  edit.tensors = {a, a, k};
  NewOperator relu;
  relu.builtin_code = kRelu;
  relu.inputs = {1};
  relu.outputs = {4};
  NewOperator relu2 = relu;
  relu2.inputs = {4};
  relu2.outputs = {5};
  edit.operators = {relu, relu2};
  edit.order = {Orig(0), New(0), New(1), Orig(1)};
  Status s;
  const std::vector<uint8_t> out = Edit(bytes, edit, &s);
  ASSERT_TRUE(s.ok()) << s.message();
  const Model m = testing::MustLoad(out);
  ExpectOriginalKept(original, m);
  ASSERT_EQ(m.num_buffers(), 4u);
  BufferInfo b;
  ASSERT_TRUE(m.buffer(2, &b).ok());
  EXPECT_TRUE(b.data.empty());
  TensorInfo x;
  ASSERT_TRUE(m.tensor(0, 4, &x).ok());
  EXPECT_EQ(x.buffer, 2u);
  EXPECT_FALSE(x.has_constant_data);
  ASSERT_TRUE(m.tensor(0, 5, &x).ok());
  EXPECT_EQ(x.buffer, 2u);
  ASSERT_TRUE(m.tensor(0, 6, &x).ok());
  EXPECT_EQ(x.buffer, 3u);
  EXPECT_EQ(x.constant_data.size(), 4u);
}

// Data stored after the flatbuffer (Buffer.offset) still resolves.
TEST(GraphEditWriter, ExternalBuffersAreShifted) {
  testing::TModel t = Chain();
  testing::TBuffer ext;
  ext.offset = 2;  // placeholder: the value does not change the flatbuffer's layout
  ext.size = 8;
  t.buffers[1] = ext;
  const std::vector<uint8_t> probe = testing::Build(t);
  // The data right after the flatbuffer, padded to 16.
  const size_t fb_size = (probe.size() + 15) / 16 * 16;
  std::vector<uint8_t> trailing(fb_size - probe.size(), 0);
  for (uint8_t i = 0; i < 8; ++i) trailing.push_back(static_cast<uint8_t>(0x10 + i));
  t.buffers[1].offset = fb_size;
  const std::vector<uint8_t> bytes = testing::Build(t, trailing);
  ASSERT_EQ(bytes.size(), fb_size + 8);
  const Model original = testing::MustLoad(bytes);
  BufferInfo before;
  ASSERT_TRUE(original.buffer(1, &before).ok());
  ASSERT_TRUE(before.external);
  ASSERT_EQ(before.data[0], 0x10);
  GraphEdit edit;
  NewTensor k;
  k.shape = {2};
  k.type = kInt32;
  k.data.assign(8, 2);
  edit.tensors = {k};
  edit.order = {Orig(0), Orig(1)};
  Status s;
  const std::vector<uint8_t> out = Edit(bytes, edit, &s);
  ASSERT_TRUE(s.ok()) << s.message();
  const Model m = testing::MustLoad(out);
  ExpectOriginalKept(original, m);
  BufferInfo after;
  ASSERT_TRUE(m.buffer(1, &after).ok());
  EXPECT_EQ(after.offset, before.offset + (out.size() - bytes.size()));
}

std::string EditError(const std::vector<uint8_t>& bytes, const GraphEdit& edit) {
  Status s;
  Edit(bytes, edit, &s);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  return s.message();
}

// A valid edit of Chain(): one new activation written by a new RELU.
GraphEdit OneRelu() {
  GraphEdit edit;
  NewTensor a;
  a.shape = {1, 4, 2};
  a.like = 1;
  edit.tensors = {a};
  NewOperator relu;
  relu.builtin_code = kRelu;
  relu.inputs = {1};
  relu.outputs = {4};
  edit.operators = {relu};
  edit.order = {Orig(0), New(0), Orig(1)};
  return edit;
}

TEST(GraphEditWriter, RefusesModelsWithAnOfflinePlan) {
  testing::TModel t = Chain();
  testing::AddOfflinePlan(&t, {0, -1, -1, -1});
  EXPECT_EQ(EditError(testing::Build(t), OneRelu()),
            "the model has an OfflineMemoryAllocation plan: the edit adds tensors the plan does "
            "not place (edit the model without its plan, then write a plan for the result)");
}

TEST(GraphEditWriter, RefusesWrongTensors) {
  const std::vector<uint8_t> bytes = testing::Build(Chain());
  {
    Status s;
    Edit(bytes, OneRelu(), &s);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  GraphEdit e = OneRelu();
  e.tensors[0].like = 4;
  EXPECT_EQ(EditError(bytes, e),
            "new tensor 0 (tensor 4): like = 4 is not a tensor of the original subgraph 0 (0..3)");
  e = OneRelu();
  e.tensors[0].like = -1;
  e.tensors[0].type = 99;
  EXPECT_EQ(EditError(bytes, e), "new tensor 0 (tensor 4): type 99 is not a TensorType");
  e.tensors[0].type = -1;
  EXPECT_EQ(EditError(bytes, e), "new tensor 0 (tensor 4): type -1 is not a TensorType");
  e = OneRelu();
  e.tensors[0].shape = {1, -4, 2};
  EXPECT_EQ(EditError(bytes, e),
            "new tensor 0 (tensor 4): shape has a negative dimension or too many elements");
  e.tensors[0].shape = {1 << 30, 1 << 30, 1 << 30};
  EXPECT_EQ(EditError(bytes, e),
            "new tensor 0 (tensor 4): shape has a negative dimension or too many elements");
  e = OneRelu();
  e.tensors[0].data.assign(7, 0);  // int8 {1, 4, 2}: 8 bytes
  EXPECT_EQ(EditError(bytes, e),
            "new tensor 0 (tensor 4): 7 data bytes, its shape and type need 8");
}

TEST(GraphEditWriter, RefusesWrongOperators) {
  const std::vector<uint8_t> bytes = testing::Build(Chain());
  GraphEdit e = OneRelu();
  e.operators[0].inputs = {5};
  EXPECT_EQ(EditError(bytes, e),
            "new operator 0: input 0 = 5 is not a tensor index (0..4, or -1 for an omitted "
            "input)");
  e.operators[0].inputs = {-2};
  EXPECT_EQ(EditError(bytes, e),
            "new operator 0: input 0 = -2 is not a tensor index (0..4, or -1 for an omitted "
            "input)");
  e = OneRelu();
  e.operators[0].outputs = {4, -1};
  EXPECT_EQ(EditError(bytes, e), "new operator 0: output 1 = -1 is not a tensor index (0..4)");
  e.operators[0].outputs = {5};
  EXPECT_EQ(EditError(bytes, e), "new operator 0: output 0 = 5 is not a tensor index (0..4)");
  e = OneRelu();
  e.operators[0].builtin_code = -1;
  EXPECT_EQ(EditError(bytes, e),
            "new operator 0: builtin code -1 is not a builtin operator (custom operators are not "
            "supported)");
  e.operators[0].builtin_code = 32;
  EXPECT_EQ(EditError(bytes, e),
            "new operator 0: builtin code 32 is not a builtin operator (custom operators are not "
            "supported)");
  e = OneRelu();
  e.operators[0].options = {{0, 1, 0}};
  EXPECT_EQ(EditError(bytes, e), "new operator 0: option fields given without an options type");
  e.operators[0].options_type = kAddOptions;
  e.operators[0].options = {{64, 1, 0}};
  EXPECT_EQ(EditError(bytes, e), "new operator 0: option field id 64 is not below 64");
  e.operators[0].options = {{3, 3, 0}};
  EXPECT_EQ(EditError(bytes, e), "new operator 0: option field 3 has size 3 (1, 2 or 4)");
  e.operators[0].options = {{3, 8, 0}};
  EXPECT_EQ(EditError(bytes, e), "new operator 0: option field 3 has size 8 (1, 2 or 4)");
  e.operators[0].options = {{2, 1, 0}, {63, 2, 1}, {2, 4, 0}};
  EXPECT_EQ(EditError(bytes, e), "new operator 0: option field 2 given twice");
  // Id 63 and size 2 are fine (the table is just not one our reader knows).
  e.operators[0].builtin_code = kAdd;
  e.operators[0].inputs = {1, 1};
  e.operators[0].options = {{63, 2, 1}};
  Status s;
  Edit(bytes, e, &s);
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(GraphEditWriter, RefusesWrongOrders) {
  const std::vector<uint8_t> bytes = testing::Build(Chain());
  GraphEdit e = OneRelu();
  e.order = {Orig(0), New(0), Orig(0)};
  EXPECT_EQ(EditError(bytes, e), "order[2]: original operator 0 appears twice in the order");
  e.order = {Orig(0), New(0), New(0)};
  EXPECT_EQ(EditError(bytes, e), "order[2]: new operator 0 appears twice in the order");
  e.order = {Orig(0), Orig(1)};
  EXPECT_EQ(EditError(bytes, e), "new operator 0 does not appear in the order");
  e.order = {Orig(2), New(0)};
  EXPECT_EQ(EditError(bytes, e),
            "order[0] = original operator 2, which does not exist (2 original operators)");
  e.order = {Orig(-1), New(0)};
  EXPECT_EQ(EditError(bytes, e),
            "order[0] = original operator -1, which does not exist (2 original operators)");
  e.order = {New(1), New(0)};
  EXPECT_EQ(EditError(bytes, e),
            "order[0] = new operator 1, which does not exist (1 new operators)");
}

// An edit whose every index is in range but that the model reader refuses
// (ADD carrying Conv2DOptions) is reported as such.
TEST(GraphEditWriter, RefusesEditsThatDoNotVerify) {
  const std::vector<uint8_t> bytes = testing::Build(Chain());
  GraphEdit e = OneRelu();
  e.operators[0].builtin_code = kAdd;
  e.operators[0].inputs = {1, 1};
  e.operators[0].options_type = kConv2DOptions;
  const std::string message = EditError(bytes, e);
  EXPECT_EQ(message.rfind("the edited model does not verify: subgraph 0 operator 1: ADD", 0), 0u)
      << message;
  // A constant smaller than its INT4 tensor is left to the model's check.
  e = OneRelu();
  e.tensors[0].like = -1;
  e.tensors[0].type = 17;  // INT4, 8 elements: 4 packed bytes
  e.tensors[0].data.assign(3, 0);
  EXPECT_EQ(EditError(bytes, e).rfind("the edited model does not verify: ", 0), 0u);
}

TEST(GraphEditWriter, BrokenModelsFailCleanly) {
  const std::vector<uint8_t> bytes = testing::Build(Chain());
  const GraphEdit edit = OneRelu();
  Status s;
  std::vector<uint8_t> out;
  for (size_t n : {size_t{0}, size_t{4}, size_t{8}, bytes.size() / 2, bytes.size() - 1}) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    s = WriteGraphEdit(cut.data(), cut.size(), edit, &out);
    EXPECT_FALSE(s.ok()) << n;
  }
  s = WriteGraphEdit(nullptr, 0, edit, &out);
  EXPECT_FALSE(s.ok());
  // Every single-byte corruption either fails with a message or gives a
  // model that verifies.
  size_t refused = 0, written = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t flip : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xff}}) {
      std::vector<uint8_t> bad = bytes;
      bad[i] ^= flip;
      out.clear();
      s = WriteGraphEdit(bad.data(), bad.size(), edit, &out);
      if (!s.ok()) {
        EXPECT_NE(s.message()[0], '\0');
        ++refused;
        continue;
      }
      ++written;
      Model m;
      EXPECT_TRUE(Model::FromBuffer(out.data(), out.size(), &m).ok()) << i;
    }
  }
  EXPECT_GT(refused, 0u);
  EXPECT_GT(written, 0u);
}

// Real models: the identity edit reads back equal.
TEST(GraphEditWriter, SharedModelsIdentityEdit) {
  for (const char* name : {"person_detect.tflite", "keyword_scrambled.tflite"}) {
    std::vector<uint8_t> bytes;
    TFLM_ARENA_LOAD_SHARED_OR_SKIP(name, bytes);
    const Model original = testing::MustLoad(bytes);
    GraphEdit edit;
    for (size_t i = 0; i < original.num_operators(0); ++i)
      edit.order.push_back(Orig(static_cast<int32_t>(i)));
    Status s;
    const std::vector<uint8_t> out = Edit(bytes, edit, &s);
    ASSERT_TRUE(s.ok()) << name << ": " << s.message();
    const Model m = testing::MustLoad(out);
    ExpectOriginalKept(original, m);
    ASSERT_EQ(m.num_operators(0), original.num_operators(0));
    for (size_t i = 0; i < m.num_operators(0); ++i) ExpectSameOperator(original, i, m, i);
  }
}

}  // namespace
}  // namespace model
}  // namespace tflm_arena
