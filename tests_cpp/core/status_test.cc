#include "tflm_arena/core/status.h"

#include <cstring>
#include <string>

#include "gtest/gtest.h"

namespace tflm_arena {
namespace {

TEST(StatusTest, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_STREQ(s.message(), "");
}

TEST(StatusTest, ErrorFormatsMessage) {
  Status s = Status::Error(StatusCode::kInvalidArgument, "buffer %d has size %d", 3, -5);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(), "buffer 3 has size -5");
  EXPECT_STREQ(StatusCodeName(s.code()), "INVALID_ARGUMENT");
}

TEST(StatusTest, LongMessageIsTruncatedNotOverflowed) {
  std::string big(Status::kMaxMessage * 4, 'x');
  Status s = Status::Error(StatusCode::kInternal, "%s", big.c_str());
  EXPECT_EQ(std::strlen(s.message()), Status::kMaxMessage - 1);
}

TEST(StatusTest, TooSmallCarriesNeededBytes) {
  Status s = Status::TooSmall(4096, "need %d", 4096);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_EQ(s.needed_bytes(), 4096u);
}

Status Fails() { return Status::Error(StatusCode::kOutOfRange, "index 7"); }
Status Propagates() {
  TFLM_ARENA_RETURN_IF_ERROR(Fails());
  return Status::Error(StatusCode::kInternal, "not reached");
}

TEST(StatusTest, ReturnIfErrorPropagates) {
  Status s = Propagates();
  EXPECT_EQ(s.code(), StatusCode::kOutOfRange);
  EXPECT_STREQ(s.message(), "index 7");
}

}  // namespace
}  // namespace tflm_arena
