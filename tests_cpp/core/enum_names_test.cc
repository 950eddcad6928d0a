// NameOf (core/enum_names.h) and the status code table built on it: every
// code has its own name (a table, unlike a switch, does not warn when a
// value is missing).
#include "tflm_arena/core/enum_names.h"

#include <set>
#include <string>

#include "gtest/gtest.h"
#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace {

enum class Colour { kRed, kGreen, kBlue };

TEST(EnumNamesTest, FindsTheRowOrSaysUnknown) {
  constexpr EnumName<Colour> kNames[] = {{Colour::kRed, "red"}, {Colour::kGreen, "green"}};
  EXPECT_STREQ(NameOf(kNames, Colour::kRed, "?"), "red");
  EXPECT_STREQ(NameOf(kNames, Colour::kGreen, "?"), "green");
  EXPECT_STREQ(NameOf(kNames, Colour::kBlue, "?"), "?");
}

TEST(EnumNamesTest, EveryStatusCodeNamed) {
  std::set<std::string> names;
  for (int c = 0; c <= static_cast<int>(StatusCode::kInternal); ++c) {
    const std::string name = StatusCodeName(static_cast<StatusCode>(c));
    EXPECT_NE(name, "UNKNOWN") << c;
    EXPECT_TRUE(names.insert(name).second) << name;
  }
  EXPECT_STREQ(StatusCodeName(StatusCode::kArenaTooSmall), "ARENA_TOO_SMALL");
  EXPECT_STREQ(StatusCodeName(static_cast<StatusCode>(200)), "UNKNOWN");
}

}  // namespace
}  // namespace tflm_arena
