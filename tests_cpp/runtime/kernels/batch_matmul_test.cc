// BATCH_MATMUL: hand-checked products (float, int8 with zero points, int16
// sums beyond int32),
// batch broadcasting strides, the row / column transpose, prepare's
// refusals, TFLM's OpData size and the options parser. Bit-exactness against
// the real TFLM is tests_py/test_kernel_batch_matmul.py.
#include "tflm_arena/runtime/kernels/batch_matmul.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

Span<const int32_t> S(const int32_t* d, size_t n) { return Span<const int32_t>(d, n); }

TEST(BatchMatMulMath, FloatProductOfTwoMatrices) {
  // [[1, 2, 3], [4, 5, 6]] x [[1, 0], [0, 1], [1, 1]] = [[4, 5], [10, 11]].
  const int32_t ls[] = {2, 3}, rs[] = {3, 2};
  const float l[] = {1, 2, 3, 4, 5, 6}, r[] = {1, 0, 0, 1, 1, 1};
  float rt[6], out[4];
  TransposeLastTwo(S(rs, 2), sizeof(float), r, rt);
  EXPECT_EQ(rt[1], 0.0f);  // R^T = [[1, 0, 1], [0, 1, 1]]
  EXPECT_EQ(rt[2], 1.0f);
  const BatchMatMulDims d = MakeBatchMatMulDims(S(ls, 2), S(rs, 2), false, false);
  EXPECT_EQ(d.m, 2);
  EXPECT_EQ(d.n, 2);
  EXPECT_EQ(d.k, 3);
  BatchMatMulFloat(d, l, rt, out);
  EXPECT_EQ(out[0], 4.0f);
  EXPECT_EQ(out[1], 5.0f);
  EXPECT_EQ(out[2], 10.0f);
  EXPECT_EQ(out[3], 11.0f);
}

TEST(BatchMatMulMath, BroadcastBatchesHaveStrideZero) {
  const int32_t ls[] = {3, 1, 2, 4}, rs[] = {2, 4, 5};
  const BatchMatMulDims d = MakeBatchMatMulDims(S(ls, 4), S(rs, 3), false, false);
  EXPECT_EQ(d.batch[1], 3);
  EXPECT_EQ(d.batch[2], 2);
  EXPECT_EQ(d.lhs_stride[1], 8u);  // 1 x 2 x 4 per lhs batch
  EXPECT_EQ(d.lhs_stride[2], 0u);  // extent 1: broadcast
  EXPECT_EQ(d.rhs_stride[1], 0u);
  EXPECT_EQ(d.rhs_stride[2], 20u);
  const BatchMatMulDims t = MakeBatchMatMulDims(S(ls, 4), S(rs, 3), true, true);
  EXPECT_EQ(t.m, 4);  // adj_x: lhs given as [K, M]
  EXPECT_EQ(t.k, 2);
  EXPECT_EQ(t.n, 4);  // adj_y: rhs given as [N, K]
}

TEST(BatchMatMulMath, Int8SubtractsZeroPointsAndRequantizes) {
  // lhs zp 1, rhs zp -1, scales 1 x 1 / 2, output zp 3:
  // (2 - 1) * (0 + 1) + (3 - 1) * (1 + 1) = 5 -> 2.5 -> 3 (ties away), + 3.
  TestTensor lhs(TensorType::kInt8, {1, 2}, {1.0f}, {1});
  TestTensor rhs(TensorType::kInt8, {2, 1}, {1.0f}, {-1});
  TestTensor out(TensorType::kInt8, {1, 1}, {2.0f}, {3});
  BatchMatMulQuant q;
  ASSERT_TRUE(PrepareBatchMatMul(BatchMatMulOptions(), lhs.info, rhs.info, out.info, &q).ok());
  const int32_t ls[] = {1, 2}, rs[] = {2, 1};
  const int8_t l[] = {2, 3}, rt[] = {0, 1};  // R^T of a 2 x 1 column
  int8_t y[1];
  BatchMatMulInt8(MakeBatchMatMulDims(S(ls, 2), S(rs, 2), false, false), q, l, rt, y);
  EXPECT_EQ(y[0], 6);
}

TEST(BatchMatMulMath, Int16SumsBeyondInt32AreExact) {
  // Each product fits int32 (at most 2^30; the int32 multiply of the fast
  // path), but their sums do not: 4 x 2^30 = 2^32 and 4 x 2^29 = 2^31 must
  // be summed in 64 bits. Output scale 2^18: 16384 and 8192 exactly.
  TestTensor lhs(TensorType::kInt16, {1, 4}, {1.0f}, {0});
  TestTensor rhs(TensorType::kInt16, {4, 2}, {1.0f}, {0});
  TestTensor out(TensorType::kInt16, {1, 2}, {262144.0f}, {0});
  BatchMatMulQuant q;
  ASSERT_TRUE(PrepareBatchMatMul(BatchMatMulOptions(), lhs.info, rhs.info, out.info, &q).ok());
  const int32_t ls[] = {1, 4}, rs[] = {4, 2};
  const int16_t l[] = {-32768, -32768, -32768, -32768};
  const int16_t rt[] = {-32768, -32768, -32768, -32768,   // R^T row 0
                        -16384, -16384, -16384, -16384};  // R^T row 1
  int16_t y[2];
  BatchMatMulInt16(MakeBatchMatMulDims(S(ls, 2), S(rs, 2), false, false), q, l, rt, y);
  EXPECT_EQ(y[0], 16384);
  EXPECT_EQ(y[1], 8192);
}

TEST(BatchMatMulPrepare, MultiplierTakesTheScaleProductInFloat) {
  // TFLM: double(float(lhs_scale * rhs_scale)) / double(out_scale). For
  // 0.05 x 0.01 / 0.7 that is 1570730998 x 2^-10 (all in double: 1570730912);
  // the wheel's outputs do not tell them apart, so this pins TFLM's source.
  TestTensor lhs(TensorType::kInt8, {2, 2}, {0.05f}), rhs(TensorType::kInt8, {2, 2}, {0.01f});
  TestTensor out(TensorType::kInt8, {2, 2}, {0.7f});
  BatchMatMulQuant q;
  ASSERT_TRUE(PrepareBatchMatMul(BatchMatMulOptions(), lhs.info, rhs.info, out.info, &q).ok());
  EXPECT_EQ(q.multiplier, 1570730998);
  EXPECT_EQ(q.shift, -10);
}

TEST(BatchMatMulPrepare, RefusesWhatInvokeCouldNotRun) {
  BatchMatMulOptions o;
  BatchMatMulQuant q;
  TestTensor a(TensorType::kFloat32, {2, 3, 4}), b(TensorType::kFloat32, {3, 4, 5});
  TestTensor out(TensorType::kFloat32, {2, 3, 5});
  EXPECT_EQ(PrepareBatchMatMul(o, a.info, b.info, out.info, &q).code(),
            StatusCode::kInvalidArgument);  // batches 2 and 3
  TestTensor b2(TensorType::kFloat32, {1, 5, 5});
  EXPECT_EQ(PrepareBatchMatMul(o, a.info, b2.info, out.info, &q).code(),
            StatusCode::kInvalidArgument);  // depth 4 vs 5
  TestTensor b3(TensorType::kFloat32, {1, 4, 5});
  EXPECT_TRUE(PrepareBatchMatMul(o, a.info, b3.info, out.info, &q).ok());
  TestTensor out_bad(TensorType::kFloat32, {2, 3, 6});
  EXPECT_EQ(PrepareBatchMatMul(o, a.info, b3.info, out_bad.info, &q).code(),
            StatusCode::kInvalidArgument);
  TestTensor rank6(TensorType::kFloat32, {1, 1, 1, 1, 3, 4});
  EXPECT_EQ(PrepareBatchMatMul(o, rank6.info, b3.info, out.info, &q).code(),
            StatusCode::kInvalidArgument);
  TestTensor i16(TensorType::kInt16, {3, 4}, {1.0f}, {5}), r16(TensorType::kInt16, {4, 5}, {1.0f});
  TestTensor o16(TensorType::kInt16, {3, 5}, {1.0f});
  EXPECT_EQ(PrepareBatchMatMul(o, i16.info, r16.info, o16.info, &q).code(),
            StatusCode::kInvalidArgument);  // int16 zero points must be 0
}

TEST(BatchMatMulPersistent, OpDataIsTflms32BytesAndOptionsParse) {
  EXPECT_EQ(sizeof(BatchMatMulOpData), sizeof(void*) == 8 ? 32u : sizeof(BatchMatMulOpData));
  EXPECT_EQ(sizeof(BatchMatMulQuant), 28u);
  const KernelRegistration& r = Register_BATCH_MATMUL();
  EXPECT_EQ(r.builtin_code, model::kBuiltinBatchMatmul);
  EXPECT_EQ(r.options.table_type, 101);  // BatchMatMulOptions
  OptionsTableBuilder b;
  b.Add<uint8_t>(0, 1).Add<uint8_t>(1, 0);
  model::OptionsTable table = b.Build(101);
  BatchMatMulOptions o;
  ASSERT_TRUE(Parse(r, table, &o).ok());
  EXPECT_TRUE(o.adj_x);
  EXPECT_FALSE(o.adj_y);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
