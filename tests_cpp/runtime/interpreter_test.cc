// The allocation flow and Invoke on small built models with test kernels.
#include "tflm_arena/runtime/interpreter.h"

#include <gtest/gtest.h>

#include <cstring>
#include <new>
#include <string>

#include "runtime_test_util.h"

namespace tflm_arena {
namespace testing {
namespace {

using runtime::EvalTensor;
using runtime::Interpreter;
using runtime::InterpreterOptions;
using runtime::PlannedBuffer;

class InterpreterTest : public ::testing::Test {
 protected:
  void SetUp() override { Config() = TestKernelConfig(); }
};

TEST_F(InterpreterTest, AddThenCopyComputesTheSum) {
  Loaded l = BuildAndLoad(AddReshapeModel());
  TestResolver r;
  r.Add(AddKernel());
  r.Add(CopyKernel());
  TestArena arena(4096);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  EXPECT_EQ(it.inputs_size(), 2u);
  EXPECT_EQ(it.outputs_size(), 1u);
  EXPECT_EQ(it.input(0), nullptr);  // not allocated yet
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  EXPECT_TRUE(it.allocated());
  SetFloats(it.input(0), {1, 2, 3, 4});
  SetFloats(it.input(1), {10, 20, 30, 40});
  ASSERT_TRUE(it.Invoke().ok());
  EXPECT_EQ(GetFloats(it.output(0)), (std::vector<float>{11, 22, 33, 44}));
  EXPECT_EQ(it.input(2), nullptr);
  EXPECT_EQ(it.tensor(0, 3), it.output(0));
  EXPECT_EQ(it.tensor(0, 4), nullptr);
  EXPECT_EQ(it.tensor(1, 0), nullptr);
  EXPECT_EQ(it.input_tensor_index(1), 1);
  EXPECT_EQ(it.output_tensor_index(0), 3);
  EXPECT_EQ(it.output_tensor_index(1), -1);
  EXPECT_TRUE(arena.GuardIntact());
}

TEST_F(InterpreterTest, EvalTensorsDescribeTheModel) {
  TModel t = AddReshapeModel();
  const uint32_t const_buffer = AddConstBuffer(&t, 16);
  t.subgraphs[0].tensors[1].buffer = const_buffer;  // constant
  t.subgraphs[0].inputs = {0};
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(AddKernel());
  r.Add(CopyKernel());
  TestArena arena(4096);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  const EvalTensor* c = it.tensor(0, 1);
  model::BufferInfo b;
  ASSERT_TRUE(l.model.buffer(const_buffer, &b).ok());
  EXPECT_EQ(c->data, b.data.data());  // constants point into the model
  EXPECT_EQ(c->rank, 2);
  EXPECT_EQ(c->dim(1), 4);
  EXPECT_EQ(c->type, model::TensorType::kFloat32);
  model::TensorInfo info;
  ASSERT_TRUE(l.model.tensor(0, 1, &info).ok());
  EXPECT_EQ(c->dims, info.shape.data());  // zero-copy dims
  // Planned tensors lie in the head.
  for (size_t i : {0u, 2u, 3u}) {
    const EvalTensor* e = it.tensor(0, i);
    EXPECT_GE(e->data, arena.data());
    EXPECT_LT(e->data, arena.data() + it.head_bytes());
  }
}

TEST_F(InterpreterTest, HeadIsTheGreedyPlanOfTheModel) {
  TModel t = ChainModel({kReshapeCode}, 6, 37);
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(CopyKernel());
  TestArena arena(8192);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  EXPECT_EQ(static_cast<int64_t>(it.head_bytes()), ReferenceGreedyHead(l.model));
  EXPECT_EQ(it.head_bytes(), 2u * 160u);  // 148 B -> 160, two live at a time
  EXPECT_EQ(it.planned_buffer_count(), 7u);
  EXPECT_EQ(it.used_bytes(), it.head_bytes() + it.tail_bytes());
}

TEST_F(InterpreterTest, MissingKernelIsNamed) {
  CopyRun run(ChainModel({kReshapeCode, kSvdfCode}, 4, 4), 4096);
  Status s = run.it->AllocateTensors();
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_STREQ(s.message(),
               "no kernel for 1 operator type: SVDF (operator 1 of subgraph "
               "0, 2 uses)");
  // Reported before any allocation, even with no arena at all.
  Interpreter empty(run.l.model, run.r.resolver, nullptr, 0);
  EXPECT_EQ(empty.AllocateTensors().code(), StatusCode::kUnimplemented);
}

TEST_F(InterpreterTest, CustomOperatorIsNotSupported) {
  TModel t = ChainModel({kReshapeCode}, 2, 4);
  TOpCode custom;
  custom.builtin_code = model::kBuiltinCustom;
  custom.deprecated_builtin_code = model::kBuiltinCustom;
  custom.custom_code = "MyOp";
  t.opcodes.push_back(custom);
  t.subgraphs[0].ops[1].opcode = 1;
  CopyRun run(t, 4096);
  Status s = run.it->AllocateTensors();
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_STREQ(s.message(),
               "no kernel for 1 operator type: custom 'MyOp' (operator 1 of "
               "subgraph 0)");
}

TEST_F(InterpreterTest, InvokeAllocatesFirst) {
  Loaded l = BuildAndLoad(AddReshapeModel());
  TestResolver r;
  r.Add(AddKernel());
  r.Add(CopyKernel());
  TestArena arena(4096);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  ASSERT_TRUE(it.Invoke().ok());
  EXPECT_TRUE(it.allocated());
  EXPECT_EQ(Config().invoke_calls, 2);
  EXPECT_TRUE(it.AllocateTensors().ok());  // idempotent
  EXPECT_EQ(Config().invoke_calls, 2);
}

TEST_F(InterpreterTest, FailureIsStickyAndSafe) {
  Loaded l = BuildAndLoad(AddReshapeModel());
  TestResolver r;
  r.Add(AddKernel());
  r.Add(CopyKernel());
  TestArena arena(200);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  Status s = it.AllocateTensors();
  ASSERT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_NE(std::string(s.message()).find("arena too small"), std::string::npos) << s.message();
  EXPECT_STREQ(it.AllocateTensors().message(), s.message());
  EXPECT_EQ(it.Invoke().code(), StatusCode::kArenaTooSmall);
  EXPECT_EQ(it.Reset().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(it.input(0), nullptr);
  EXPECT_EQ(it.output(0), nullptr);
  EXPECT_EQ(it.tensor(0, 0), nullptr);
  EXPECT_EQ(it.required_arena_bytes(), 0u);
  EXPECT_EQ(it.status().code(), StatusCode::kArenaTooSmall);
  EXPECT_EQ(it.RegisterPreallocatedTensor(0, nullptr, 0).code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(arena.GuardIntact());
}

TEST_F(InterpreterTest, KernelErrorsNameTheOperator) {
  TModel t = ChainModel({kReshapeCode, kSoftmaxCode}, 2, 4);
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(CopyKernel());
  r.Add(FailingKernel(kSoftmaxCode));
  TestArena arena(4096);
  {
    Config().fail_prepare = true;
    Interpreter it(l.model, r.resolver, arena.data(), arena.size());
    Status s = it.AllocateTensors();
    EXPECT_EQ(s.code(), StatusCode::kInternal);
    EXPECT_STREQ(s.message(),
                 "test kernel: prepare failed on purpose; operator 1 (SOFTMAX, "
                 "subgraph 0) failed to prepare");
  }
  {
    Config().fail_prepare = false;
    Interpreter it(l.model, r.resolver, arena.data(), arena.size());
    ASSERT_TRUE(it.AllocateTensors().ok());
    Status s = it.Invoke();
    EXPECT_STREQ(s.message(),
                 "test kernel: invoke failed on purpose; operator 1 (SOFTMAX, "
                 "subgraph 0) failed to invoke");
    EXPECT_TRUE(it.allocated());  // invoke errors are not sticky
  }
}

TEST_F(InterpreterTest, VariablesLiveInTheTailAndAreReset) {
  // in(int8[1,8]) + var(int8[1,8], zero point -3) -> ADD(nop) -> out
  TModel t;
  t.opcodes = {Builtin(kAddCode)};
  TSubgraph g;
  TTensor in;
  in.shape = {1, 8};
  in.type = kInt8Type;
  TTensor var = in;
  var.is_variable = true;
  var.scale = {0.5f};
  var.zero_point = {-3};
  TTensor var2 = in;  // float variable: reset to 0
  var2.type = kFloat32;
  var2.is_variable = true;
  g.tensors = {in, var, in, var2};
  g.inputs = {0};
  g.outputs = {2};
  g.ops = {TOp{0, {0, 1, 3}, {2}}};
  t.subgraphs = {g};
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(NopKernel(kAddCode));
  TestArena arena(4096);
  InterpreterOptions o;
  o.recording = true;
  Interpreter it(l.model, r.resolver, arena.data(), arena.size(), o);
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  EvalTensor* v = it.tensor(0, 1);
  EvalTensor* f = it.tensor(0, 3);
  // In the tail: the last tail_bytes() of the usable arena.
  EXPECT_GE(v->data, arena.data() + it.arena_capacity() - it.tail_bytes());
  EXPECT_GE(f->data, arena.data() + it.arena_capacity() - it.tail_bytes());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(v->data) % 16, 0u);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(v->as<int8_t>()[i], -3);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(f->data[i], 0);
  const RecordedAllocation rec = it.recorded(AllocationCategory::kVariableBufferData);
  EXPECT_EQ(rec.count, 2u);
  EXPECT_EQ(rec.requested_bytes, 8u + 32u);
  EXPECT_EQ(rec.used_bytes, 16u + 32u);
  // Only activations are planned: in and out, both 16 B, overlapping.
  EXPECT_EQ(it.head_bytes(), 32u);
  memset(v->data, 7, 8);
  memset(f->data, 7, 32);
  ASSERT_TRUE(it.Reset().ok());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(v->as<int8_t>()[i], -3);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(f->data[i], 0);
}

TEST_F(InterpreterTest, KernelResetRunsOnAllocateAndReset) {
  Loaded l = BuildAndLoad(ChainModel({kFcCode}, 2, 4));
  TestResolver r;
  r.Add(PersistentKernel());
  TestArena arena(4096);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  ASSERT_TRUE(it.AllocateTensors().ok());
  EXPECT_EQ(Config().reset_calls, 2);
  ASSERT_TRUE(it.Invoke().ok());
  ASSERT_TRUE(it.Reset().ok());
  EXPECT_EQ(Config().reset_calls, 4);
}

TEST_F(InterpreterTest, DynamicOutputShapeIsRejected) {
  TModel t = ChainModel({kReshapeCode}, 2, 4);
  t.subgraphs[0].tensors[1].shape = {2, 0};
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(CopyKernel());
  TestArena arena(4096);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  Status s = it.AllocateTensors();
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_NE(std::string(s.message()).find("output tensor 1 has a dynamic shape"), std::string::npos)
      << s.message();
}

TEST_F(InterpreterTest, LegacyScalarAndScalarOutputsAreAccepted) {
  TModel t = ChainModel({kReshapeCode}, 2, 4);
  t.subgraphs[0].tensors[1].shape = {0};
  t.subgraphs[0].tensors[2].shape = {};
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(NopKernel(kReshapeCode));
  TestArena arena(4096);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  EXPECT_TRUE(it.AllocateTensors().ok()) << it.status().message();
}

TEST_F(InterpreterTest, ModelNotLoaded) {
  model::Model empty;
  TestResolver r;
  TestArena arena(256);
  Interpreter it(empty, r.resolver, arena.data(), arena.size());
  EXPECT_EQ(it.inputs_size(), 0u);
  EXPECT_EQ(it.AllocateTensors().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(it.Invoke().code(), StatusCode::kFailedPrecondition);
}

// A test kernel's own options struct and parser (field 0 of
// FullyConnectedOptions is fused_activation_function).
struct FcTestOptions {
  model::Activation activation = model::Activation::kNone;
  int32_t parsed_marker = 0;
};
Status ParseFcTestOptions(model::OptionsTable& table, void* out) {
  FcTestOptions o;
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
  o.parsed_marker = 77;
  new (out) FcTestOptions(o);
  return Status::Ok();
}

TEST_F(InterpreterTest, OptionsLiveInTheTail) {
  // Real model with FULLY_CONNECTED options: node.builtin_data is the
  // struct the kernel's own parser decoded, in the tail.
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("hello_world_int8.tflite", bytes);
  model::Model m = MustLoad(bytes);
  struct Seen {
    const void* data = nullptr;
    model::Activation activation = model::Activation::kNone;
    int32_t marker = 0;
  };
  static Seen seen[3];
  runtime::KernelRegistration fc = NopKernel(kFcCode);
  fc.options =
      runtime::MakeOptionsParser<FcTestOptions>(model::kFullyConnectedOptions, ParseFcTestOptions);
  fc.prepare = [](runtime::KernelContext&, runtime::Node& node) {
    seen[node.index].data = node.builtin_data;
    if (node.builtin_data != nullptr) {
      seen[node.index].activation = node.options<FcTestOptions>().activation;
      seen[node.index].marker = node.options<FcTestOptions>().parsed_marker;
    }
    return Status::Ok();
  };
  TestResolver r;
  r.Add(fc);
  TestArena arena(8192);
  Interpreter it(m, r.resolver, arena.data(), arena.size());
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  for (int i = 0; i < 3; ++i) {
    ASSERT_NE(seen[i].data, nullptr);
    EXPECT_GE(static_cast<const uint8_t*>(seen[i].data),
              arena.data() + it.arena_capacity() - it.tail_bytes());
    EXPECT_EQ(seen[i].marker, 77);
    model::OptionsTable t;
    ASSERT_TRUE(m.builtin_options(0, i, &t).ok());
    ASSERT_TRUE(t.present());
    EXPECT_EQ(t.type(), 8);  // FullyConnectedOptions
    EXPECT_EQ(seen[i].activation, static_cast<model::Activation>(t.UInt8(0, 0)));
  }
  EXPECT_EQ(seen[0].activation, model::Activation::kRelu);
  EXPECT_EQ(seen[2].activation, model::Activation::kNone);
}

TEST_F(InterpreterTest, KernelWithoutParserGetsNoOptions) {
  // The same model with a kernel that reads no options: nothing is decoded
  // or allocated for them.
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("hello_world_int8.tflite", bytes);
  model::Model m = MustLoad(bytes);
  static const void* data[3];
  runtime::KernelRegistration fc = NopKernel(kFcCode);
  fc.prepare = [](runtime::KernelContext&, runtime::Node& node) {
    data[node.index] = node.builtin_data;
    return Status::Ok();
  };
  TestResolver plain;
  plain.Add(fc);
  fc.options =
      runtime::MakeOptionsParser<FcTestOptions>(model::kFullyConnectedOptions, ParseFcTestOptions);
  TestResolver parsing;
  parsing.Add(fc);
  TestArena a(8192), b(8192);
  Interpreter without(m, plain.resolver, a.data(), a.size());
  ASSERT_TRUE(without.AllocateTensors().ok()) << without.status().message();
  for (const void* d : data) EXPECT_EQ(d, nullptr);
  Interpreter with(m, parsing.resolver, b.data(), b.size());
  ASSERT_TRUE(with.AllocateTensors().ok()) << with.status().message();
  // Three FcTestOptions (8 bytes each, 4-aligned) in the tail.
  EXPECT_EQ(with.tail_bytes(), without.tail_bytes() + 3 * sizeof(FcTestOptions));
}

TEST_F(InterpreterTest, ForeignOptionsTableIsRejected) {
  // A kernel declaring a table type the operator does not carry: refused
  // before parsing, naming both (the reader only knows its own operators).
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("hello_world_int8.tflite", bytes);
  model::Model m = MustLoad(bytes);
  runtime::KernelRegistration fc = NopKernel(kFcCode);
  fc.options =
      runtime::MakeOptionsParser<FcTestOptions>(model::kLeakyReluOptions, ParseFcTestOptions);
  TestResolver r;
  r.Add(fc);
  TestArena arena(8192);
  Interpreter it(m, r.resolver, arena.data(), arena.size());
  const Status s = it.AllocateTensors();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message())
                .find("subgraph 0 operator 0: FULLY_CONNECTED carries builtin options of type 8; "
                      "it takes LeakyReluOptions"),
            std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
