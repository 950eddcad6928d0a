// MEAN: hand-checked float and quantized means, axis resolution, TFLM's
// OpData size and the options parser. Parity with TFLM:
// tests_py/test_kernel_mean.py.
#include "tflm_arena/runtime/kernels/mean.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(MeanMath, FloatOverNegativeAndRepeatedAxes) {
  // [2, 3]: mean over axis -1 (and again 1) -> [2].
  const int32_t shape[2] = {2, 3};
  const int32_t axes[2] = {-1, 1};
  bool reduced[2];
  ASSERT_TRUE(ResolveMeanAxes(axes, 2, 2, reduced).ok());
  EXPECT_FALSE(reduced[0]);
  EXPECT_TRUE(reduced[1]);
  const float in[6] = {1, 2, 6, -3, 0, 0};
  float out[2];
  MeanFloat(in, shape, 2, reduced, 2, out);
  EXPECT_FLOAT_EQ(out[0], 3.0f);
  EXPECT_FLOAT_EQ(out[1], -1.0f);
  // Over axis 0 -> [3].
  const int32_t axis0 = 0;
  ASSERT_TRUE(ResolveMeanAxes(&axis0, 1, 2, reduced).ok());
  float out3[3];
  MeanFloat(in, shape, 2, reduced, 3, out3);
  EXPECT_FLOAT_EQ(out3[0], -1.0f);
  EXPECT_FLOAT_EQ(out3[1], 1.0f);
  EXPECT_FLOAT_EQ(out3[2], 3.0f);
}

TEST(MeanMath, QuantizedFoldsTheCountIntoTheMultiplier) {
  // Equal scales (multiplier 2^30, shift 1), zero points 10 in, -5 out.
  MeanOpData data;
  int shift = 0;
  QuantizeMultiplier(1.0, &data.multiplier, &shift);
  data.shift = shift;
  data.input_zp = 10;
  data.output_zp = -5;
  const int32_t shape[2] = {1, 4};
  const int32_t axis = 1;
  bool reduced[2];
  ASSERT_TRUE(ResolveMeanAxes(&axis, 1, 2, reduced).ok());
  const int8_t in[4] = {12, 13, 14, 16};  // minus 10: 2 3 4 6, mean 3.75
  int32_t sum[1];
  int8_t out[1];
  MeanInt8(data, in, shape, 2, reduced, 1, sum, out);
  EXPECT_EQ(sum[0], 55);
  EXPECT_EQ(out[0], 4 - 5);  // 3.75 rounds to 4
  // Clamped to INT8.
  data.output_zp = 126;
  MeanInt8(data, in, shape, 2, reduced, 1, sum, out);
  EXPECT_EQ(out[0], 127);
}

TEST(MeanMath, AxisOutOfRangeIsRefused) {
  bool reduced[3];
  const int32_t bad = 3;
  Status st = ResolveMeanAxes(&bad, 1, 3, reduced);
  EXPECT_NE(std::string(st.message()).find("MEAN: axis 3 outside [-3, 3)"), std::string::npos);
  const int32_t low = -4;
  EXPECT_FALSE(ResolveMeanAxes(&low, 1, 3, reduced).ok());
}

TEST(MeanPersistent, TflmOpDataSize) {
  EXPECT_EQ(kMeanPersistentBytes, 44u);
  EXPECT_EQ(sizeof(ReducerOptions), 1u);
}

TEST(MeanOptions, ParsesKeepDims) {
  OptionsTableBuilder tb;
  tb.Add<uint8_t>(0, 1);
  model::OptionsTable table = tb.Build(27);
  ReducerOptions o;
  ASSERT_TRUE(Parse(Register_MEAN(), table, &o).ok());
  EXPECT_TRUE(o.keep_dims);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
