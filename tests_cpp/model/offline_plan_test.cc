// OfflineMemoryAllocation decoding: layout (name "OfflineMemoryAllocation"; words version, subgraphs, N, N offsets), our stricter
// validation, and the exact-name rule.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "test_builder.h"
#include "tflm_arena/model/offline_plan.h"

namespace tflm_arena {
namespace model {
namespace {

using testing::Build;
using testing::TModel;
using testing::TOp;
using testing::TSubgraph;
using testing::TTensor;

// Two subgraphs (3 + 2 tensors) so global indexing is visible.
TModel TwoSubgraphs() {
  TModel t;
  t.opcodes = {testing::Builtin(0)};
  TSubgraph a;
  a.tensors = {TTensor(), TTensor(), TTensor()};
  a.inputs = {0};
  a.outputs = {2};
  a.ops = {TOp{0, {0}, {1}, {}}, TOp{0, {1}, {2}, {}}};
  TSubgraph b;
  b.tensors = {TTensor(), TTensor()};
  b.inputs = {0};
  b.outputs = {1};
  b.ops = {TOp{0, {0}, {1}, {}}};
  t.subgraphs = {a, b};
  return t;
}

void ExpectPlanError(const TModel& t, const char* substring) {
  testing::Loaded loaded = testing::BuildAndLoad(t);
  const Model& m = loaded.model;
  OfflinePlanView view;
  bool present = true;
  Status s = DecodeOfflinePlan(m, &view, &present);
  ASSERT_FALSE(s.ok()) << "accepted; expected: " << substring;
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(present);
  EXPECT_NE(std::strstr(s.message(), substring), nullptr)
      << "message: " << s.message() << "\nexpected: " << substring;
}

TEST(OfflinePlan, AbsentIsOk) {
  testing::Loaded loaded = testing::BuildAndLoad(TwoSubgraphs());
  const Model& m = loaded.model;
  OfflinePlanView view;
  bool present = true;
  ASSERT_TRUE(DecodeOfflinePlan(m, &view, &present).ok());
  EXPECT_FALSE(present);
}

TEST(OfflinePlan, DecodesGlobalOffsets) {
  TModel t = TwoSubgraphs();
  t.metadata.emplace_back("other", 0);
  testing::AddOfflinePlan(&t, {0, -1, 48, 7, -1});
  testing::Loaded loaded = testing::BuildAndLoad(t);
  const Model& m = loaded.model;
  OfflinePlanView view;
  bool present = false;
  Status s = DecodeOfflinePlan(m, &view, &present);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(present);
  EXPECT_EQ(view.version(), 0);
  EXPECT_EQ(view.num_subgraphs(), 2);
  ASSERT_EQ(view.size(), 5u);
  EXPECT_EQ(view.offset(0), 0);
  EXPECT_EQ(view.offset(1), -1);
  EXPECT_EQ(view.offset(2), 48);
  EXPECT_EQ(view.offset(3), 7);  // subgraph 1 tensor 0
  EXPECT_EQ(view.offset(4), -1);
  EXPECT_EQ(view.metadata_index(), 1u);
  EXPECT_EQ(view.buffer_index(), 1u);
  // Misaligned offsets are exposed, not rejected.
  EXPECT_TRUE(view.IsAligned(0, 16));
  EXPECT_TRUE(view.IsAligned(1, 16));
  EXPECT_TRUE(view.IsAligned(2, 16));
  EXPECT_FALSE(view.IsAligned(3, 16));
  EXPECT_TRUE(view.IsAligned(3, 1));
}

TEST(OfflinePlan, NameMustMatchExactly) {
  TModel t = TwoSubgraphs();
  testing::AddOfflinePlan(&t, {0, 0, 0, 0, 0});
  t.metadata.back().first = "OfflineMemoryAllocationX";
  testing::Loaded loaded = testing::BuildAndLoad(t);
  OfflinePlanView view;
  bool present = true;
  ASSERT_TRUE(DecodeOfflinePlan(loaded.model, &view, &present).ok());
  EXPECT_FALSE(present);
  t.metadata.back().first = std::string("OfflineMemoryAllocation\0x", 25);
  loaded = testing::BuildAndLoad(t);
  ASSERT_TRUE(DecodeOfflinePlan(loaded.model, &view, &present).ok());
  EXPECT_FALSE(present);
}

TEST(OfflinePlan, WrongVersion) {
  TModel t = TwoSubgraphs();
  testing::AddOfflinePlanWords(&t, {1, 2, 5, 0, 0, 0, 0, 0});
  ExpectPlanError(t, "offline plan: version 1 is not supported (expected 0)");
}

TEST(OfflinePlan, WrongSubgraphCount) {
  TModel t = TwoSubgraphs();
  testing::AddOfflinePlanWords(&t, {0, 1, 5, 0, 0, 0, 0, 0});
  ExpectPlanError(t, "header says 1 subgraphs, the model has 2");
}

TEST(OfflinePlan, WrongTensorCount) {
  TModel t = TwoSubgraphs();
  testing::AddOfflinePlanWords(&t, {0, 2, 4, 0, 0, 0, 0});
  ExpectPlanError(t, "header says 4 offsets, the model has 5 tensors");
  t = TwoSubgraphs();
  testing::AddOfflinePlanWords(&t, {0, 2, -5});
  ExpectPlanError(t, "header says -5 offsets");
}

TEST(OfflinePlan, LengthDisagreesWithCount) {
  TModel t = TwoSubgraphs();
  testing::AddOfflinePlanWords(&t, {0, 2, 5, 0, 0, 0, 0});  // one short
  ExpectPlanError(t, "buffer is 28 bytes, expected 32");
  t = TwoSubgraphs();
  testing::AddOfflinePlanWords(&t, {0, 2, 5, 0, 0, 0, 0, 0, 0});  // one extra
  ExpectPlanError(t, "buffer is 36 bytes, expected 32");
}

TEST(OfflinePlan, NegativeOffset) {
  TModel t = TwoSubgraphs();
  testing::AddOfflinePlan(&t, {0, 0, 0, -2, 0});
  ExpectPlanError(t, "offset of tensor 3 is -2 (must be -1 or >= 0)");
}

TEST(OfflinePlan, ShortAndRaggedBuffers) {
  TModel t = TwoSubgraphs();
  testing::AddOfflinePlanWords(&t, {0, 2});
  ExpectPlanError(t, "8 bytes is shorter than the 12-byte header");
  t = TwoSubgraphs();
  testing::AddOfflinePlanWords(&t, {});  // empty buffer
  ExpectPlanError(t, "0 bytes is shorter than the 12-byte header");
  t = TwoSubgraphs();
  testing::AddOfflinePlanWords(&t, {0, 2, 5});
  t.buffers.back().data.push_back(0);
  ExpectPlanError(t, "13 bytes is not a multiple of 4");
}

TEST(OfflinePlan, DuplicateEntries) {
  TModel t = TwoSubgraphs();
  testing::AddOfflinePlan(&t, {0, 0, 0, 0, 0});
  testing::AddOfflinePlan(&t, {0, 0, 0, 0, 0});
  ExpectPlanError(t, "metadata entries 0 and 1 are both named");
}

TEST(OfflinePlan, MessageNamesMetadataAndBuffer) {
  TModel t = TwoSubgraphs();
  testing::AddOfflinePlanWords(&t, {0, 2, 5, 0, 0, 0, 0});
  ExpectPlanError(t, "(metadata 0, buffer 1)");
}

TEST(OfflinePlan, EmptyViewIsSafe) {
  OfflinePlanView view;
  EXPECT_TRUE(view.empty());
  EXPECT_EQ(view.size(), 0u);
  EXPECT_EQ(view.version(), 0);
  EXPECT_EQ(view.offset(3), kOfflinePlanOnline);
  EXPECT_TRUE(view.IsAligned(3, 0));
}

TEST(OfflinePlan, RawBytesDecoder) {
  const std::vector<uint8_t> bytes = {0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0,
                                      0x10, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  OfflinePlanView view;
  Status s = DecodeOfflinePlanBytes(Span<const uint8_t>(bytes.data(), bytes.size()),
                                    1, 2, &view);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(view.offset(0), 16);
  EXPECT_EQ(view.offset(1), -1);
  EXPECT_EQ(view.offset(2), -1);  // past the end: online, no read
  EXPECT_FALSE(view.empty());
  // Unaligned start: decoding reads bytes, never int32 loads.
  std::vector<uint8_t> shifted(bytes.size() + 1);
  std::memcpy(shifted.data() + 1, bytes.data(), bytes.size());
  s = DecodeOfflinePlanBytes(Span<const uint8_t>(shifted.data() + 1, bytes.size()),
                             1, 2, &view);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(view.offset(0), 16);
}

}  // namespace
}  // namespace model
}  // namespace tflm_arena
