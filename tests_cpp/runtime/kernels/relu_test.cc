// RELU / RELU6: hand-checked math (RELU's requantization and its float
// ratio, RELU6's clamp in the input's scale and its saturating six),
// persistent bytes equal to TFLM's. Parity with the real TFLM:
// tests_py/test_kernel_relu.py.
#include "tflm_arena/runtime/kernels/relu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;

TEST(ReluMath, FloatClampsAndKeepsNan) {
  const float in[] = {-1.0f, 0.0f, 2.5f, 7.0f, NAN};
  float out[5];
  ReluFloat(5, in, out);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[2], 2.5f);
  EXPECT_EQ(out[3], 7.0f);
  EXPECT_TRUE(std::isnan(out[4]));
  Relu6Float(5, in, out);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[2], 2.5f);
  EXPECT_EQ(out[3], 6.0f);
  EXPECT_TRUE(std::isnan(out[4]));
}

TEST(ReluMath, Int8RequantizesAndClampsAtTheOutputZeroPoint) {
  // 0.1 -> 0.05: doubles; zero points -20 -> 3.
  ReluOpData d;
  ASSERT_TRUE(PrepareReluQuantized(TensorType::kInt8, 0.1f, -20, 0.05f, 3, &d).ok());
  EXPECT_EQ(d.quantized_activation_min, 3);
  EXPECT_EQ(d.quantized_activation_max, 127);
  const int8_t in[] = {-20, -19, -30, 10, 127};
  int8_t out[5];
  ReluInt8(d, 5, in, out);
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], 5);
  EXPECT_EQ(out[2], 3);   // negative -> the zero point
  EXPECT_EQ(out[3], 63);  // 3 + 2 * 30
  EXPECT_EQ(out[4], 127);
}

TEST(ReluMath, Relu6ClampsInTheInputScaleAndSaturatesSix) {
  Relu6OpData d;
  PrepareRelu6Quantized(TensorType::kInt8, 0.05f, -10, &d);
  EXPECT_EQ(d.zero, -10);
  EXPECT_EQ(d.six, 110);  // -10 + 6 / 0.05
  const int8_t in[] = {-128, -10, 50, 111, 127};
  int8_t out[5];
  Relu6Int8(d, 5, in, out);
  EXPECT_EQ(out[0], -10);
  EXPECT_EQ(out[1], -10);
  EXPECT_EQ(out[2], 50);
  EXPECT_EQ(out[3], 110);
  EXPECT_EQ(out[4], 110);
  PrepareRelu6Quantized(TensorType::kInt16, 1e-12f, 0, &d);  // 6e12 steps
  EXPECT_EQ(d.six, 32767);
}

TEST(ReluPersistent, OpDataSizesAreTflms) {
  EXPECT_EQ(kReluPersistentBytes, 28u);
  EXPECT_EQ(kRelu6PersistentBytes, 8u);
  EXPECT_EQ(Register_RELU().builtin_code, model::kBuiltinRelu);
  EXPECT_EQ(Register_RELU6().builtin_code, model::kBuiltinRelu6);
  EXPECT_EQ(Register_RELU().options.parse, nullptr);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
