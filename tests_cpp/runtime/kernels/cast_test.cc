// CAST: hand-checked conversions (wrapping narrowing, BOOL as 0 / 1, the
// wheel's saturating float -> integer with NaN -> 0), unsupported types,
// no init and the options parser. Parity with the real TFLM:
// tests_py/test_kernel_cast.py.
#include "tflm_arena/runtime/kernels/cast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(CastMath, IntegerNarrowingWraps) {
  const int32_t in[] = {300, -129, 65535, -1};
  int8_t out[4];
  ASSERT_TRUE(CastElements(TensorType::kInt32, in, TensorType::kInt8, out, 4));
  EXPECT_EQ(out[0], 44);
  EXPECT_EQ(out[1], 127);
  EXPECT_EQ(out[2], -1);
  EXPECT_EQ(out[3], -1);
  uint32_t u[4];
  ASSERT_TRUE(CastElements(TensorType::kInt32, in, TensorType::kUint32, u, 4));
  EXPECT_EQ(u[3], 4294967295u);
}

TEST(CastMath, FloatToIntegerTruncatesAndSaturates) {
  const float in[] = {NAN, INFINITY, -INFINITY, 300.7f, -300.7f, -0.9f};
  int8_t s8[6];
  ASSERT_TRUE(CastElements(TensorType::kFloat32, in, TensorType::kInt8, s8, 6));
  const int8_t want8[] = {0, 127, -128, 127, -128, 0};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(s8[i], want8[i]) << i;
  int32_t s32[6];
  ASSERT_TRUE(CastElements(TensorType::kFloat32, in, TensorType::kInt32, s32, 6));
  EXPECT_EQ(s32[1], std::numeric_limits<int32_t>::max());
  EXPECT_EQ(s32[3], 300);
  EXPECT_EQ(s32[4], -300);
  uint32_t u32[6];
  ASSERT_TRUE(CastElements(TensorType::kFloat32, in, TensorType::kUint32, u32, 6));
  EXPECT_EQ(u32[2], 0u);
  EXPECT_EQ(u32[4], 0u);
}

TEST(CastMath, BoolReadsAsZeroOrOne) {
  const uint8_t in[] = {0, 1, 7};
  float out[3];
  ASSERT_TRUE(CastElements(TensorType::kBool, in, TensorType::kFloat32, out, 3));
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 1.0f);
  EXPECT_EQ(out[2], 1.0f);
}

TEST(CastMath, UnsupportedTypesWriteNothing) {
  const float in[] = {1.0f};
  uint8_t out[4] = {9, 9, 9, 9};
  EXPECT_FALSE(CastElements(TensorType::kFloat32, in, TensorType::kBool, out, 1));
  EXPECT_FALSE(CastElements(TensorType::kInt64, in, TensorType::kInt8, out, 1));
  EXPECT_EQ(out[0], 9);
  EXPECT_FALSE(CastOutputSupported(TensorType::kBool));
  EXPECT_TRUE(CastInputSupported(TensorType::kBool));
}

TEST(CastRegistration, NoInitAndParsesCastOptions) {
  EXPECT_EQ(Register_CAST().init, nullptr);
  EXPECT_EQ(Register_CAST().builtin_code, model::kBuiltinCast);
  OptionsTableBuilder full;
  full.Add<uint8_t>(0, 9).Add<uint8_t>(1, 0);  // INT8 -> FLOAT32
  model::OptionsTable table = full.Build(37);
  CastOptions o;
  ASSERT_TRUE(Parse(Register_CAST(), table, &o).ok());
  EXPECT_EQ(o.in_data_type, TensorType::kInt8);
  EXPECT_EQ(o.out_data_type, TensorType::kFloat32);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
