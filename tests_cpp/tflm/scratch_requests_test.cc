// The scratch buffers TFLM's kernels request, as exposed for scratch-aware
// offline plans (tflm_plan.py): keyword_scrambled's SVDF operators ask for
// two buffers each (batch x filters and batch x units int32; TFLM's
// svdf_common.cc, PrepareSvdf).
#include "tflm_arena/tflm/scratch_requests.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "test_builder.h"
#include "tflm_arena/tflm/allocation_trace.h"
#include "tflm_arena/tflm/kernel_table.h"
#include "tflm_arena/tflm/target_abi.h"

namespace tflm_arena {
namespace tflm {
namespace {

struct Req {
  size_t bytes;
  int32_t op;
};

std::vector<Req> Flatten(const std::vector<model::ScratchRequest>& v) {
  std::vector<Req> out;
  for (const auto& r : v) {
    EXPECT_EQ(r.subgraph_idx, 0);
    out.push_back({r.bytes, r.node_idx});
  }
  return out;
}

TEST(TflmScratchRequests, KeywordScrambledSvdfRequestsOnBothTargets) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("keyword_scrambled.tflite", bytes);
  model::Model m = testing::MustLoad(bytes);
  // SVDF operators 1, 3, 5, 7 (256 B each) and 9, 10, 11 (128 B each).
  const std::vector<std::pair<size_t, int32_t>> want = {
      {256, 1}, {256, 1}, {256, 3}, {256, 3},  {256, 5},  {256, 5},  {256, 7},
      {256, 7}, {128, 9}, {128, 9}, {128, 10}, {128, 10}, {128, 11}, {128, 11}};
  for (const char* target : {"x86-64", "cortex-m"}) {
    std::vector<model::ScratchRequest> got;
    const Status s = TflmScratchRequests(m, target, &got);
    ASSERT_TRUE(s.ok()) << s.message();
    const std::vector<Req> flat = Flatten(got);
    ASSERT_EQ(flat.size(), want.size()) << target;
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(flat[i].bytes, want[i].first) << target << " request " << i;
      EXPECT_EQ(flat[i].op, want[i].second) << target << " request " << i;
    }
  }
}

TEST(TflmScratchRequests, TraceCarriesTheSameRequests) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("seanet_transpose_conv4.tflite", bytes);
  model::Model m = testing::MustLoad(bytes);
  TraceOptions o;
  o.target = FindTarget("x86-64");
  o.kernels = ReferenceKernels();
  o.recording = true;
  Trace trace;
  ASSERT_TRUE(BuildTrace(m, o, &trace).ok());
  // int8 TRANSPOSE_CONV: one int32 accumulator per output element.
  ASSERT_EQ(trace.scratch.size(), 1u);
  EXPECT_EQ(trace.scratch_requests, 1u);
  EXPECT_EQ(trace.scratch[0].bytes, 41472u);
  EXPECT_EQ(trace.scratch[0].node_idx, 0);
  std::vector<model::ScratchRequest> direct;
  ASSERT_TRUE(TflmScratchRequests(m, "x86-64", &direct).ok());
  ASSERT_EQ(direct.size(), 1u);
  EXPECT_EQ(direct[0].bytes, 41472u);
}

TEST(TflmScratchRequests, NoneForAModelWithoutScratchAndUnknownTargetIsNamed) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("vww_96_int8.tflite", bytes);
  model::Model m = testing::MustLoad(bytes);
  std::vector<model::ScratchRequest> got(3);
  ASSERT_TRUE(TflmScratchRequests(m, "cortex-m", &got).ok());
  EXPECT_TRUE(got.empty());
  const Status s = TflmScratchRequests(m, "riscv", &got);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("riscv"), std::string::npos);
}

}  // namespace
}  // namespace tflm
}  // namespace tflm_arena
