// Test-only model builder: plain structs in, .tflite bytes out, written with
// flatbuffers::FlatBufferBuilder and the code generated from our schema
// subset. Lets tests state a graph in a few lines (and break it on purpose:
// nothing here validates indices).
#ifndef TFLM_ARENA_TESTS_MODEL_TEST_BUILDER_H_
#define TFLM_ARENA_TESTS_MODEL_TEST_BUILDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/model/model.h"
#include "tflm_arena/model/offline_plan.h"

namespace tflm_arena {
namespace testing {

struct TTensor {
  std::vector<int32_t> shape = {1};
  int8_t type = 0;  // FLOAT32
  uint32_t buffer = 0;
  bool is_variable = false;
  std::string name;
  std::vector<int32_t> shape_signature;
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t quantized_dimension = 0;
};

// kConv2D, kDepthwiseConv2D, kPool2D: square windows from TOp's `padding`,
// `stride`, `filter` (pooling) and `dilation`.
enum class TOptions {
  kNone,
  kIf,
  kWhile,
  kCallOnce,
  kConv2D,
  kDepthwiseConv2D,
  kPool2D,
  kVarHandle  // container "", shared_name TOp::shared_name
};

struct TOp {
  uint32_t opcode = 0;  // index into TModel::opcodes
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<int32_t> intermediates;
  TOptions options = TOptions::kNone;
  int32_t sub_a = 0;   // then / cond / init
  int32_t sub_b = 0;   // else / body
  int8_t padding = 0;  // SAME (1: VALID)
  int32_t stride = 1;
  int32_t filter = 1;
  int32_t dilation = 1;
  std::vector<uint8_t> custom_options;  // inline (a flexbuffer for TFLM's kernels)
  std::string shared_name;              // kVarHandle
};

struct TSubgraph {
  std::vector<TTensor> tensors;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<TOp> ops;
  std::string name;
};

struct TOpCode {
  int32_t builtin_code = 0;
  int8_t deprecated_builtin_code = 0;
  std::string custom_code;
  int32_t version = 1;
};

struct TBuffer {
  std::vector<uint8_t> data;
  // Place the data 4 bytes past a 16-byte boundary (as some converters
  // place int64 biases), instead of the schema's force_align 16.
  bool misalign_by_4 = false;
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct TModel {
  uint32_t version = 3;
  std::vector<TOpCode> opcodes;
  std::vector<TSubgraph> subgraphs;
  std::vector<TBuffer> buffers = {TBuffer()};  // buffer 0: empty sentinel
  std::vector<std::pair<std::string, uint32_t>> metadata;
  std::vector<int32_t> metadata_buffer;
  std::string description;
};

// Serializes the model; `trailing` bytes are appended after the flatbuffer
// (for external-buffer tests).
std::vector<uint8_t> Build(const TModel& m, const std::vector<uint8_t>& trailing = {});

// Convenience: opcode list entry for a builtin (byte field filled as old
// writers do when the code < 127).
TOpCode Builtin(int32_t code);

// Adds a buffer with `words` as little-endian int32 and a metadata entry
// named OfflineMemoryAllocation pointing at it.
void AddOfflinePlanWords(TModel* m, const std::vector<int32_t>& words);
// [0, num_subgraphs, offsets.size(), offsets...]
void AddOfflinePlan(TModel* m, const std::vector<int32_t>& offsets);

// Adds a buffer holding `bytes` constant bytes; returns its index.
uint32_t AddConstBuffer(TModel* m, size_t bytes);

// Loads bytes into a model, failing the test on error. The model points into
// `bytes`, which the caller keeps alive; temporaries are rejected at compile
// time.
model::Model MustLoad(const std::vector<uint8_t>& bytes);
model::Model MustLoad(std::vector<uint8_t>&& bytes) = delete;

// Owns the bytes and the model viewing them (moving keeps the view valid:
// a moved vector keeps its heap block).
struct Loaded {
  std::vector<uint8_t> bytes;
  model::Model model;
  Loaded() = default;
  Loaded(Loaded&&) = default;
  Loaded& operator=(Loaded&&) = default;
  Loaded(const Loaded&) = delete;
  Loaded& operator=(const Loaded&) = delete;
};
// Build(m) then MustLoad.
Loaded BuildAndLoad(const TModel& m);

// Path of the shared real models (TFLM_ARENA_SHARED_MODELS) and file reader.
std::string SharedModelsDir();
bool ReadFile(const std::string& path, std::vector<uint8_t>* out);
// True when the environment says CI=true: missing shared models then fail
// instead of skipping.
bool InCi();

}  // namespace testing
}  // namespace tflm_arena

// Reads shared model `file` into `bytes`, or skips the test (fails in CI).
#define TFLM_ARENA_LOAD_SHARED_OR_SKIP(file, bytes)                                               \
  do {                                                                                            \
    if (!::tflm_arena::testing::ReadFile(::tflm_arena::testing::SharedModelsDir() + "/" + (file), \
                                         &(bytes))) {                                             \
      if (::tflm_arena::testing::InCi()) FAIL() << "missing " << (file);                          \
      GTEST_SKIP() << "shared models not found at " << ::tflm_arena::testing::SharedModelsDir();  \
    }                                                                                             \
  } while (0)

#endif  // TFLM_ARENA_TESTS_MODEL_TEST_BUILDER_H_
