// Test-only builder of one-operator models WITH builtin options (the model
// layer's test_builder writes none), plus a runner that allocates and invokes
// them with the shipped kernels inside an arena fenced by guard bytes on both
// sides. Used by kernel_hostile_test.cc to feed kernels hostile models.
#ifndef TFLM_ARENA_TESTS_CPP_RUNTIME_HOSTILE_MODEL_H_
#define TFLM_ARENA_TESTS_CPP_RUNTIME_HOSTILE_MODEL_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace testing {

// TensorType values (the format's).
enum : int8_t { kF32 = 0, kI32 = 2, kU8 = 3, kI64 = 4, kI16 = 7, kI8 = 9 };

struct HTensor {
  std::vector<int32_t> shape;
  int8_t type = kF32;
  std::vector<float> scale;  // empty: not quantized
  std::vector<int64_t> zero_point;
  int32_t quantized_dimension = 0;
  std::vector<uint8_t> data;  // non-empty: a constant
};

// Every option field any of our kernels reads; `kind` picks the table.
struct HOptions {
  enum class Kind {
    kNone,
    kConv,
    kDepthwise,
    kPool,
    kFc,
    kSoftmax,
    kAdd,
    kReshape
  } kind = Kind::kNone;
  bool valid_padding = false;
  int32_t stride_w = 1, stride_h = 1;
  int32_t dilation_w = 1, dilation_h = 1;
  int32_t depth_multiplier = 1;
  int32_t filter_w = 1, filter_h = 1;
  int8_t activation = 0;
  int8_t quantized_bias_type = 0;
  int8_t weights_format = 0;
  float beta = 1.0f;
};

struct HModel {
  int32_t builtin_code = 0;
  HOptions options;
  std::vector<HTensor> tensors;
  std::vector<int32_t> op_inputs;  // -1: omitted
  std::vector<int32_t> op_outputs;
};

// Serialized .tflite: graph inputs are the operator's non-constant inputs,
// graph outputs its outputs.
std::vector<uint8_t> BuildHostile(const HModel& m);

// Tensor helpers.
HTensor Activation(std::vector<int32_t> shape, int8_t type, std::vector<float> scale = {},
                   std::vector<int64_t> zero_point = {});
template <typename T>
HTensor Constant(std::vector<int32_t> shape, int8_t type, const std::vector<T>& values,
                 std::vector<float> scale = {}, std::vector<int64_t> zero_point = {}) {
  HTensor t = Activation(std::move(shape), type, std::move(scale), std::move(zero_point));
  t.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

// What happened to a model: AllocateTensors' status, then (only when that
// succeeded) Invoke's, and whether the 64 guard bytes before and after the
// arena survived both.
struct HostileOutcome {
  Status allocate;
  Status invoke;
  bool invoked = false;
  bool guards_intact = false;
};

// Loads the model (must verify), adds the shipped kernels it needs, and runs
// it in an arena of `arena_bytes` with every input byte set to `input_byte`.
HostileOutcome RunHostile(const HModel& m, size_t arena_bytes = 1 << 20, uint8_t input_byte = 0x7f);

}  // namespace testing
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TESTS_CPP_RUNTIME_HOSTILE_MODEL_H_
