// Status in the release configuration (TFLM_ARENA_STRIP_ERROR_STRINGS): one
// machine word holding the code, or kArenaTooSmall plus the bytes needed.
// This executable compiles status.cc itself in that mode; it links no other
// tflm_arena code, whose Status has the default (message) layout.
#define TFLM_ARENA_STRIP_ERROR_STRINGS 1
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "tflm_arena/core/status.cc"  // NOLINT: the stripped build of it

namespace tflm_arena {
namespace {

Status Fails() {
  TFLM_ARENA_RETURN_IF_ERROR(Status::Error(StatusCode::kOutOfRange, "index %d", 3));
  return Status::Ok();
}

TEST(StrippedStatus, OneWordAndNoText) {
  static_assert(sizeof(Status) == sizeof(size_t), "returned in a register");
  EXPECT_EQ(Status::kMaxMessage, 1u);
  EXPECT_TRUE(Status::Ok().ok());
  EXPECT_STREQ(Status::Ok().message(), "OK");
  const Status s = Status::Error(StatusCode::kInvalidArgument, "bad %s", "model");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(), "INVALID_ARGUMENT");  // the code's name, no text
  EXPECT_EQ(s.needed_bytes(), 0u);
  EXPECT_EQ(Fails().code(), StatusCode::kOutOfRange);
}

TEST(StrippedStatus, EveryCodeRoundTrips) {
  for (int c = 0; c <= static_cast<int>(StatusCode::kInternal); ++c) {
    const StatusCode code = static_cast<StatusCode>(c);
    const Status s = Status::Error(code, "x");
    EXPECT_EQ(s.code(), code);
    EXPECT_EQ(s.ok(), code == StatusCode::kOk);
    EXPECT_EQ(s.needed_bytes(), 0u);
  }
}

TEST(StrippedStatus, TooSmallKeepsTheBytesNeeded) {
  Status s = Status::TooSmall(5000, "need %d", 5000);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.needed_bytes(), 5000u);
  s.set_needed_bytes(5008);  // the interpreter rounds it up to 16
  EXPECT_EQ(s.needed_bytes(), 5008u);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  // 0 = unknown, and so is a count that does not fit beside the codes.
  s.set_needed_bytes(0);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_EQ(s.needed_bytes(), 0u);
  s.set_needed_bytes(SIZE_MAX);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_EQ(s.needed_bytes(), 0u);
  EXPECT_EQ(Status::TooSmall(0, "unknown").needed_bytes(), 0u);
  EXPECT_EQ(Status::TooSmall(1, "one").needed_bytes(), 1u);
  // Other codes carry no byte count (the default build keeps one).
  Status other = Status::Error(StatusCode::kInternal, "x");
  other.set_needed_bytes(64);
  EXPECT_EQ(other.code(), StatusCode::kInternal);
  EXPECT_EQ(other.needed_bytes(), 0u);
}

}  // namespace
}  // namespace tflm_arena
