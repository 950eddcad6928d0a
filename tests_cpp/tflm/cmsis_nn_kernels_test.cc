// CMSIS-NN's scratch formulas per backend (cmsis_nn_kernels.h). Expected
// values are worked out by hand from CMSIS-NN's size functions at 4ab83cc
// (named in each test), and at e98ee09 at the end, for GCC.
#include "tflm_arena/tflm/cmsis_nn_kernels.h"

#include <gtest/gtest.h>

#include <cstring>
#include <variant>

#include "tflm_arena/tflm/build_targets.h"
#include "tflm_arena/tflm/cmsis_nn_e98ee09_sizes.h"

namespace tflm_arena {
namespace tflm {
namespace {

constexpr CmsisNnBackend kScalar = CmsisNnBackend::kScalar;
constexpr CmsisNnBackend kDsp = CmsisNnBackend::kDsp;
constexpr CmsisNnBackend kMve = CmsisNnBackend::kMve;

CmsisConv Conv(CmsisDims in, CmsisDims filter, CmsisDims out, int64_t stride = 1, int64_t pad = 0) {
  CmsisConv c;
  c.input = in;
  c.filter = filter;
  c.output = out;
  c.stride_w = c.stride_h = stride;
  c.pad_w = c.pad_h = pad;
  return c;
}

// arm_convolve_wrapper_s8_get_buffer_size: im2col of 2 columns of int16,
// K = kw*kh*Cin rounded up to 4; MVE: 4 columns of K rounded up to 16 bytes.
TEST(CmsisNnFormulas, ConvS8General) {
  const CmsisConv c = Conv({1, 8, 8, 3}, {1, 3, 3, 3}, {1, 8, 8, 4}, 1, 1);  // K = 27
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kScalar, c), 2 * 28 * 2);
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kDsp, c), 2 * 28 * 2);
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kMve, c), 4 * 32);
}

// A 1x1 convolution without padding needs no buffer under GCC (the fast
// DSP one needs 2*C int16 under Arm Compiler only), strided or not.
TEST(CmsisNnFormulas, ConvS8OneByOne) {
  for (int64_t stride : {1, 2}) {
    const CmsisConv c = Conv({1, 8, 8, 16}, {1, 1, 1, 16}, {1, 8 / stride, 8 / stride, 4}, stride);
    for (CmsisNnBackend b : {kScalar, kDsp, kMve}) {
      EXPECT_EQ(ConvolveWrapperS8BufferSize(b, c), 0) << CmsisNnBackendName(b);
    }
  }
  // Padded: not the 1x1 kernel; im2col of K = 16.
  const CmsisConv padded = Conv({1, 8, 8, 16}, {1, 1, 1, 16}, {1, 10, 10, 4}, 1, 1);
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kDsp, padded), 2 * 16 * 2);
}

// arm_convolve_1_x_n_s8_get_buffer_size_mve: max(kw*C + pad*C, (kw-1)*C + right pad).
TEST(CmsisNnFormulas, ConvS8OneByNOnMve) {
  const CmsisConv c = Conv({1, 1, 10, 4}, {1, 1, 3, 4}, {1, 1, 8, 8});  // valid, stride 1
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kMve, c), 12);
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kDsp, c), 2 * 12 * 2);              // im2col off MVE
  CmsisConv same = Conv({1, 1, 10, 4}, {1, 1, 3, 4}, {1, 1, 10, 8}, 1, 1);  // pad 1 each side
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kMve, same), 3 * 4 + 1 * 4);
}

// arm_convolve_wrapper_s16_get_buffer_size: 2*K int16; MVE: 4 columns of K rounded to 8 int16.
TEST(CmsisNnFormulas, ConvS16) {
  const CmsisConv c = Conv({1, 8, 8, 3}, {1, 3, 3, 3}, {1, 8, 8, 4}, 1, 1);
  EXPECT_EQ(ConvolveWrapperS16BufferSize(kScalar, c), 2 * 27 * 2);
  EXPECT_EQ(ConvolveWrapperS16BufferSize(kDsp, c), 2 * 27 * 2);
  EXPECT_EQ(ConvolveWrapperS16BufferSize(kMve, c), 4 * 32 * 2);
}

// arm_depthwise_conv_wrapper_s8_get_buffer_size.
TEST(CmsisNnFormulas, DepthwiseS8) {
  const CmsisConv k3 = Conv({1, 8, 8, 16}, {1, 3, 3, 16}, {1, 8, 8, 16}, 1, 1);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kScalar, k3), 0);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kDsp, k3), 0);  // the 3x3 kernel, padding <= 1
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kMve, k3), 4 * 124 * 9);
  const CmsisConv k5 = Conv({1, 8, 8, 16}, {1, 5, 5, 16}, {1, 8, 8, 16}, 1, 2);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kScalar, k5), 0);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kDsp, k5), 16 * 25 * 2);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kMve, k5), 4 * 124 * 25);
  // Depth multiplier 8 on one input channel: none off MVE; on MVE (GCC:
  // more than 1 output channel) a regular convolution plus a filter copy.
  const CmsisConv mult = Conv({1, 8, 8, 1}, {1, 3, 3, 8}, {1, 8, 8, 8}, 1, 1);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kDsp, mult), 0);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kMve, mult), 4 * 16 + 8 * 3 * 3);
  // Batch 2: the optimized kernel is not used.
  const CmsisConv batch = Conv({2, 8, 8, 16}, {1, 5, 5, 16}, {2, 8, 8, 16}, 1, 2);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kDsp, batch), 0);
}

// arm_depthwise_conv_wrapper_s4_get_buffer_size: the DSP size on scalar too.
TEST(CmsisNnFormulas, DepthwiseS4) {
  const CmsisConv k3 = Conv({1, 8, 8, 16}, {1, 3, 3, 16}, {1, 8, 8, 16}, 1, 1);
  EXPECT_EQ(DepthwiseConvWrapperS4BufferSize(kScalar, k3), 16 * 9 * 2);
  EXPECT_EQ(DepthwiseConvWrapperS4BufferSize(kDsp, k3), 16 * 9 * 2);
  EXPECT_EQ(DepthwiseConvWrapperS4BufferSize(kMve, k3), 4 * 124 * 9);
}

TEST(CmsisNnFormulas, FullyConnectedAvgPoolSvdf) {
  // arm_fully_connected_s8_get_buffer_size: output_depth int32 on MVE only.
  EXPECT_EQ(FullyConnectedS8BufferSize(kScalar, 10), 0);
  EXPECT_EQ(FullyConnectedS8BufferSize(kDsp, 10), 0);
  EXPECT_EQ(FullyConnectedS8BufferSize(kMve, 10), 40);
  // arm_avgpool_s8_get_buffer_size: C int32 on DSP only.
  EXPECT_EQ(AvgPoolBufferSize(kScalar, 32), 0);
  EXPECT_EQ(AvgPoolBufferSize(kDsp, 32), 128);
  EXPECT_EQ(AvgPoolBufferSize(kMve, 32), 0);
  // arm_svdf_s8_get_buffer_size: num_filters int32 on MVE only.
  EXPECT_EQ(SvdfS8BufferSize(kDsp, 64), 0);
  EXPECT_EQ(SvdfS8BufferSize(kMve, 64), 256);
}

// arm_transpose_conv_s8_get_buffer_size and _get_reverse_conv_buffer_size.
TEST(CmsisNnFormulas, TransposeConvS8) {
  // More than 16 input channels, stride <= 2: reverse convolution.
  const CmsisConv rev = Conv({1, 4, 4, 20}, {16, 3, 3, 20}, {1, 8, 8, 16}, 2);
  EXPECT_EQ(TransposeConvS8BufferSize(kScalar, rev), 2 * 180 * 2);
  EXPECT_EQ(TransposeConvS8BufferSize(kDsp, rev), 2 * 180 * 2);
  EXPECT_EQ(TransposeConvS8BufferSize(kMve, rev), 4 * 192);
  EXPECT_EQ(TransposeConvS8ReverseBufferSize(rev), 20 * 3 * 3 * 16);
  // Few channels: column buffer ((W-1)*sw + max(kw, sh)) * Cout * max(kh, sh) int32.
  const CmsisConv col = Conv({1, 4, 4, 8}, {16, 3, 3, 8}, {1, 8, 8, 16}, 2);
  for (CmsisNnBackend b : {kScalar, kDsp, kMve}) {
    EXPECT_EQ(TransposeConvS8BufferSize(b, col), (3 * 2 + 3) * 16 * 3 * 4);
  }
  EXPECT_EQ(TransposeConvS8ReverseBufferSize(col), 0);
}

TEST(CmsisNnKernels, OwnRowsReplaceReferenceRowsAndTheRestFallBack) {
  const Span<const KernelRow> own = CmsisNnOwnKernels();
  const Span<const KernelRow> all = CmsisNnKernels();
  for (const KernelRow& row : own) {
    ASSERT_NE(FindKernel(all, row.op), nullptr) << row.op;
    EXPECT_EQ(FindKernel(all, row.op)->source, row.source) << row.op;  // the cmsis_nn row
    EXPECT_EQ(std::strncmp(row.source, "cmsis_nn/", 9), 0) << row.op;
    // The x86-64 column is never read; it repeats the cortex-m one.
    EXPECT_EQ(row.opdata[0], row.opdata[1]) << row.op;
  }
  for (const KernelRow& ref : ReferenceKernels()) {
    const KernelRow* row = FindKernel(all, ref.op);
    ASSERT_NE(row, nullptr) << ref.op;
    if (FindKernel(own, ref.op) == nullptr) EXPECT_EQ(row->source, ref.source) << ref.op;
  }
  EXPECT_EQ(all.size(), ReferenceKernels().size());       // every cmsis_nn op has a reference row
  EXPECT_EQ(FindKernel(all, "CONV_2D")->opdata[1], 60u);  // OpDataConv (56) + buffer index
}

TEST(CmsisNnKernels, TargetsNameTheirBackendAndOnlyMveIsUnchecked) {
  size_t cmsis = 0;
  for (const BuildTarget& t : BuildTargets()) {
    if (std::holds_alternative<ReferenceLibrary>(t.kernels)) {
      EXPECT_EQ(TargetKernels(t).data(), ReferenceKernels().data()) << t.name;
    }
    const CmsisNnBackend* backend = std::get_if<CmsisNnBackend>(&t.kernels);
    if (backend == nullptr) continue;  // another library (esp_nn_kernels_test.cc, ...)
    ++cmsis;
    EXPECT_STREQ(t.abi, "cortex-m") << t.name;
    EXPECT_EQ(TargetKernels(t).data(), CmsisNnKernels().data()) << t.name;
    EXPECT_NE(std::strstr(t.description, CmsisNnBackendName(*backend)), nullptr);
    // The versions come from the stack version, named with every figure.
    ResolvedTarget r;
    ASSERT_TRUE(
        ResolveBuildTarget(t.name, AllocatorChoice::kTargetDefault, "tflm_greedy", &r).ok());
    EXPECT_NE(r.description.find("CMSIS-NN 4ab83cc"), std::string::npos) << t.name;
    EXPECT_NE(r.description.find("upstream TFLM 90b983c"), std::string::npos) << t.name;
    EXPECT_EQ(r.name, std::string(t.name) + "@90b983c");
    EXPECT_EQ(t.checked, *backend != CmsisNnBackend::kMve) << t.name;
    EXPECT_EQ(std::strstr(t.description, "not checked") != nullptr, !t.checked) << t.name;
  }
  EXPECT_EQ(cmsis, 9u);  // 8 cores + cortex-m55+ethos-u
  EXPECT_EQ(FindBuildTarget("cortex-m0plus+cmsis-nn")->kernels, KernelLibrary(kScalar));
  EXPECT_EQ(FindBuildTarget("cortex-m33+cmsis-nn")->kernels, KernelLibrary(kDsp));
  EXPECT_EQ(FindBuildTarget("cortex-m85+cmsis-nn")->kernels, KernelLibrary(kMve));
  EXPECT_EQ(KernelLibraryWords(FindBuildTarget("cortex-m4+cmsis-nn")->kernels),
            "cmsis_nn (DSP backend)");
  EXPECT_EQ(KernelLibraryWords(FindBuildTarget("cortex-m")->kernels), "reference");
}

// CMSIS-NN e98ee09 (the Arduino library's), from that commit's size
// functions, beside 4ab83cc's where they differ.

// arm_convolve_s8_get_buffer_size: 2 * K int16 without rounding K = 27 up
// to 4 (4ab83cc: 2 * 28 * 2); MVE: 4 * round_up(27, 8).
TEST(CmsisNnE98ee09, ConvS8General) {
  const CmsisConv c = Conv({1, 8, 8, 3}, {1, 3, 3, 3}, {1, 8, 8, 4}, 1, 1);
  EXPECT_EQ(ConvolveWrapperS8BufferSizeE98ee09(kScalar, c), 2 * 27 * 2);
  EXPECT_EQ(ConvolveWrapperS8BufferSizeE98ee09(kDsp, c), 2 * 27 * 2);
  EXPECT_EQ(ConvolveWrapperS8BufferSizeE98ee09(kMve, c), 4 * 32);
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kDsp, c), 2 * 28 * 2);
}

// Only the unit-stride 1x1 is the fast kernel (0 bytes); a strided 1x1 takes
// the im2col buffer (4ab83cc has a strided 1x1 kernel needing none).
TEST(CmsisNnE98ee09, ConvS8OneByOne) {
  EXPECT_EQ(
      ConvolveWrapperS8BufferSizeE98ee09(kDsp, Conv({1, 8, 8, 16}, {1, 1, 1, 16}, {1, 8, 8, 4})),
      0);
  const CmsisConv strided = Conv({1, 8, 8, 16}, {1, 1, 1, 16}, {1, 4, 4, 4}, 2);
  EXPECT_EQ(ConvolveWrapperS8BufferSizeE98ee09(kDsp, strided), 2 * 16 * 2);
  EXPECT_EQ(ConvolveWrapperS8BufferSize(kDsp, strided), 0);
}

// 1xN (input height 1, output width % 4 == 0, filter height 1): the im2col
// size except on MVE, where it is 0.
TEST(CmsisNnE98ee09, ConvS8OneByN) {
  const CmsisConv c = Conv({1, 1, 16, 8}, {1, 1, 3, 8}, {1, 1, 16, 4}, 1, 1);
  EXPECT_EQ(ConvolveWrapperS8BufferSizeE98ee09(kDsp, c), 2 * 24 * 2);
  EXPECT_EQ(ConvolveWrapperS8BufferSizeE98ee09(kMve, c), 0);
  EXPECT_EQ(ConvolveWrapperS8BufferSizeE98ee09(
                kMve, Conv({1, 1, 18, 8}, {1, 1, 3, 8}, {1, 1, 18, 4}, 1, 1)),
            4 * 24);  // output width 18: the general kernel
}

// int16: only DSP's fast kernel (K < 512, unit dilation) has a buffer.
TEST(CmsisNnE98ee09, ConvS16) {
  const CmsisConv small = Conv({1, 8, 8, 8}, {1, 3, 3, 8}, {1, 8, 8, 4}, 1, 1);  // K = 72
  EXPECT_EQ(ConvolveWrapperS16BufferSizeE98ee09(kDsp, small), 2 * 72 * 2);
  EXPECT_EQ(ConvolveWrapperS16BufferSizeE98ee09(kScalar, small), 0);
  EXPECT_EQ(ConvolveWrapperS16BufferSizeE98ee09(kMve, small), 0);
  const CmsisConv big = Conv({1, 8, 8, 64}, {1, 3, 3, 64}, {1, 8, 8, 4}, 1, 1);  // K = 576
  EXPECT_EQ(ConvolveWrapperS16BufferSizeE98ee09(kDsp, big), 0);
}

// Depthwise: the opt kernel's size also for 3x3 filters (4ab83cc: 0 for
// 3x3 with padding <= 1 on DSP); nothing when channels change.
TEST(CmsisNnE98ee09, DepthwiseS8) {
  const CmsisConv c = Conv({1, 25, 5, 64}, {1, 3, 3, 64}, {1, 25, 5, 64}, 1, 1);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSizeE98ee09(kDsp, c), 64 * 9 * 2);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSize(kDsp, c), 0);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSizeE98ee09(kScalar, c), 0);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSizeE98ee09(kMve, c), 4 * 124 * 9);
  EXPECT_EQ(DepthwiseConvWrapperS8BufferSizeE98ee09(
                kDsp, Conv({1, 8, 8, 1}, {1, 3, 3, 8}, {1, 8, 8, 8}, 1, 1)),
            0);
}

}  // namespace
}  // namespace tflm
}  // namespace tflm_arena
