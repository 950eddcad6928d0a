// Real models load, with spot-checked values; synthetic models expose every
// accessor field. The shared models folder is optional locally (skip) but
// required in CI (CI=true).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <dirent.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_builder.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace model {
namespace {

using testing::Build;
using testing::TModel;

std::vector<std::string> ListTflite() {
  std::vector<std::string> names;
  DIR* dir = opendir(testing::SharedModelsDir().c_str());
  if (dir == nullptr) return names;
  while (dirent* e = readdir(dir)) {
    const std::string n = e->d_name;
    if (n.size() > 7 && n.compare(n.size() - 7, 7, ".tflite") == 0) {
      names.push_back(n);
    }
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

TEST(RealModels, EveryModelLoadsAndHasLifetimes) {
  const std::vector<std::string> names = ListTflite();
  if (names.empty()) {
    if (testing::InCi()) FAIL() << "no .tflite in " << testing::SharedModelsDir();
    GTEST_SKIP() << "shared models not found at " << testing::SharedModelsDir();
  }
  EXPECT_GE(names.size(), 20u);
  for (const std::string& n : names) {
    SCOPED_TRACE(n);
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(testing::ReadFile(testing::SharedModelsDir() + "/" + n, &bytes));
    Model m;
    Status s = Model::FromBuffer(bytes.data(), bytes.size(), &m);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(m.version(), 3u);
    ASSERT_GE(m.num_subgraphs(), 1u);
    std::vector<AllocationEntry> entries(AllocationInfoCount(m, 0));
    s = ComputeModelAllocationInfo(m, {}, Span<AllocationEntry>(entries));
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_GT(PlannedBufferCount(Span<const AllocationEntry>(entries)), 0u);
  }
}

TEST(RealModels, PersonDetect) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("person_detect.tflite", bytes);
  Model m = testing::MustLoad(bytes);
  EXPECT_STREQ(m.description(), "TOCO Converted.");
  ASSERT_EQ(m.num_subgraphs(), 1u);
  EXPECT_EQ(m.total_tensors(), 89u);
  EXPECT_EQ(m.num_buffers(), 90u);
  EXPECT_EQ(m.num_operator_codes(), 5u);
  SubgraphInfo g;
  ASSERT_TRUE(m.subgraph(0, &g).ok());
  EXPECT_EQ(g.num_tensors, 89u);
  EXPECT_EQ(g.num_operators, 31u);
  ASSERT_EQ(g.inputs.size(), 1u);
  EXPECT_EQ(g.inputs[0], 88);
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.outputs[0], 87);

  TensorInfo in;
  ASSERT_TRUE(m.tensor(0, 88, &in).ok());
  EXPECT_STREQ(in.name, "input");
  EXPECT_EQ(in.type, TensorType::kInt8);
  ASSERT_EQ(in.shape.size(), 4u);
  EXPECT_EQ(in.shape[0], 1);
  EXPECT_EQ(in.shape[1], 96);
  EXPECT_EQ(in.shape[2], 96);
  EXPECT_EQ(in.shape[3], 1);
  EXPECT_EQ(in.num_elements, 9216u);
  EXPECT_FALSE(in.has_constant_data);
  ASSERT_EQ(in.zero_point.size(), 1u);
  EXPECT_EQ(in.zero_point[0], -1);
  ASSERT_EQ(in.scale.size(), 1u);
  EXPECT_NEAR(in.scale[0], 0.00784314f, 1e-7);
  size_t bytes_in = 0;
  ASSERT_TRUE(m.tensor_bytes(0, 88, &bytes_in).ok());
  EXPECT_EQ(bytes_in, 9216u);

  OperatorInfo op;
  ASSERT_TRUE(m.op(0, 0, &op).ok());
  EXPECT_EQ(op.builtin_code, 4);  // DEPTHWISE_CONV_2D
  ASSERT_EQ(op.inputs.size(), 3u);
  EXPECT_EQ(op.inputs[0], 88);
  EXPECT_EQ(op.inputs[1], 0);
  EXPECT_EQ(op.inputs[2], 33);
  ASSERT_EQ(op.outputs.size(), 1u);
  EXPECT_EQ(op.outputs[0], 34);
  EXPECT_EQ(op.called.count, 0u);

  TensorInfo weights;
  ASSERT_TRUE(m.tensor(0, 0, &weights).ok());
  EXPECT_TRUE(weights.has_constant_data);
  BufferInfo buf;
  ASSERT_TRUE(m.buffer(weights.buffer, &buf).ok());
  EXPECT_FALSE(buf.external);
  EXPECT_EQ(buf.data.size(), weights.num_elements);  // int8 weights
  // TensorInfo carries the same bytes; an activation carries none.
  EXPECT_EQ(weights.constant_data.data(), buf.data.data());
  EXPECT_EQ(weights.constant_data.size(), buf.data.size());
  EXPECT_TRUE(in.constant_data.empty());
  EXPECT_EQ(in.constant_data.data(), nullptr);
}

TEST(RealModels, HelloWorldInt8) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("hello_world_int8.tflite", bytes);
  Model m = testing::MustLoad(bytes);
  SubgraphInfo g;
  ASSERT_TRUE(m.subgraph(0, &g).ok());
  EXPECT_STREQ(g.name, "main");
  EXPECT_EQ(g.num_tensors, 10u);
  ASSERT_EQ(g.num_operators, 3u);
  for (size_t i = 0; i < 3; ++i) {
    OperatorInfo op;
    ASSERT_TRUE(m.op(0, i, &op).ok());
    EXPECT_EQ(op.builtin_code, kBuiltinFullyConnected);
    EXPECT_STREQ(BuiltinCodeName(op.builtin_code), "FULLY_CONNECTED");
  }
  TensorInfo in;
  ASSERT_TRUE(m.tensor(0, 0, &in).ok());
  EXPECT_STREQ(in.name, "serving_default_dense_input:0");
  ASSERT_EQ(in.shape_signature.size(), 2u);
  EXPECT_EQ(in.shape_signature[0], -1);
  EXPECT_EQ(in.shape_signature[1], 1);
  ASSERT_EQ(m.num_metadata(), 2u);
  MetadataInfo md;
  ASSERT_TRUE(m.metadata(0, &md).ok());
  EXPECT_STREQ(md.name, "min_runtime_version");
  EXPECT_EQ(md.name_length, std::strlen("min_runtime_version"));
  EXPECT_EQ(md.buffer, 11u);
  OperatorCodeInfo code;
  ASSERT_TRUE(m.operator_code(0, &code).ok());
  EXPECT_EQ(code.builtin_code, kBuiltinFullyConnected);
}

TEST(RealModels, HelloWorldSignature) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("hello_world_int8.tflite", bytes);
  Model m = testing::MustLoad(bytes);
  ASSERT_EQ(m.num_signatures(), 1u);
  SignatureInfo sig;
  ASSERT_TRUE(m.signature(0, &sig).ok());
  EXPECT_STREQ(sig.key, "serving_default");
  EXPECT_EQ(sig.key_length, std::strlen("serving_default"));
  EXPECT_EQ(sig.subgraph, 0u);
  ASSERT_EQ(sig.num_inputs, 1u);
  ASSERT_EQ(sig.num_outputs, 1u);
  SignatureTensorInfo t;
  ASSERT_TRUE(m.signature_tensor(0, false, 0, &t).ok());
  EXPECT_STREQ(t.name, "dense_input");
  EXPECT_EQ(t.tensor, 0u);
  ASSERT_TRUE(m.signature_tensor(0, true, 0, &t).ok());
  EXPECT_STREQ(t.name, "dense_2");
  EXPECT_EQ(t.tensor, 9u);
  EXPECT_EQ(m.signature_tensor(0, true, 1, &t).code(), StatusCode::kOutOfRange);
  EXPECT_EQ(m.signature(1, &sig).code(), StatusCode::kOutOfRange);
  EXPECT_EQ(m.signature_tensor(1, false, 0, &t).code(), StatusCode::kOutOfRange);
}

// Measured with TFLM: the keyword model has 54 tensors, 7 SVDF ops that each
// request 2 scratch buffers, 16 planned tensors + 14 scratch = 30 planner
// buffers, 7 variable (tail) tensors; its input is the only buffer alive at
// step 0 and its output lives only at the last step. (Planned with TFLM's
// greedy algorithm these records give the measured head of 672 bytes.)
TEST(RealModels, KeywordScrambledWithSvdfScratch) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("keyword_scrambled.tflite", bytes);
  Model m = testing::MustLoad(bytes);
  std::vector<ScratchRequest> requests;
  for (size_t i = 0; i < m.num_operators(0); ++i) {
    OperatorInfo op;
    ASSERT_TRUE(m.op(0, i, &op).ok());
    if (op.builtin_code != 27) continue;  // SVDF
    TensorInfo feature, out;
    ASSERT_TRUE(m.tensor(0, op.inputs[1], &feature).ok());
    ASSERT_TRUE(m.tensor(0, op.outputs[0], &out).ok());
    const size_t batch = out.shape[0];
    requests.push_back({batch * feature.shape[0] * 4, int32_t(i), 0});
    requests.push_back({batch * out.shape[1] * 4, int32_t(i), 0});
  }
  ASSERT_EQ(requests.size(), 14u);
  std::vector<AllocationEntry> e(AllocationInfoCount(m, requests.size()));
  ASSERT_EQ(e.size(), 68u);
  Status s = ComputeModelAllocationInfo(
      m, Span<const ScratchRequest>(requests.data(), requests.size()),
      Span<AllocationEntry>(e));
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(PlannedBufferCount(Span<const AllocationEntry>(e)), 30u);
  size_t variables = 0;
  size_t live_at_zero = 0;
  for (size_t t = 0; t < 54; ++t) {
    TensorInfo info;
    ASSERT_TRUE(m.tensor(0, t, &info).ok());
    if (info.is_variable) {
      ++variables;
      EXPECT_FALSE(e[t].needs_allocating);
    }
    if (e[t].needs_allocating && e[t].first_created <= 0) ++live_at_zero;
  }
  EXPECT_EQ(variables, 7u);
  EXPECT_EQ(live_at_zero, 1u);
  SubgraphInfo g;
  ASSERT_TRUE(m.subgraph(0, &g).ok());
  EXPECT_EQ(e[g.inputs[0]].bytes, 192u);
  EXPECT_EQ(e[g.outputs[0]].first_created, 15);
  EXPECT_EQ(e[g.outputs[0]].last_used, 15);
  for (size_t j = 54; j < 68; ++j) {
    EXPECT_TRUE(e[j].is_scratch);
    EXPECT_EQ(e[j].first_created, e[j].last_used);
    EXPECT_TRUE(e[j].bytes == 256 || e[j].bytes == 128) << e[j].bytes;
  }
}

TEST(SyntheticModels, AccessorsReportEveryField) {
  TModel t;
  t.description = "synthetic";
  t.opcodes = {testing::Builtin(kBuiltinFullyConnected)};
  testing::TOpCode custom;
  custom.builtin_code = kBuiltinCustom;
  custom.deprecated_builtin_code = kBuiltinCustom;
  custom.custom_code = "MyOp";
  custom.version = 4;
  t.opcodes.push_back(custom);
  testing::TSubgraph g;
  g.name = "sg";
  testing::TTensor a;
  a.shape = {3, 2};  // 2 channels along quantized_dimension 1
  a.type = static_cast<int8_t>(TensorType::kInt16);
  a.name = "a";
  a.scale = {0.5f, 0.25f};
  a.zero_point = {3, -4};
  a.quantized_dimension = 1;
  a.shape_signature = {-1, 3};
  testing::TTensor w;
  w.shape = {4};
  w.type = static_cast<int8_t>(TensorType::kInt8);
  w.buffer = testing::AddConstBuffer(&t, 4);
  testing::TTensor scalar;
  scalar.shape = {};
  scalar.is_variable = true;
  g.tensors = {a, w, scalar};
  g.inputs = {0};
  g.outputs = {2};
  g.ops = {{0, {0, 1, -1}, {2}, {}}, {1, {2}, {2}, {}}};
  t.subgraphs = {g};
  std::vector<uint8_t> bytes = Build(t);
  Model m = testing::MustLoad(bytes);
  EXPECT_STREQ(m.description(), "synthetic");
  TensorInfo ti;
  ASSERT_TRUE(m.tensor(0, 0, &ti).ok());
  EXPECT_STREQ(ti.name, "a");
  EXPECT_EQ(ti.type, TensorType::kInt16);
  EXPECT_EQ(ti.num_elements, 6u);
  ASSERT_EQ(ti.scale.size(), 2u);
  EXPECT_EQ(ti.scale[1], 0.25f);
  ASSERT_EQ(ti.zero_point.size(), 2u);
  EXPECT_EQ(ti.zero_point[1], -4);
  EXPECT_EQ(ti.quantized_dimension, 1);
  size_t bytes_a = 0;
  ASSERT_TRUE(m.tensor_bytes(0, 0, &bytes_a).ok());
  EXPECT_EQ(bytes_a, 12u);
  ASSERT_TRUE(m.tensor(0, 1, &ti).ok());
  EXPECT_TRUE(ti.has_constant_data);
  EXPECT_STREQ(ti.name, "");
  ASSERT_TRUE(m.tensor(0, 2, &ti).ok());
  EXPECT_TRUE(ti.shape.empty());
  EXPECT_EQ(ti.num_elements, 1u);  // scalar
  EXPECT_TRUE(ti.is_variable);
  OperatorInfo op;
  ASSERT_TRUE(m.op(0, 0, &op).ok());
  EXPECT_EQ(op.inputs[2], -1);
  ASSERT_TRUE(m.op(0, 1, &op).ok());
  EXPECT_EQ(op.builtin_code, kBuiltinCustom);
  EXPECT_STREQ(op.custom_code, "MyOp");
  EXPECT_EQ(op.version, 4);
  EXPECT_EQ(op.opcode_index, 1u);
  // Out-of-range accessor arguments are kOutOfRange, not crashes.
  EXPECT_EQ(m.tensor(0, 3, &ti).code(), StatusCode::kOutOfRange);
  EXPECT_EQ(m.tensor(1, 0, &ti).code(), StatusCode::kOutOfRange);
  EXPECT_EQ(m.op(0, 2, &op).code(), StatusCode::kOutOfRange);
  BufferInfo b;
  EXPECT_EQ(m.buffer(9, &b).code(), StatusCode::kOutOfRange);
  MetadataInfo md;
  EXPECT_EQ(m.metadata(0, &md).code(), StatusCode::kOutOfRange);
  OperatorCodeInfo oc;
  EXPECT_EQ(m.operator_code(2, &oc).code(), StatusCode::kOutOfRange);
  SubgraphInfo gi;
  EXPECT_EQ(m.subgraph(1, &gi).code(), StatusCode::kOutOfRange);
  EXPECT_EQ(m.num_tensors(5), 0u);
}

TEST(SyntheticModels, BuiltinCodeIsMaxOfBothFields) {
  TModel t;
  testing::TOpCode old_writer;  // only the byte field
  old_writer.deprecated_builtin_code = 3;
  testing::TOpCode new_writer;  // code >= 127: byte holds the placeholder
  new_writer.deprecated_builtin_code = 127;
  new_writer.builtin_code = kBuiltinCallOnce + 1;
  t.opcodes = {old_writer, new_writer};
  testing::TSubgraph g;
  g.tensors = {testing::TTensor()};
  t.subgraphs = {g};
  testing::Loaded loaded = testing::BuildAndLoad(t);
  const Model& m = loaded.model;
  OperatorCodeInfo c;
  ASSERT_TRUE(m.operator_code(0, &c).ok());
  EXPECT_EQ(c.builtin_code, 3);
  EXPECT_EQ(c.raw_builtin_code, 0);
  ASSERT_TRUE(m.operator_code(1, &c).ok());
  EXPECT_EQ(c.builtin_code, kBuiltinCallOnce + 1);
  EXPECT_EQ(c.deprecated_builtin_code, 127);
}

TEST(SyntheticModels, ExternalBufferResolvedWhenPresent) {
  TModel t;
  testing::TSubgraph g;
  g.tensors = {testing::TTensor()};
  t.subgraphs = {g};
  // The flatbuffer length is only known after building: build once to
  // measure, then point the buffer at the appended bytes.
  testing::TBuffer ext;
  ext.offset = 2;  // placeholder, non-default so the table layout is final
  ext.size = 4;
  t.buffers.push_back(ext);
  const size_t base = Build(t).size();
  t.buffers.back().offset = base;
  std::vector<uint8_t> bytes = Build(t, {1, 2, 3, 4});
  ASSERT_EQ(bytes.size(), base + 4);
  Model m = testing::MustLoad(bytes);
  BufferInfo b;
  ASSERT_TRUE(m.buffer(1, &b).ok());
  EXPECT_TRUE(b.external);
  ASSERT_EQ(b.data.size(), 4u);
  EXPECT_EQ(b.data[0], 1);
  EXPECT_EQ(b.data[3], 4);
}

TEST(SyntheticModels, MisalignedPointerIsRefused) {
  TModel t;
  testing::TSubgraph g;
  g.tensors = {testing::TTensor()};
  t.subgraphs = {g};
  std::vector<uint8_t> bytes = Build(t);
  std::vector<uint8_t> shifted(bytes.size() + 8);
  std::copy(bytes.begin(), bytes.end(), shifted.begin() + 4);
  Model m;
  Status s = Model::FromBuffer(shifted.data() + 4, bytes.size(), &m);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::strstr(s.message(), "aligned"), nullptr) << s.message();
  EXPECT_FALSE(m.loaded());
}

// FromTrustedBuffer (TFLM's GetModel): the same view of a good model as
// FromBuffer, the header checks still run, and the Verifier does not.
TEST(TrustedLoad, SameViewAsVerifiedLoadOnRealModels) {
  const std::vector<std::string> names = ListTflite();
  if (names.empty()) {
    if (testing::InCi()) FAIL() << "no .tflite in " << testing::SharedModelsDir();
    GTEST_SKIP() << "shared models not found at " << testing::SharedModelsDir();
  }
  for (const std::string& n : names) {
    SCOPED_TRACE(n);
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(testing::ReadFile(testing::SharedModelsDir() + "/" + n, &bytes));
    Model verified;
    Model trusted;
    ASSERT_TRUE(Model::FromBuffer(bytes.data(), bytes.size(), &verified).ok());
    ASSERT_TRUE(Model::FromTrustedBuffer(bytes.data(), bytes.size(), &trusted).ok());
    ASSERT_TRUE(trusted.loaded());
    EXPECT_EQ(trusted.total_tensors(), verified.total_tensors());
    ASSERT_EQ(trusted.num_subgraphs(), verified.num_subgraphs());
    for (size_t sg = 0; sg < verified.num_subgraphs(); ++sg) {
      ASSERT_EQ(trusted.num_tensors(sg), verified.num_tensors(sg));
      for (size_t t = 0; t < verified.num_tensors(sg); ++t) {
        size_t a = 0, b = 1;
        const bool sized = verified.tensor_bytes(sg, t, &a).ok();
        ASSERT_EQ(trusted.tensor_bytes(sg, t, &b).ok(), sized) << sg << "/" << t;
        if (sized) EXPECT_EQ(a, b) << sg << "/" << t;
      }
    }
  }
}

TEST(TrustedLoad, HeaderChecksStillRunButNotTheVerifier) {
  TModel t;
  testing::TSubgraph g;
  g.tensors = {testing::TTensor()};
  t.subgraphs = {g};
  std::vector<uint8_t> bytes = Build(t);
  Model m;
  EXPECT_EQ(Model::FromTrustedBuffer(nullptr, 100, &m).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Model::FromTrustedBuffer(bytes.data(), 7, &m).code(), StatusCode::kInvalidArgument);
  std::vector<uint8_t> shifted(bytes.size() + 8);
  std::copy(bytes.begin(), bytes.end(), shifted.begin() + 4);
  Status s = Model::FromTrustedBuffer(shifted.data() + 4, bytes.size(), &m);
  EXPECT_NE(std::strstr(s.message(), "aligned"), nullptr) << s.message();
  std::vector<uint8_t> renamed = bytes;
  std::memcpy(renamed.data() + 4, "TFL2", 4);
  s = Model::FromTrustedBuffer(renamed.data(), renamed.size(), &m);
  EXPECT_NE(std::strstr(s.message(), "expected 'TFL3'"), nullptr) << s.message();
  EXPECT_FALSE(m.loaded());
  // A schema version FromBuffer refuses: the trusted load does not look.
  t.version = 2;
  bytes = Build(t);
  EXPECT_EQ(Model::FromBuffer(bytes.data(), bytes.size(), &m).code(),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(Model::FromTrustedBuffer(bytes.data(), bytes.size(), &m).ok());
  EXPECT_EQ(m.version(), 2u);
  EXPECT_EQ(m.total_tensors(), 1u);
}

}  // namespace
}  // namespace model
}  // namespace tflm_arena
