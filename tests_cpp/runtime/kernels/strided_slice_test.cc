// STRIDED_SLICE: hand-checked slices (masks, negative strides, shrink), the
// prepare checks, TFLM's OpData size and the options parser. Parity with
// TFLM over many cases: tests_py/test_kernel_strided_slice.py.
#include "tflm_arena/runtime/kernels/strided_slice.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using namespace kernel_testing;  // NOLINT: the shared test helpers

std::vector<int16_t> Slice(const std::vector<int32_t>& shape, const std::vector<int32_t>& b,
                           const std::vector<int32_t>& e, const std::vector<int32_t>& s,
                           const StridedSliceOptions& o, const std::vector<int32_t>& out_shape,
                           Status* status) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  std::vector<int16_t> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<int16_t>(i);
  size_t out_n = 1;
  for (int32_t d : out_shape) out_n *= static_cast<size_t>(d);
  StridedSliceOpData data;
  const int rank = static_cast<int>(shape.size());
  *status = PrepareStridedSlice(shape.data(), rank, b.data(), e.data(), s.data(), o,
                                out_shape.data(), static_cast<int>(out_shape.size()), out_n, &data);
  if (!status->ok()) return {};
  std::vector<int16_t> out(out_n, -1);
  const size_t written = StridedSliceCopy(data, shape.data(), rank, sizeof(int16_t),
                                          reinterpret_cast<const uint8_t*>(in.data()),
                                          reinterpret_cast<uint8_t*>(out.data()));
  EXPECT_EQ(written, out_n);
  return out;
}

TEST(StridedSliceMath, StepsAndNegativeStrides) {
  Status st;
  // [3, 4] = 0..11; rows 2..0 step -2, columns 1..4 step 2.
  EXPECT_EQ(Slice({3, 4}, {2, 1}, {-4, 4}, {-2, 2}, {}, {2, 2}, &st),
            (std::vector<int16_t>{9, 11, 1, 3}));
  ASSERT_TRUE(st.ok()) << st.message();
  // Masks: begin_mask on axis 0, end_mask on axis 1, reversed columns.
  StridedSliceOptions o;
  o.begin_mask = 1;
  o.end_mask = 2;
  EXPECT_EQ(Slice({3, 4}, {2, 2}, {2, 0}, {1, -1}, o, {2, 3}, &st),
            (std::vector<int16_t>{2, 1, 0, 6, 5, 4}));
  ASSERT_TRUE(st.ok()) << st.message();
  // shrink_axis_mask drops axis 0 (row -1 = 2).
  StridedSliceOptions shrink;
  shrink.shrink_axis_mask = 1;
  EXPECT_EQ(Slice({3, 4}, {-1, 1}, {0, 3}, {1, 1}, shrink, {2}, &st),
            (std::vector<int16_t>{9, 10}));
  ASSERT_TRUE(st.ok()) << st.message();
}

TEST(StridedSliceMath, PrepareRefusesBadSlices) {
  Status st;
  Slice({3, 4}, {0, 0}, {3, 4}, {1, 0}, {}, {3, 4}, &st);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(st.message()).find("stride of axis 1 is 0"), std::string::npos);
  Slice({3, 4}, {0, 0}, {3, 4}, {1, 1}, {}, {3, 5}, &st);
  EXPECT_NE(std::string(st.message()).find("output dimension 1 should be 4"), std::string::npos);
  Slice({3, 4}, {0, 0}, {3, 4}, {1, 1}, {}, {3, 4, 1}, &st);
  EXPECT_NE(std::string(st.message()).find("output has rank 3"), std::string::npos);
  // INT32_MIN stride: one element per axis, no overflow.
  EXPECT_EQ(Slice({3, 4}, {2, 3}, {0, 0}, {INT32_MIN, INT32_MIN}, {}, {1, 1}, &st),
            (std::vector<int16_t>{11}));
  EXPECT_TRUE(st.ok()) << st.message();
  const int32_t shape5[5] = {1, 1, 1, 1, 1};
  const int32_t z[5] = {};
  StridedSliceOpData data;
  st = PrepareStridedSlice(shape5, 5, z, shape5, shape5, {}, shape5, 5, 1, &data);
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
}

TEST(StridedSlicePersistent, TflmOpDataSize) {
  if (sizeof(void*) == 8) EXPECT_EQ(kStridedSlicePersistentBytes, 84u);
  EXPECT_EQ(sizeof(StridedSliceOptions), 24u);  // TfLiteStridedSliceParams
  EXPECT_NE(Register_STRIDED_SLICE().init, nullptr);
}

TEST(StridedSliceOptions, ParsesEveryField) {
  OptionsTableBuilder tb;
  tb.Add<int32_t>(0, 1).Add<int32_t>(1, 2).Add<int32_t>(2, 4).Add<int32_t>(3, 8);
  tb.Add<int32_t>(4, 16).Add<uint8_t>(5, 1);
  model::OptionsTable table = tb.Build(32);
  StridedSliceOptions o;
  ASSERT_TRUE(Parse(Register_STRIDED_SLICE(), table, &o).ok());
  EXPECT_EQ(o.begin_mask, 1);
  EXPECT_EQ(o.end_mask, 2);
  EXPECT_EQ(o.ellipsis_mask, 4);
  EXPECT_EQ(o.new_axis_mask, 8);
  EXPECT_EQ(o.shrink_axis_mask, 16);
  EXPECT_TRUE(o.offset);
  EXPECT_EQ(Register_STRIDED_SLICE().options.table_type, 32);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
