// Small float32 vision models for the rewrite tests, built with
// tests_cpp/model/test_builder.h. Tensor and operator numbers are stated in
// each builder's comment; the tests rely on them.
#ifndef TFLM_ARENA_TESTS_REWRITE_REWRITE_TEST_MODELS_H_
#define TFLM_ARENA_TESTS_REWRITE_REWRITE_TEST_MODELS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "test_builder.h"
#include "tflm_arena/model/builtin_ops.h"

namespace tflm_arena {
namespace testing {

constexpr int8_t kFloat32 = 0;
constexpr int8_t kInt32 = 2;

inline TTensor Activation(std::vector<int32_t> shape) {
  TTensor t;
  t.shape = std::move(shape);
  return t;
}

inline TTensor Constant(TModel* m, std::vector<int32_t> shape, int8_t type = kFloat32) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  TTensor t;
  t.shape = std::move(shape);
  t.type = type;
  t.buffer = AddConstBuffer(m, n * 4);
  return t;
}

inline TOp Window(uint32_t opcode, TOptions kind, std::vector<int32_t> inputs, int32_t output,
                  int32_t stride, int8_t padding = 0) {
  TOp op;
  op.opcode = opcode;
  op.inputs = std::move(inputs);
  op.outputs = {output};
  op.options = kind;
  op.stride = stride;
  op.padding = padding;
  return op;
}

// Opcodes 0..4: CONV_2D, DEPTHWISE_CONV_2D, ADD, RESHAPE, MAX_POOL_2D.
inline void AddOpcodes(TModel* m) {
  m->opcodes = {Builtin(model::kBuiltinConv2D), Builtin(model::kBuiltinDepthwiseConv2D),
                Builtin(model::kBuiltinAdd), Builtin(model::kBuiltinReshape),
                Builtin(model::kBuiltinMaxPool2D)};
}

// input t0 [1, 8, 8, 2]
// op 0 CONV_2D 3x3 stride 1 SAME (filter t1 [4, 3, 3, 2], bias t2 [4]) -> t3 [1, 8, 8, 4]
// op 1 DEPTHWISE_CONV_2D 3x3 stride 2 SAME (filter t4 [1, 3, 3, 4], bias t5) -> t6 [1, 4, 4, 4]
// op 2 ADD t6 + constant t7 [4] -> t8 [1, 4, 4, 4]
// op 3 RESHAPE t8 (shape t9) -> t10 [1, 64], the model output.
inline TModel ChainModel() {
  TModel m;
  AddOpcodes(&m);
  TSubgraph sg;
  sg.tensors = {Activation({1, 8, 8, 2}),  Constant(&m, {4, 3, 3, 2}), Constant(&m, {4}),
                Activation({1, 8, 8, 4}),  Constant(&m, {1, 3, 3, 4}), Constant(&m, {4}),
                Activation({1, 4, 4, 4}),  Constant(&m, {4}),          Activation({1, 4, 4, 4}),
                Constant(&m, {2}, kInt32), Activation({1, 64})};
  sg.inputs = {0};
  sg.outputs = {10};
  sg.ops = {Window(0, TOptions::kConv2D, {0, 1, 2}, 3, 1),
            Window(1, TOptions::kDepthwiseConv2D, {3, 4, 5}, 6, 2),
            {2, {6, 7}, {8}},
            {3, {8, 9}, {10}}};
  m.subgraphs = {sg};
  return m;
}

// A residual branch: input t0 [1, 6, 6, 2]
// op 0 CONV_2D 3x3 stride 1 SAME (t1, t2) -> t3 [1, 6, 6, 2]
// op 1 CONV_2D 3x3 stride 1 SAME (t1, t2) on t3 -> t4 [1, 6, 6, 2]
// op 2 ADD t4 + t3 -> t5 [1, 6, 6, 2]
// op 3 RESHAPE t5 (shape t6) -> t7 [1, 72], the model output.
// t3 is read by op 2, so the stage cannot end after op 1.
inline TModel ResidualModel() {
  TModel m;
  AddOpcodes(&m);
  TSubgraph sg;
  sg.tensors = {Activation({1, 6, 6, 2}),  Constant(&m, {2, 3, 3, 2}), Constant(&m, {2}),
                Activation({1, 6, 6, 2}),  Activation({1, 6, 6, 2}),   Activation({1, 6, 6, 2}),
                Constant(&m, {2}, kInt32), Activation({1, 72})};
  sg.inputs = {0};
  sg.outputs = {7};
  sg.ops = {Window(0, TOptions::kConv2D, {0, 1, 2}, 3, 1),
            Window(0, TOptions::kConv2D, {3, 1, 2}, 4, 1),
            {2, {4, 3}, {5}},
            {3, {5, 6}, {7}}};
  m.subgraphs = {sg};
  return m;
}

}  // namespace testing
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TESTS_REWRITE_REWRITE_TEST_MODELS_H_
