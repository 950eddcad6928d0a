// Builtin operator options our kernels read, as plain structs (defaults as in
// the format when a field is absent). Decoded by Model::builtin_options().
#ifndef TFLM_ARENA_MODEL_BUILTIN_OPTIONS_H_
#define TFLM_ARENA_MODEL_BUILTIN_OPTIONS_H_

#include <cstdint>

#include "tflm_arena/core/span.h"

namespace tflm_arena {
namespace model {

enum class Padding : uint8_t { kSame = 0, kValid = 1 };
enum class Activation : uint8_t {
  kNone = 0, kRelu = 1, kReluN1To1 = 2, kRelu6 = 3, kTanh = 4, kSignBit = 5
};

struct ConvOptions {
  Padding padding = Padding::kSame;
  int32_t stride_w = 0, stride_h = 0;
  int32_t dilation_w = 1, dilation_h = 1;
  Activation activation = Activation::kNone;
  // TensorType value; 0 (FLOAT32, the schema default) means "not set".
  int8_t quantized_bias_type = 0;
};
struct DepthwiseConvOptions {
  Padding padding = Padding::kSame;
  int32_t stride_w = 0, stride_h = 0;
  int32_t depth_multiplier = 0;
  int32_t dilation_w = 1, dilation_h = 1;
  Activation activation = Activation::kNone;
};
struct PoolOptions {
  Padding padding = Padding::kSame;
  int32_t stride_w = 0, stride_h = 0;
  int32_t filter_w = 0, filter_h = 0;
  Activation activation = Activation::kNone;
};
struct FullyConnectedOptions {
  Activation activation = Activation::kNone;
  uint8_t weights_format = 0;  // 0 = DEFAULT (the only one we run)
  bool keep_num_dims = false;
};
struct SoftmaxOptions {
  float beta = 0.0f;
};
struct AddOptions {
  Activation activation = Activation::kNone;
};
struct ReshapeOptions {
  bool has_new_shape = false;       // the field may be absent
  Span<const int32_t> new_shape;    // points into the model
};

struct BuiltinOptions {
  enum class Kind : uint8_t {
    kNone, kConv, kDepthwiseConv, kPool, kFullyConnected, kSoftmax, kAdd, kReshape
  };
  Kind kind = Kind::kNone;
  ConvOptions conv;
  DepthwiseConvOptions depthwise;
  PoolOptions pool;
  FullyConnectedOptions fully_connected;
  SoftmaxOptions softmax;
  AddOptions add;
  ReshapeOptions reshape;
};

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_BUILTIN_OPTIONS_H_
