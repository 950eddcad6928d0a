// DEQUANTIZE: hand-checked math and golden vectors from the real TFLM
// (within 1e-5 relative, persistent bytes equal to TFLM's).
#include "tflm_arena/runtime/kernels/dequantize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "golden/dequantize_golden.h"
#include "kernel_test_util.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::Activation;
using model::Padding;
using model::TensorInfo;
using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(DequantizeMath, ByHand) {
  const int8_t in[3] = {5, 3, -128};
  float out[3] = {};
  Dequantize(in, 3, 0.5, 3, out);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_EQ(out[2], -65.5f);
  const uint8_t u[2] = {0, 255};
  Dequantize(u, 2, 1.0, 128, out);
  EXPECT_EQ(out[0], -128.0f);
  EXPECT_EQ(out[1], 127.0f);
}

TEST(DequantizePersistent, OpDataSizeMatchesTflmOn64Bit) {
  if (sizeof(void*) != 8) GTEST_SKIP() << "figures measured on LP64";
  EXPECT_EQ(kDequantizePersistentBytes, 32u);
}

// --- golden vectors from TFLM (golden/dequantize_cases.py) ----------------------

using DequantizeGolden = GoldenTest;

TEST_P(DequantizeGolden, MatchesTflm) {
  const golden::Case& c = GetParam();
  ExpectPersistent(kDequantizePersistentBytes, c);
  const size_t n = Count(c.input);
  const double scale = ScaleOf(c.input);
  const int32_t zp = ZeroPointOf(c.input);
  std::vector<float> out(Count(c.output));
  switch (static_cast<TensorType>(c.input.type)) {
    case TensorType::kInt8:
      Dequantize(DataOf<int8_t>(c.input), n, scale, zp, out.data());
      break;
    case TensorType::kInt16:
      Dequantize(DataOf<int16_t>(c.input), n, scale, zp, out.data());
      break;
    case TensorType::kUint8:
      Dequantize(DataOf<uint8_t>(c.input), n, scale, zp, out.data());
      break;
    default:
      FAIL() << c.name << ": unexpected input type " << c.input.type;
  }
  ExpectClose(c, out);
}

INSTANTIATE_TEST_SUITE_P(Tflm, DequantizeGolden, ::testing::ValuesIn(golden::dequantize::kCases),
                         GoldenName);

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
