// Malformed input never crashes the reader: truncations, random bytes,
// mutations and synthetic models with every broken index or size, each
// refused with a message naming the problem.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "test_builder.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/tflite_subset_generated.h"

namespace tflm_arena {
namespace model {
namespace {

using testing::Build;
using testing::TModel;
using testing::TOp;
using testing::TSubgraph;
using testing::TTensor;

// Expects FromBuffer to fail with kInvalidArgument and `substring`.
void ExpectRejected(const std::vector<uint8_t>& bytes, const char* substring) {
  Model m;
  Status s = Model::FromBuffer(bytes.data(), bytes.size(), &m);
  ASSERT_FALSE(s.ok()) << "accepted; expected: " << substring;
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::strstr(s.message(), substring), nullptr)
      << "message: " << s.message() << "\nexpected: " << substring;
  EXPECT_FALSE(m.loaded());
}

// Exercises a model that loaded: accessors and lifetimes must not crash.
void Exercise(const Model& m) {
  for (size_t s = 0; s < m.num_subgraphs(); ++s) {
    for (size_t t = 0; t < m.num_tensors(s); ++t) {
      TensorInfo info;
      ASSERT_TRUE(m.tensor(s, t, &info).ok());
      size_t bytes;
      (void)m.tensor_bytes(s, t, &bytes);
    }
  }
  std::vector<AllocationEntry> e(AllocationInfoCount(m, 0));
  (void)ComputeModelAllocationInfo(m, {}, Span<AllocationEntry>(e));
}

// A valid two-tensor model that tests break one field at a time.
TModel Valid() {
  TModel t;
  t.opcodes = {testing::Builtin(0)};
  TSubgraph g;
  g.tensors = {TTensor(), TTensor()};
  g.inputs = {0};
  g.outputs = {1};
  g.ops = {TOp{0, {0}, {1}, {}}};
  t.subgraphs = {g};
  return t;
}

void CheckTruncation(const std::vector<uint8_t>& full, size_t len) {
  std::vector<uint8_t> cut(full.begin(), full.begin() + len);
  Model m;
  Status s = Model::FromBuffer(cut.data(), cut.size(), &m);
  ASSERT_FALSE(s.ok()) << "length " << len << " accepted";
  const char* want = len < 8 ? "too short" : "verification failed";
  EXPECT_NE(std::strstr(s.message(), want), nullptr) << "length " << len << ": " << s.message();
}

TEST(Malformed, ValidBaselineLoads) { testing::BuildAndLoad(Valid()); }

TEST(Malformed, HelloWorldCutAtEveryLength) {
  std::vector<uint8_t> full;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("hello_world_int8.tflite", full);
  for (size_t len = 0; len < full.size(); ++len) CheckTruncation(full, len);
}

TEST(Malformed, PersonDetectCutAtSampledLengths) {
  std::vector<uint8_t> full;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("person_detect.tflite", full);
  for (size_t len = 0; len < 2048; ++len) CheckTruncation(full, len);
  for (size_t len = 2048; len < full.size(); len += 997) {
    CheckTruncation(full, len);
  }
  for (size_t len = full.size() - 64; len < full.size(); ++len) {
    CheckTruncation(full, len);
  }
}

TEST(Malformed, SyntheticCutAtEveryLength) {
  const std::vector<uint8_t> full = Build(Valid());
  for (size_t len = 0; len < full.size(); ++len) CheckTruncation(full, len);
}

TEST(Malformed, RandomBytes) {
  std::mt19937 rng(1234);
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> bytes(rng() % 2048);
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    const bool with_id = (i % 2 == 0) && bytes.size() >= 8;
    if (with_id) std::memcpy(bytes.data() + 4, "TFL3", 4);
    Model m;
    Status s = Model::FromBuffer(bytes.data(), bytes.size(), &m);
    ASSERT_FALSE(s.ok()) << "random buffer " << i << " accepted";
    if (bytes.size() < 8) {
      EXPECT_NE(std::strstr(s.message(), "too short"), nullptr) << s.message();
    } else if (!with_id && std::memcmp(bytes.data() + 4, "TFL3", 4) != 0) {
      EXPECT_NE(std::strstr(s.message(), "not a TFLite model"), nullptr) << s.message();
    }
  }
}

// Mutations of a real model may stay valid (e.g. a changed weight); the
// reader must then serve every accessor and lifetimes without crashing.
TEST(Malformed, MutatedHelloWorldNeverCrashes) {
  std::vector<uint8_t> full;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("hello_world_int8.tflite", full);
  std::mt19937 rng(99);
  int accepted = 0;
  for (int i = 0; i < 4000; ++i) {
    std::vector<uint8_t> bytes = full;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      bytes[8 + rng() % (bytes.size() - 8)] = static_cast<uint8_t>(rng());
    }
    Model m;
    Status s = Model::FromBuffer(bytes.data(), bytes.size(), &m);
    if (s.ok()) {
      ++accepted;
      Exercise(m);
    } else {
      EXPECT_GT(std::strlen(s.message()), 10u);
    }
  }
  EXPECT_GT(accepted, 0);  // most flips land in weights
}

TEST(Malformed, HeaderProblems) {
  Model m;
  Status s = Model::FromBuffer(nullptr, 100, &m);
  EXPECT_NE(std::strstr(s.message(), "null"), nullptr) << s.message();
  std::vector<uint8_t> bytes = Build(Valid());
  std::memcpy(bytes.data() + 4, "TFL2", 4);
  ExpectRejected(bytes, "file identifier is 'TFL2', expected 'TFL3'");
  ExpectRejected(std::vector<uint8_t>(7, 0), "too short");
}

TEST(Malformed, ModelLevel) {
  TModel t = Valid();
  t.version = 2;
  ExpectRejected(Build(t), "schema version 2 is not supported");
  t = Valid();
  t.subgraphs.clear();
  ExpectRejected(Build(t), "model has no subgraphs");
}

TEST(Malformed, TensorIndicesOutOfRange) {
  TModel t = Valid();
  t.subgraphs[0].inputs = {5};
  ExpectRejected(Build(t),
                 "subgraph 0 input 0: tensor index 5 out of range (subgraph "
                 "has 2 tensors)");
  t = Valid();
  t.subgraphs[0].outputs = {1, -1};
  ExpectRejected(Build(t), "subgraph 0 output 1: tensor index -1 out of range");
  t = Valid();
  t.subgraphs[0].ops[0].inputs = {0, 57};
  ExpectRejected(Build(t),
                 "subgraph 0 operator 0 input 1: tensor index 57 out of range "
                 "(subgraph has 2 tensors)");
  t = Valid();
  t.subgraphs[0].ops[0].inputs = {-2};
  ExpectRejected(Build(t), "operator 0 input 0: tensor index -2 out of range");
  t = Valid();
  t.subgraphs[0].ops[0].outputs = {-1};
  ExpectRejected(Build(t), "operator 0 output 0: tensor index -1 out of range");
  t = Valid();
  t.subgraphs[0].ops[0].intermediates = {2};
  ExpectRejected(Build(t), "operator 0 intermediate 0: tensor index 2 out of range");
  t = Valid();
  t.subgraphs[0].ops[0].inputs = {0, -1};  // omitted optional input is fine
  testing::BuildAndLoad(t);
}

TEST(Malformed, OpcodeAndBufferIndices) {
  TModel t = Valid();
  t.subgraphs[0].ops[0].opcode = 3;
  ExpectRejected(Build(t),
                 "subgraph 0 operator 0: opcode index 3 out of range (model "
                 "has 1 operator codes)");
  t = Valid();
  t.subgraphs[0].tensors[1].buffer = 9;
  ExpectRejected(Build(t),
                 "subgraph 0 tensor 1: buffer index 9 out of range (model has "
                 "1 buffers)");
  t = Valid();
  t.buffers.clear();
  ExpectRejected(Build(t), "buffer index 0 out of range (model has 0 buffers)");
}

TEST(Malformed, Dimensions) {
  TModel t = Valid();
  t.subgraphs[0].tensors[1].shape = {1, -3};
  ExpectRejected(Build(t), "subgraph 0 tensor 1: negative dimension -3 at shape[1]");
  t = Valid();
  t.subgraphs[0].tensors[0].shape_signature = {-2};
  ExpectRejected(Build(t), "invalid dimension -2 at shape_signature[0]");
  t = Valid();
  t.subgraphs[0].tensors[0].shape_signature = {-1};  // unknown dim is fine
  testing::BuildAndLoad(t);
  t = Valid();
  t.subgraphs[0].tensors[0].shape = {65536, 65536, 65536, 65536, 65536};
  ExpectRejected(Build(t), "subgraph 0 tensor 0: byte size overflows");
  t = Valid();
  t.subgraphs[0].tensors[0].shape = {INT32_MAX, INT32_MAX, 4};  // 2^64 bytes
  ExpectRejected(Build(t), "byte size overflows");
  t = Valid();  // a zero dim makes any shape empty, not an overflow
  t.subgraphs[0].tensors[0].shape = {INT32_MAX, INT32_MAX, INT32_MAX, 0};
  testing::BuildAndLoad(t);
  t = Valid();
  t.subgraphs[0].tensors[0].shape = std::vector<int32_t>(33, 1);
  ExpectRejected(Build(t), "rank 33 exceeds the limit of 32");
}

TEST(Malformed, ControlFlowOptions) {
  TModel t = Valid();
  t.opcodes = {testing::Builtin(kBuiltinIf)};
  t.subgraphs.push_back(t.subgraphs[0]);
  t.subgraphs[0].ops[0].options = testing::TOptions::kIf;
  t.subgraphs[0].ops[0].sub_a = 1;
  t.subgraphs[0].ops[0].sub_b = 5;
  ExpectRejected(Build(t),
                 "subgraph 0 operator 0: IF subgraph index 5 out of range "
                 "(model has 2 subgraphs)");
  t.opcodes = {testing::Builtin(kBuiltinWhile)};
  t.subgraphs[0].ops[0].options = testing::TOptions::kWhile;
  t.subgraphs[0].ops[0].sub_a = -1;
  ExpectRejected(Build(t), "WHILE subgraph index -1 out of range");
  t.subgraphs[0].ops[0].options = testing::TOptions::kIf;  // wrong table
  ExpectRejected(Build(t),
                 "WHILE carries builtin options of type 92 (IfOptions); it "
                 "takes WhileOptions");
  t.opcodes = {testing::Builtin(kBuiltinCallOnce)};
  t.subgraphs[0].ops[0].options = testing::TOptions::kNone;
  ExpectRejected(Build(t), "CALL_ONCE without its builtin options table");
}

TEST(Malformed, Metadata) {
  TModel t = Valid();
  t.metadata = {{"x", 7}};
  ExpectRejected(Build(t),
                 "metadata 0 ('x'): buffer index 7 out of range (model has 1 "
                 "buffers)");
  t = Valid();
  t.metadata = {{std::string(100000, 'n'), 1u << 31}};
  ExpectRejected(Build(t), "buffer index 2147483648 out of range");
  t = Valid();
  t.metadata_buffer = {0, -1};
  ExpectRejected(Build(t), "metadata_buffer 1: buffer index -1 out of range");
}

TEST(Malformed, ExternalBuffers) {
  TModel t = Valid();
  testing::TBuffer ext;
  ext.offset = uint64_t{1} << 40;
  ext.size = 16;
  t.buffers.push_back(ext);
  ExpectRejected(Build(t), "buffer 1: external data [offset 1099511627776, size 16]");
  t.buffers.back().offset = UINT64_MAX - 1;  // offset + size wraps
  ExpectRejected(Build(t), "lies outside the");
  t.buffers.back() = testing::TBuffer();
  t.buffers.back().data = {1, 2, 3};
  t.buffers.back().offset = 8;
  ExpectRejected(Build(t), "buffer 1 has both inline data and an external offset");
}

// Too many tables for the Verifier: one tensor table referenced 1,000,001
// times (4 MB of offsets).
TEST(Malformed, TooManyTables) {
  namespace fb = ::tflm_arena::tflite;
  flatbuffers::FlatBufferBuilder b;
  auto tensor = fb::CreateTensor(b, b.CreateVector(std::vector<int32_t>{1}));
  std::vector<flatbuffers::Offset<fb::Tensor>> many(kVerifierMaxTables + 1, tensor);
  auto g = fb::CreateSubGraph(b, b.CreateVector(many));
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers = {fb::CreateBuffer(b)};
  auto root = fb::CreateModel(b, 3, 0, b.CreateVector(&g, 1), 0, b.CreateVector(buffers));
  fb::FinishModelBuffer(b, root);
  ExpectRejected(std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()),
                 "verification failed");
}

// One operator with a 1M-entry input list, referenced by 100 operator slots:
// cheap to verify, 100M entries to check. Refused by the work budget.
TEST(Malformed, AliasedHugeVectorsHitTheBudget) {
  namespace fb = ::tflm_arena::tflite;
  flatbuffers::FlatBufferBuilder b;
  std::vector<int32_t> inputs(1 << 20, 0);
  auto op =
      fb::CreateOperator(b, 0, b.CreateVector(inputs), b.CreateVector(std::vector<int32_t>{0}));
  std::vector<flatbuffers::Offset<fb::Operator>> ops(100, op);
  std::vector<flatbuffers::Offset<fb::Tensor>> tensors = {
      fb::CreateTensor(b, b.CreateVector(std::vector<int32_t>{1}))};
  auto g = fb::CreateSubGraph(b, b.CreateVector(tensors), 0, 0, b.CreateVector(ops));
  std::vector<flatbuffers::Offset<fb::OperatorCode>> codes = {fb::CreateOperatorCode(b)};
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers = {fb::CreateBuffer(b)};
  auto root = fb::CreateModel(b, 3, b.CreateVector(codes), b.CreateVector(&g, 1), 0,
                              b.CreateVector(buffers));
  fb::FinishModelBuffer(b, root);
  ExpectRejected(std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()),
                 "model is too complex to check");
}

}  // namespace
}  // namespace model
}  // namespace tflm_arena

namespace tflm_arena {
namespace model {
namespace {

// A constant buffer shorter than its tensor's shape (a
// 16-byte buffer for a [4096, 4096] weight) let kernels read past it.
TEST(Malformed, ConstantBufferShorterThanShape) {
  TModel t = Valid();
  TTensor w;
  w.shape = {4096, 4096};
  w.type = static_cast<int8_t>(TensorType::kInt8);
  w.name = "weights";
  w.buffer = testing::AddConstBuffer(&t, 16);
  t.subgraphs[0].tensors.push_back(w);
  t.subgraphs[0].ops[0].inputs = {0, 2};
  ExpectRejected(Build(t),
                 "tensor 2 ('weights'): constant buffer 1 holds 16 bytes but "
                 "the tensor's shape needs 16777216");
  // Exactly enough (float32: 4 bytes an element) or more loads.
  t.subgraphs[0].tensors[2].type = static_cast<int8_t>(TensorType::kFloat32);
  t.subgraphs[0].tensors[2].shape = {2, 2};
  testing::BuildAndLoad(t);
  t.subgraphs[0].tensors[2].shape = {3};
  testing::BuildAndLoad(t);
  t.subgraphs[0].tensors[2].shape = {5};
  ExpectRejected(Build(t), "holds 16 bytes but the tensor's shape needs 20");
}

TEST(Malformed, QuantizationArraysDisagree) {
  TModel t = Valid();
  t.subgraphs[0].tensors[0].shape = {1, 4};
  t.subgraphs[0].tensors[0].scale = {0.5f, 0.5f};
  t.subgraphs[0].tensors[0].zero_point = {0, 0, 0};
  ExpectRejected(Build(t), "2 quantization scales but 3 zero points");
  t.subgraphs[0].tensors[0].zero_point = {0, 0};
  t.subgraphs[0].tensors[0].quantized_dimension = 1;
  ExpectRejected(Build(t),
                 "2 per-channel quantization parameters but dimension 1 has 4 "
                 "channels");
  t.subgraphs[0].tensors[0].shape = {1, 2};
  testing::BuildAndLoad(t);
}

}  // namespace
}  // namespace model
}  // namespace tflm_arena
