// FlexbufferMap: custom options written by flatbuffers' own flexbuffers
// Builder read back as TFLM reads them (by sorted position), keys checked,
// and every truncation or corruption of the bytes a named error.
#include "tflm_arena/model/flexbuffer_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "flatbuffers/flexbuffers.h"

namespace tflm_arena {
namespace model {
namespace {

std::vector<uint8_t> Options() {
  flexbuffers::Builder b;
  b.Map([&] {
    b.Int("smoothing_bits", 10);
    b.Bool("clamping", true);
    b.Int("num_channels", 40);
    b.Int("big", int64_t{1} << 40);
    b.UInt("alternate", 983);
    b.Float("ratio", 0.5f);
  });
  b.Finish();
  return b.GetBuffer();
}

Span<const uint8_t> Bytes(const std::vector<uint8_t>& v) { return {v.data(), v.size()}; }

TEST(FlexbufferMap, ReadsBySortedPositionAndChecksTheKey) {
  const std::vector<uint8_t> bytes = Options();
  FlexbufferMap m;
  ASSERT_TRUE(FlexbufferMap::Parse("Op", Bytes(bytes), &m).ok());
  ASSERT_EQ(m.size(), 6u);  // sorted: alternate, big, clamping, num_channels, ratio, smoothing_bits
  int32_t v = 0;
  ASSERT_TRUE(m.Int32At(0, "alternate", &v).ok());
  EXPECT_EQ(v, 983);
  ASSERT_TRUE(m.Int32At(3, "num_channels", &v).ok());
  EXPECT_EQ(v, 40);
  ASSERT_TRUE(m.Int32At(5, "smoothing_bits", &v).ok());
  EXPECT_EQ(v, 10);
  bool on = false;
  ASSERT_TRUE(m.BoolAt(2, "clamping", &on).ok());
  EXPECT_TRUE(on);
  ASSERT_TRUE(m.Int32ByKey("num_channels", &v).ok());
  EXPECT_EQ(v, 40);

  Status s = m.Int32At(2, "num_channels", &v);  // another key at that position
  EXPECT_STREQ(s.message(),
               "Op: option 'num_channels' missing from the custom options (TFLM reads it as "
               "element 2 of the sorted keys, which is 'clamping')");
  s = m.Int32At(6, "x", &v);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  s = m.Int32At(1, "big", &v);
  EXPECT_STREQ(s.message(), "Op: option 'big' = 1099511627776 does not fit int32");
  s = m.Int32At(4, "ratio", &v);  // TFLM would read a float's bits as an integer
  EXPECT_STREQ(s.message(),
               "Op: option 'ratio' is not an inline integer or bool (flexbuffer type 3)");
  EXPECT_FALSE(m.Int32ByKey("absent", &v).ok());
}

TEST(FlexbufferMap, EveryTruncationAndEveryByteFlipIsSafe) {
  const std::vector<uint8_t> bytes = Options();
  FlexbufferMap m;
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    // A prefix ends in other bytes: most are not maps; none may read past n.
    if (FlexbufferMap::Parse("Op", Bytes(cut), &m).ok()) {
      int32_t v = 0;
      for (size_t i = 0; i < m.size(); ++i) (void)m.Int32ByKey("num_channels", &v);
    }
  }
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t bit = 1; bit != 0; bit = static_cast<uint8_t>(bit << 1)) {
      std::vector<uint8_t> bad = bytes;
      bad[i] ^= bit;
      if (FlexbufferMap::Parse("Op", Bytes(bad), &m).ok()) {
        int32_t v = 0;
        bool b = false;
        for (size_t k = 0; k < m.size(); ++k) {
          (void)m.Int32At(k, "num_channels", &v);
          (void)m.BoolAt(k, "clamping", &b);
        }
      }
    }
  }
  const std::vector<uint8_t> empty;
  Status s = FlexbufferMap::Parse("Op", Bytes(empty), &m);
  EXPECT_STREQ(s.message(), "Op: custom options are not a flexbuffer map (shorter than 3 bytes)");
  flexbuffers::Builder b;
  b.Int(5);
  b.Finish();
  s = FlexbufferMap::Parse("Op", Bytes(b.GetBuffer()), &m);
  EXPECT_STREQ(s.message(), "Op: custom options are not a flexbuffer map (root is not a map)");
}

}  // namespace
}  // namespace model
}  // namespace tflm_arena
