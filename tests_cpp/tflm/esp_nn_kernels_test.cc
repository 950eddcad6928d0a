// ESP-NN's scratch formulas per chip and release (esp_nn_scratch_sizes.h).
// Expected values are worked out by hand from esp-nn's size functions (named
// in each test): 1.2.3's unless a test names another release.
#include "tflm_arena/tflm/esp_nn_kernels.h"

#include <gtest/gtest.h>

#include <cstring>

#include "tflm_arena/tflm/build_targets.h"

namespace tflm_arena {
namespace tflm {
namespace {

constexpr EspNnChip kAnsi = EspNnChip::kAnsiC;
constexpr EspNnVersion kNewest = EspNnVersion::kV1_2_3;
constexpr EspNnChip kEsp32 = EspNnChip::kEsp32;
constexpr EspNnChip kS3 = EspNnChip::kEsp32S3;
constexpr EspNnChip kP4 = EspNnChip::kEsp32P4;

// Dims are {width, height, channels}.
EspNnConv Conv(EspNnDims in, EspNnDims filter, EspNnDims out, int64_t stride = 1, int64_t pad = 0,
               int64_t ch_mult = 1) {
  EspNnConv c;
  c.input = in;
  c.filter = filter;
  c.output = out;
  c.stride_w = c.stride_h = stride;
  c.pad_w = c.pad_h = pad;
  c.ch_mult = ch_mult;
  return c;
}

int64_t ConvSize(EspNnChip chip, const EspNnConv& c, EspNnVersion version = kNewest) {
  int64_t v = -1;
  const Status s = EspNnConvScratchSize(chip, version, c, &v);
  EXPECT_TRUE(s.ok()) << s.message();
  return v;
}
int64_t DwSize(EspNnChip chip, const EspNnConv& c, EspNnVersion version = kNewest) {
  int64_t v = -1;
  const Status s = EspNnDepthwiseConvScratchSize(chip, version, c, &v);
  EXPECT_TRUE(s.ok()) << s.message();
  return v;
}

// The chip names are a table (no exhaustiveness check): every value is named.
TEST(EspNnChips, EveryChipHasItsName) {
  EXPECT_STREQ(EspNnChipName(kAnsi), "ANSI C");
  EXPECT_STREQ(EspNnChipName(kEsp32), "ESP32 (generic optimized)");
  EXPECT_STREQ(EspNnChipName(kS3), "ESP32-S3");
  EXPECT_STREQ(EspNnChipName(kP4), "ESP32-P4");
  EXPECT_STREQ(EspNnChipName(static_cast<EspNnChip>(99)), "?");
}

// esp_nn_conv_ansi.c / esp_nn_conv_opt.c, esp_nn_depthwise_conv_{ansi,opt,esp32p4}.c: 0.
TEST(EspNnFormulas, AnsiAndGenericNeedNoConvScratch) {
  const EspNnConv c = Conv({8, 8, 16}, {3, 3, 16}, {8, 8, 4}, 1, 1);
  for (EspNnChip chip : {kAnsi, kEsp32}) {
    EXPECT_EQ(ConvSize(chip, c), 0) << EspNnChipName(chip);
    EXPECT_EQ(DwSize(chip, c), 0) << EspNnChipName(chip);
  }
  EXPECT_EQ(DwSize(kP4, c), 0);
}

// esp_nn_get_conv_scratch_size_esp32s3.
TEST(EspNnFormulas, ConvS3) {
  // 1x1, stride 1, no padding, 3 channels: input padded to 8 channels
  // (64 * 8) + filter 8 * 4 + transpose 2 * 8 * 8 + 64.
  EXPECT_EQ(ConvSize(kS3, Conv({8, 8, 3}, {1, 1, 3}, {8, 8, 4})), 512 + 32 + 128 + 64);
  // 3x3 on 3 channels: row 9 < 16, window 27 >= 16: im2col, window aligned to 32:
  // 4 * 4 + 16 + 4 * 32 + 16 + 32 + 64.
  EXPECT_EQ(ConvSize(kS3, Conv({8, 8, 3}, {3, 3, 3}, {8, 8, 4}, 1, 1)), 272);
  // 3x3 on 16 channels, padding 1: padded input 10 * 10 * 16, filter 9 * 16 * 4,
  // aligned rows 48 * 3 * 4, boundary (8 + 2) * (8 + 2) * 16, 64, 4 * 4.
  EXPECT_EQ(ConvSize(kS3, Conv({8, 8, 16}, {3, 3, 16}, {8, 8, 4}, 1, 1)),
            1600 + 576 + 576 + 1600 + 64 + 16);
}

// esp_nn_get_conv_scratch_size_esp32p4, one case per path.
TEST(EspNnFormulas, ConvP4) {
  // 1x1 with fewer than 16 channels: 4 * 4 + 16 * 4 + 32 + 32.
  EXPECT_EQ(ConvSize(kP4, Conv({8, 8, 3}, {1, 1, 3}, {8, 8, 4})), 144);
  // 1x1 with 16 channels: filter 16 * 4 + transpose 2 * 8 * 16 + 32.
  EXPECT_EQ(ConvSize(kP4, Conv({8, 8, 16}, {1, 1, 16}, {8, 8, 4})), 64 + 256 + 32);
  // 3x3 valid on 16 channels (direct): 9 * 16 * 4 + 32 + 16.
  EXPECT_EQ(ConvSize(kP4, Conv({8, 8, 16}, {3, 3, 16}, {6, 6, 4})), 624);
  // 3x3 padded on 16 channels (im2col, one window of 144): 16 + 144 + 32.
  EXPECT_EQ(ConvSize(kP4, Conv({8, 8, 16}, {3, 3, 16}, {8, 8, 4}, 1, 1)), 192);
  // 1x1 stride 2 on 3 channels (window 3 < 16, no padding, tiled): 16
  // effective channels: 16 + 16 * 4 + 8 * 8 * 16 + 32.
  EXPECT_EQ(ConvSize(kP4, Conv({8, 8, 3}, {1, 1, 3}, {4, 4, 4}, 2)), 16 + 64 + 1024 + 32);
  // 3x3 on 1 channel, padding 1, 100x100: monolithic padded input 102 * 102
  // + filter 9 * 16 * 4 + 32 + 16.
  EXPECT_EQ(ConvSize(kP4, Conv({100, 100, 1}, {3, 3, 1}, {100, 100, 4}, 1, 1)),
            10404 + 576 + 32 + 16);
  // 200x200: 202 * 202 > L1D_BUDGET (32768): tiled. Effective channels 16,
  // tile row 202 * 16 = 3232, budget 32768 - 16 - 576 = 32176, tile
  // (32176 - 3 * 3232) / 3232 + 1 = 7 rows of output: 6 + 3 + 2 = 11 input rows.
  EXPECT_EQ(ConvSize(kP4, Conv({200, 200, 1}, {3, 3, 1}, {200, 200, 4}, 1, 1)),
            11 * 3232 + 576 + 32 + 16);
}

// esp_nn_get_depthwise_conv_scratch_size_esp32s3, one case per path.
TEST(EspNnFormulas, DepthwiseS3) {
  // multiplier 1, 16 channels, 3x3, padding 1: filter 144 + padded input 10 * 10 * 16 + 16.
  EXPECT_EQ(DwSize(kS3, Conv({8, 8, 16}, {3, 3, 16}, {8, 8, 16}, 1, 1)), 144 + 1600 + 16);
  // ... valid, nothing left to pad: filter + 16.
  EXPECT_EQ(DwSize(kS3, Conv({8, 8, 16}, {3, 3, 16}, {6, 6, 16})), 160);
  // 8 channels, 3x3: int16 filter and input, 2 * (72 + 512) + 32.
  EXPECT_EQ(DwSize(kS3, Conv({8, 8, 8}, {3, 3, 8}, {8, 8, 8}, 1, 1)), 1200);
  // 24 channels, 3x3, padding 1: 32 channels; 9 * 32 + 12 * 12 * 32 + 8 * 8 * 32 + 64.
  EXPECT_EQ(DwSize(kS3, Conv({8, 8, 24}, {3, 3, 24}, {8, 8, 24}, 1, 1)), 288 + 4608 + 2048 + 64);
  // 8 channels, 5x5: 2 * (200 + 512) + 32.
  EXPECT_EQ(DwSize(kS3, Conv({8, 8, 8}, {5, 5, 8}, {8, 8, 8}, 1, 2)), 1456);
  // 5 channels (padded to 8), four 16-aligned regions: 144, 1024, 512, 3 * 32, + 16.
  EXPECT_EQ(DwSize(kS3, Conv({8, 8, 5}, {3, 3, 5}, {8, 8, 5}, 1, 1)), 1680 + 96 + 16);
  // multiplier 4: 2 * (9 * 2 * 4 + 8 * 8 * 2) + 32; multiplier 2 on 3 channels: 32.
  EXPECT_EQ(DwSize(kS3, Conv({8, 8, 2}, {3, 3, 8}, {8, 8, 8}, 1, 1, 4)), 432);
  EXPECT_EQ(DwSize(kS3, Conv({8, 8, 3}, {3, 3, 6}, {8, 8, 6}, 1, 1, 2)), 32);
}

// The S3 convolution per release: 1.1.2 = 1.2.0 (no im2col path, no
// filter-alignment or boundary terms, 32 bytes of alignment), 1.2.1 = 1.2.2
// (the terms, 32 bytes), 1.2.3 (64 bytes).
TEST(EspNnFormulas, ConvS3PerRelease) {
  using V = EspNnVersion;
  // 3x3 on 16 channels, padding 1 (the third case of ConvS3): 1.2.0 has the
  // padded input 1600, the filter 576, 32 and 4 * 4.
  const EspNnConv padded = Conv({8, 8, 16}, {3, 3, 16}, {8, 8, 4}, 1, 1);
  EXPECT_EQ(ConvSize(kS3, padded, V::kV1_1_2), 1600 + 576 + 32 + 16);
  EXPECT_EQ(ConvSize(kS3, padded, V::kV1_2_0), 1600 + 576 + 32 + 16);
  EXPECT_EQ(ConvSize(kS3, padded, V::kV1_2_1), 1600 + 576 + 576 + 1600 + 32 + 16);
  EXPECT_EQ(ConvSize(kS3, padded, V::kV1_2_2), 1600 + 576 + 576 + 1600 + 32 + 16);
  EXPECT_EQ(ConvSize(kS3, padded, V::kV1_2_3), 1600 + 576 + 576 + 1600 + 64 + 16);
  // 3x3 on 3 channels: 1.2.0 has no im2col path: 16-channel filter 9 * 16 * 4,
  // padded input 10 * 10 * 3, 32, 16; 1.2.1 takes im2col with 32 bytes.
  const EspNnConv im2col = Conv({8, 8, 3}, {3, 3, 3}, {8, 8, 4}, 1, 1);
  EXPECT_EQ(ConvSize(kS3, im2col, V::kV1_2_0), 576 + 300 + 32 + 16);
  EXPECT_EQ(ConvSize(kS3, im2col, V::kV1_2_1), 272 - 32);
  // Valid 3x3 with an output that does not reach the input's edge
  // (stride 2 on 8 wide, 3 out): no boundary term in any release, but 1.2.1
  // adds the aligned filter rows (48 * 3 * 4).
  const EspNnConv valid = Conv({8, 8, 16}, {3, 3, 16}, {3, 3, 4}, 2);
  EXPECT_EQ(ConvSize(kS3, valid, V::kV1_2_0), 576 + 32 + 16);
  EXPECT_EQ(ConvSize(kS3, valid, V::kV1_2_1), 576 + 576 + 32 + 16);
  // The 1x1 path differs only in the alignment allowance.
  const EspNnConv one = Conv({8, 8, 3}, {1, 1, 3}, {8, 8, 4});
  EXPECT_EQ(ConvSize(kS3, one, V::kV1_1_2), 512 + 32 + 128 + 32);
  EXPECT_EQ(ConvSize(kS3, one, V::kV1_2_2), 512 + 32 + 128 + 32);
}

// Before 1.2.3 the P4 convolution was the S3 code of 1.2.0.
TEST(EspNnFormulas, ConvP4BeforeItsRewrite) {
  for (EspNnVersion v : {EspNnVersion::kV1_1_2, EspNnVersion::kV1_2_0, EspNnVersion::kV1_2_1,
                         EspNnVersion::kV1_2_2}) {
    EXPECT_EQ(ConvSize(kP4, Conv({8, 8, 16}, {3, 3, 16}, {8, 8, 4}, 1, 1), v),
              1600 + 576 + 32 + 16);
    EXPECT_EQ(ConvSize(kP4, Conv({8, 8, 3}, {1, 1, 3}, {8, 8, 4}), v), 512 + 32 + 128 + 32);
    EXPECT_EQ(DwSize(kP4, Conv({8, 8, 16}, {3, 3, 16}, {8, 8, 16}, 1, 1), v), 0);
  }
}

// The S3 depthwise convolution before 1.2.1: only 3x3 multiplier-1 kernels
// on multiples of 8 channels and multipliers of 4 take scratch (s16 paths
// with 16 bytes of alignment in 1.1.2, 32 in 1.2.0), everything else 32.
TEST(EspNnFormulas, DepthwiseS3BeforeItsRewrite) {
  using V = EspNnVersion;
  for (V v : {V::kV1_1_2, V::kV1_2_0}) {
    const int64_t gap = v == V::kV1_1_2 ? 16 : 32;
    // 16 channels, 3x3, padding 1: as 1.2.3 (filter + padded input + 16).
    EXPECT_EQ(DwSize(kS3, Conv({8, 8, 16}, {3, 3, 16}, {8, 8, 16}, 1, 1), v), 144 + 1600 + 16);
    // A 300x300 input (over 1.2.3's 40 KiB limit) is still buffered whole.
    EXPECT_EQ(DwSize(kS3, Conv({100, 100, 16}, {3, 3, 16}, {100, 100, 16}, 1, 1), v),
              144 + 102 * 102 * 16 + 16);
    // 8 channels, 3x3: 2 * (72 + 512) + gap.
    EXPECT_EQ(DwSize(kS3, Conv({8, 8, 8}, {3, 3, 8}, {8, 8, 8}, 1, 1), v), 1168 + gap);
    // multiplier 4: 2 * (72 + 128) + gap.
    EXPECT_EQ(DwSize(kS3, Conv({8, 8, 2}, {3, 3, 8}, {8, 8, 8}, 1, 1, 4), v), 400 + gap);
    // 24 channels (1.2.3 pads them to 32): the s16 path, 2 * (216 + 1536) + gap.
    EXPECT_EQ(DwSize(kS3, Conv({8, 8, 24}, {3, 3, 24}, {8, 8, 24}, 1, 1), v), 3504 + gap);
    // 8 channels 5x5 and 5 channels: 32.
    EXPECT_EQ(DwSize(kS3, Conv({8, 8, 8}, {5, 5, 8}, {8, 8, 8}, 1, 2), v), 32);
    EXPECT_EQ(DwSize(kS3, Conv({8, 8, 5}, {3, 3, 5}, {8, 8, 5}, 1, 1), v), 32);
  }
  // From 1.2.1 it is 1.2.3's function.
  EXPECT_EQ(DwSize(kS3, Conv({8, 8, 24}, {3, 3, 24}, {8, 8, 24}, 1, 1), V::kV1_2_1),
            288 + 4608 + 2048 + 64);
}

// esp_nn_get_softmax_scratch_size_{ansi,opt,esp32s3,esp32p4}: 0, then width * 4.
TEST(EspNnFormulas, Softmax) {
  int64_t v = -1;
  ASSERT_TRUE(EspNnSoftmaxScratchSize(kAnsi, kNewest, 10, &v).ok());
  EXPECT_EQ(v, 0);
  for (EspNnChip chip : {kEsp32, kS3, kP4}) {
    ASSERT_TRUE(EspNnSoftmaxScratchSize(chip, kNewest, 10, &v).ok());
    EXPECT_EQ(v, 40) << EspNnChipName(chip);
  }
  EXPECT_FALSE(EspNnSoftmaxScratchSize(kEsp32, kNewest, int64_t{1} << 30, &v).ok());
}

// esp-nn narrows every dimension to uint16_t and computes in int: a result
// beyond int32 and a division by zero are errors, never a figure.
TEST(EspNnFormulas, OverflowAndDivisionByZeroAreErrors) {
  int64_t v = 0;
  const EspNnConv huge = Conv({60000, 60000, 60000}, {3, 3, 60000}, {60000, 60000, 60000}, 1, 1);
  const Status s = EspNnConvScratchSize(kS3, kNewest, huge, &v);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::strstr(s.message(), "overflows"), nullptr) << s.message();
  // A filter width of 65536 is 0 as uint16_t: the tiled path divides by it.
  const EspNnConv zero_width = Conv({8, 8, 3}, {65536, 1, 3}, {4, 4, 4}, 2);
  const Status z = EspNnConvScratchSize(kP4, kNewest, zero_width, &v);
  EXPECT_FALSE(z.ok());
  EXPECT_NE(std::strstr(z.message(), "divides by"), nullptr) << z.message();
}

TEST(EspNnKernels, OwnRowsReplaceReferenceRowsAndTheRestFallBack) {
  const Span<const KernelRow> own = EspNnOwnKernels();
  const Span<const KernelRow> all = EspNnKernels();
  EXPECT_EQ(own.size(), 8u);  // the 7 files; pooling.cc holds two operators
  for (const KernelRow& row : own) {
    EXPECT_EQ(std::strncmp(row.source, "esp_nn/", 7), 0) << row.op;
    EXPECT_STREQ(FindKernel(all, row.op)->source, row.source);
  }
  for (const KernelRow& ref : ReferenceKernels()) {
    ASSERT_NE(FindKernel(all, ref.op), nullptr) << ref.op;
  }
  EXPECT_STREQ(FindKernel(all, "RESHAPE")->source,
               FindKernel(ReferenceKernels(), "RESHAPE")->source);
  // The OpData esp_nn's conv and softmax add a buffer index to.
  EXPECT_EQ(FindKernel(all, "CONV_2D")->opdata[1], 60u);
  EXPECT_EQ(FindKernel(ReferenceKernels(), "CONV_2D")->opdata[1], 56u);
  EXPECT_EQ(FindKernel(all, "SOFTMAX")->opdata[1], 64u);
}

TEST(EspNnKernels, TargetsNameTheirChipAndVersions) {
  const struct {
    const char* name;
    EspNnChip chip;
  } expected[] = {{"esp32+esp-nn", kEsp32},
                  {"esp32s3+esp-nn", kS3},
                  {"esp32p4+esp-nn", kP4},
                  {"esp32+esp-nn-ansi-c", kAnsi}};
  for (const auto& e : expected) {
    const BuildTarget* t = FindBuildTarget(e.name);
    ASSERT_NE(t, nullptr) << e.name;
    EXPECT_EQ(t->kernels, KernelLibrary(e.chip)) << e.name;
    EXPECT_STREQ(t->abi, "cortex-m");  // the 32-bit layout
    ResolvedTarget r;
    ASSERT_TRUE(
        ResolveBuildTarget(e.name, AllocatorChoice::kTargetDefault, "tflm_greedy", &r).ok());
    EXPECT_NE(r.description.find("esp-tflite-micro 1.4.0 (99f49e1"), std::string::npos) << e.name;
    EXPECT_NE(r.description.find("esp-nn 1.2.3"), std::string::npos) << e.name;
    EXPECT_EQ(r.name, std::string(e.name) + "@1.2.3");
    EXPECT_EQ(TargetKernels(*t).data(), EspNnKernels().data());
  }
}

}  // namespace
}  // namespace tflm
}  // namespace tflm_arena
