// Writing an offline plan into a copy of a model: the copy verifies, decodes
// to the written offsets, keeps every other part, and rewriting replaces the
// entry instead of adding a second one.
#include "tflm_arena/model/offline_plan_writer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "test_builder.h"
#include "tflm_arena/model/offline_plan.h"

namespace tflm_arena {
namespace model {
namespace {

std::vector<uint8_t> Rewrite(const std::vector<uint8_t>& in, const std::vector<int64_t>& offsets,
                             int32_t num_subgraphs = 1) {
  std::vector<uint8_t> words, out;
  Status s =
      EncodeOfflinePlan(num_subgraphs, Span<const int64_t>(offsets.data(), offsets.size()), &words);
  EXPECT_TRUE(s.ok()) << s.message();
  s = WriteOfflinePlanMetadata(in.data(), in.size(),
                               Span<const uint8_t>(words.data(), words.size()), &out);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

std::vector<int32_t> Decoded(const Model& m) {
  OfflinePlanView view;
  bool present = false;
  Status s = DecodeOfflinePlan(m, &view, &present);
  EXPECT_TRUE(s.ok()) << s.message();
  std::vector<int32_t> v;
  if (!present) return v;
  for (size_t i = 0; i < view.size(); ++i) v.push_back(view.offset(i));
  return v;
}

TEST(OfflinePlanWriter, EncodeRejectsBadOffsets) {
  std::vector<uint8_t> words;
  std::vector<int64_t> bad = {0, -2};
  Status s = EncodeOfflinePlan(1, Span<const int64_t>(bad.data(), bad.size()), &words);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::strstr(s.message(), "tensor 1"), nullptr) << s.message();
  std::vector<int64_t> good = {16, -1};
  ASSERT_TRUE(EncodeOfflinePlan(2, Span<const int64_t>(good.data(), good.size()), &words).ok());
  std::vector<int32_t> w(words.size() / 4);
  std::memcpy(w.data(), words.data(), words.size());
  EXPECT_EQ(w, (std::vector<int32_t>{0, 2, 2, 16, -1}));
}

TEST(OfflinePlanWriter, RealModelRoundTripsAndKeepsEverythingElse) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("person_detect.tflite", bytes);
  Model original = testing::MustLoad(bytes);
  std::vector<int64_t> offsets(original.total_tensors(), -1);
  offsets[0] = 0;
  offsets[1] = 4096;
  std::vector<uint8_t> once = Rewrite(bytes, offsets);
  Model m1 = testing::MustLoad(once);
  std::vector<int32_t> want(offsets.begin(), offsets.end());
  EXPECT_EQ(Decoded(m1), want);
  EXPECT_EQ(m1.num_metadata(), original.num_metadata() + 1);
  EXPECT_EQ(m1.num_buffers(), original.num_buffers() + 1);
  EXPECT_STREQ(m1.description(), original.description());
  ASSERT_EQ(m1.num_operators(0), original.num_operators(0));
  for (size_t i = 0; i < original.num_tensors(0); ++i) {
    TensorInfo a, b;
    ASSERT_TRUE(original.tensor(0, i, &a).ok());
    ASSERT_TRUE(m1.tensor(0, i, &b).ok());
    EXPECT_STREQ(a.name, b.name);
    EXPECT_EQ(a.buffer, b.buffer);
    BufferInfo ba, bb;
    ASSERT_TRUE(original.buffer(a.buffer, &ba).ok());
    ASSERT_TRUE(m1.buffer(b.buffer, &bb).ok());
    ASSERT_EQ(ba.data.size(), bb.data.size());
    if (ba.data.empty()) continue;
    EXPECT_EQ(0, std::memcmp(ba.data.data(), bb.data.data(), ba.data.size()));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(bb.data.data()) % 16,
              reinterpret_cast<uintptr_t>(ba.data.data()) % 16);
  }

  // Rewriting replaces the entry and reuses its buffer slot.
  offsets[1] = 8192;
  std::vector<uint8_t> twice = Rewrite(once, offsets);
  Model m2 = testing::MustLoad(twice);
  want[1] = 8192;
  EXPECT_EQ(Decoded(m2), want);
  EXPECT_EQ(m2.num_metadata(), m1.num_metadata());
  EXPECT_EQ(m2.num_buffers(), m1.num_buffers());
}

TEST(OfflinePlanWriter, RefusesNonModels) {
  std::vector<uint8_t> junk(64, 0), out;
  Status s = WriteOfflinePlanMetadata(junk.data(), junk.size(), Span<const uint8_t>(), &out);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::strstr(s.message(), "TFL3"), nullptr) << s.message();
}

}  // namespace
}  // namespace model
}  // namespace tflm_arena
