// RESHAPE: hand-checked math and the kernel's options parser.
#include "tflm_arena/runtime/kernels/reshape.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::Activation;
using model::Padding;
using model::TensorInfo;
using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(ReshapeMath, CountsAndCopies) {
  const int32_t shape[3] = {2, 3, 4};
  EXPECT_EQ(ReshapeElementCount(shape, 3, true), 24);
  const int32_t legacy[1] = {0};
  EXPECT_EQ(ReshapeElementCount(legacy, 1, true), 1);   // legacy scalar
  EXPECT_EQ(ReshapeElementCount(legacy, 1, false), 0);  // shape tensor given
  EXPECT_EQ(ReshapeElementCount(nullptr, 0, true), 1);  // scalar
  float a[4] = {1, 2, 3, 4};
  float b[4] = {};
  ReshapeCopy(a, b, sizeof(a));
  EXPECT_EQ(std::memcmp(a, b, sizeof(a)), 0);
  ReshapeCopy(a, a, sizeof(a));  // in place: untouched
  EXPECT_EQ(a[3], 4.0f);
}

TEST(ReshapePersistent, NoOpData) {
  EXPECT_EQ(kReshapePersistentBytes, 0u);
  EXPECT_EQ(Register_RESHAPE().init, nullptr);
}

TEST(ReshapeOptions, ParsesNewShape) {
  // ReshapeOptions.new_shape is a [int] vector: built with the flatbuffers
  // API, read back as a span into the table's buffer.
  flatbuffers::FlatBufferBuilder b;
  const int32_t dims[] = {2, -1, 3};
  const auto vec = b.CreateVector(dims, 3);
  const auto start = b.StartTable();
  b.AddOffset(4, vec);
  b.Finish(flatbuffers::Offset<void>(b.EndTable(start)));
  const std::vector<uint8_t> bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  model::OptionsTable table(bytes.data(), bytes.size(),
                            flatbuffers::ReadScalar<flatbuffers::uoffset_t>(bytes.data()), 17);
  ReshapeOptions o;
  ASSERT_TRUE(Parse(Register_RESHAPE(), table, &o).ok());
  EXPECT_TRUE(table.ok());
  EXPECT_TRUE(o.has_new_shape);
  ASSERT_EQ(o.new_shape.size(), 3u);
  EXPECT_EQ(o.new_shape[1], -1);
  EXPECT_EQ(o.new_shape[2], 3);
  // Absent field: no shape.
  OptionsTableBuilder empty;
  model::OptionsTable none = empty.Build(17);
  ASSERT_TRUE(Parse(Register_RESHAPE(), none, &o).ok());
  EXPECT_FALSE(o.has_new_shape);
  EXPECT_EQ(o.new_shape.size(), 0u);
}

TEST(ReshapeOptions, VectorPastTheBufferMarksTheTableMalformed) {
  flatbuffers::FlatBufferBuilder b;
  const int32_t dims[] = {4, 5};
  const auto vec = b.CreateVector(dims, 2);
  const auto start = b.StartTable();
  b.AddOffset(4, vec);
  b.Finish(flatbuffers::Offset<void>(b.EndTable(start)));
  std::vector<uint8_t> bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  // The vector is the last thing the builder wrote before the table: find
  // its length word (2) and claim a million entries.
  bool patched = false;
  for (size_t i = 0; i + 12 <= bytes.size() && !patched; i += 4) {
    uint32_t w[3];
    std::memcpy(w, bytes.data() + i, sizeof(w));
    if (w[0] == 2 && w[1] == 4 && w[2] == 5) {
      const uint32_t huge = 1000000;
      std::memcpy(bytes.data() + i, &huge, 4);
      patched = true;
    }
  }
  ASSERT_TRUE(patched);
  model::OptionsTable table(bytes.data(), bytes.size(),
                            flatbuffers::ReadScalar<flatbuffers::uoffset_t>(bytes.data()), 17);
  ReshapeOptions o;
  ASSERT_TRUE(Parse(Register_RESHAPE(), table, &o).ok());
  EXPECT_FALSE(table.ok());  // the interpreter turns this into an error
  EXPECT_EQ(o.new_shape.size(), 0u);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
