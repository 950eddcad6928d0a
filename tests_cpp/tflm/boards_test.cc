// Boards: unique names, plausible RAM figures with their source and note,
// and every board's build target known to build_targets.cc.
#include "tflm_arena/tflm/boards.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "tflm_arena/tflm/build_targets.h"

namespace tflm_arena {
namespace tflm {
namespace {

TEST(Boards, NamesAreUniqueAndEveryFieldIsFilled) {
  std::set<std::string> names;
  for (const Board& b : Boards()) {
    EXPECT_TRUE(names.insert(b.name).second) << b.name;
    EXPECT_EQ(FindBoard(b.name), &b);
    EXPECT_GT(std::strlen(b.chip), 3u) << b.name;
    EXPECT_GT(std::strlen(b.core), 3u) << b.name;
    EXPECT_GT(std::strlen(b.source), 20u) << b.name;
    EXPECT_GT(std::strlen(b.note), 20u) << b.name;
    // Microcontroller internal RAM: between 16 KiB and 16 MiB, whole KiB.
    EXPECT_GE(b.ram_bytes, 16u * 1024) << b.name;
    EXPECT_LE(b.ram_bytes, 16u * 1024 * 1024) << b.name;
    EXPECT_EQ(b.ram_bytes % 1024, 0u) << b.name;
    // External RAM and its description come together.
    EXPECT_EQ(b.external_ram_bytes == 0, std::strlen(b.external_ram) == 0) << b.name;
  }
  EXPECT_EQ(names.size(), 13u);
  EXPECT_EQ(FindBoard("no-such-board"), nullptr);
  EXPECT_EQ(FindBoard(nullptr), nullptr);
  EXPECT_EQ(BoardNames().find("arduino-nano-33-ble-sense, raspberry-pi-pico, "), 0u);
}

TEST(Boards, FiguresFromTheDatasheets) {
  EXPECT_EQ(FindBoard("arduino-nano-33-ble-sense")->ram_bytes, 262144u);
  EXPECT_EQ(FindBoard("raspberry-pi-pico")->ram_bytes, 270336u);
  EXPECT_EQ(FindBoard("esp32-s3-devkitc-1")->external_ram_bytes, 0u);
  EXPECT_EQ(FindBoard("esp32-s3-devkitc-1-n8r8")->external_ram_bytes, 8u * 1024 * 1024);
  EXPECT_EQ(FindBoard("esp32-s3-devkitc-1-n8r8")->ram_bytes,
            FindBoard("esp32-s3-devkitc-1")->ram_bytes);
}

TEST(Boards, EveryTargetIsKnown) {
  for (const Board& b : Boards()) {
    // "TARGET@VERSION": the board's SDK's stack, named.
    ASSERT_NE(b.version, nullptr) << b.name;
    const std::string name = std::string(b.target) + "@" + b.version;
    ResolvedTarget r;
    EXPECT_TRUE(
        ResolveBuildTarget(name.c_str(), AllocatorChoice::kTargetDefault, "tflm_greedy", &r).ok())
        << b.name << ": " << name;
    EXPECT_EQ(r.name, name) << b.name;
  }
}

}  // namespace
}  // namespace tflm
}  // namespace tflm_arena
