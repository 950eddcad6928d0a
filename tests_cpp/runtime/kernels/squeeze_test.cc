// SQUEEZE: TFLM's squeeze_dims checks and the options parser (a vector of
// at most 8 entries). Parity with TFLM: tests_py/test_kernel_squeeze.py.
#include "tflm_arena/runtime/kernels/squeeze.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(SqueezeMath, ChecksSqueezeDims) {
  const int32_t shape[4] = {1, 3, 1, 2};
  SqueezeOptions o;
  EXPECT_TRUE(CheckSqueezeDims(o, shape, 4).ok());  // none listed: every 1
  o.num_squeeze_dims = 2;
  o.squeeze_dims[0] = 0;
  o.squeeze_dims[1] = -2;
  EXPECT_TRUE(CheckSqueezeDims(o, shape, 4).ok());
  o.squeeze_dims[1] = 1;
  Status st = CheckSqueezeDims(o, shape, 4);
  EXPECT_NE(std::string(st.message()).find("SQUEEZE: dimension 1 has size 3, not 1"),
            std::string::npos);
  o.squeeze_dims[1] = -5;
  st = CheckSqueezeDims(o, shape, 4);
  EXPECT_NE(std::string(st.message()).find("squeeze_dims entry -5 outside [-4, 4)"),
            std::string::npos);
}

model::OptionsTable VectorTable(const std::vector<int32_t>& dims, std::vector<uint8_t>* bytes) {
  flatbuffers::FlatBufferBuilder b;
  const auto vec = b.CreateVector(dims.data(), dims.size());
  const auto start = b.StartTable();
  b.AddOffset(4, vec);
  b.Finish(flatbuffers::Offset<void>(b.EndTable(start)));
  bytes->assign(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  return model::OptionsTable(bytes->data(), bytes->size(),
                             flatbuffers::ReadScalar<flatbuffers::uoffset_t>(bytes->data()), 30);
}

TEST(SqueezeOptions, ParsesUpToEightDims) {
  std::vector<uint8_t> bytes;
  model::OptionsTable table = VectorTable({0, -1}, &bytes);
  SqueezeOptions o;
  ASSERT_TRUE(Parse(Register_SQUEEZE(), table, &o).ok());
  EXPECT_EQ(o.num_squeeze_dims, 2);
  EXPECT_EQ(o.squeeze_dims[1], -1);
  model::OptionsTable nine = VectorTable({0, 1, 2, 3, 4, 5, 6, 7, 8}, &bytes);
  Status st = Parse(Register_SQUEEZE(), nine, &o);
  EXPECT_NE(std::string(st.message()).find("SQUEEZE: 9 squeeze_dims, at most 8"),
            std::string::npos);
  EXPECT_EQ(sizeof(SqueezeOptions), 36u);  // TfLiteSqueezeParams
  EXPECT_EQ(Register_SQUEEZE().init, nullptr);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
