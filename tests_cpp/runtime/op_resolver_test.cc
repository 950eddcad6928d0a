#include "tflm_arena/runtime/op_resolver.h"

#include <gtest/gtest.h>

#include "test_kernels.h"

namespace tflm_arena {
namespace testing {
namespace {

using runtime::KernelRegistration;
using runtime::MutableOpResolver;

TEST(OpResolverTest, FindsWhatWasAdded) {
  static const KernelRegistration add = AddKernel();
  static const KernelRegistration copy = CopyKernel();
  MutableOpResolver<4> r;
  EXPECT_EQ(r.capacity(), 4u);
  EXPECT_EQ(r.FindBuiltin(kAddCode), nullptr);
  ASSERT_TRUE(r.AddBuiltin(add).ok());
  ASSERT_TRUE(r.AddBuiltin(copy).ok());
  EXPECT_EQ(r.size(), 2u);
  EXPECT_EQ(r.FindBuiltin(kAddCode), &add);
  EXPECT_EQ(r.FindBuiltin(kReshapeCode), &copy);
  EXPECT_EQ(r.FindBuiltin(kSvdfCode), nullptr);
  EXPECT_EQ(r.FindBuiltin(-1), nullptr);
}

TEST(OpResolverTest, DuplicateIsAnError) {
  static const KernelRegistration add = AddKernel();
  static const KernelRegistration add2 = NopKernel(kAddCode);
  MutableOpResolver<4> r;
  ASSERT_TRUE(r.AddBuiltin(add).ok());
  Status s = r.AddBuiltin(add2);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(), "operator ADD (0) is already registered");
  EXPECT_EQ(r.FindBuiltin(kAddCode), &add);
  EXPECT_EQ(r.size(), 1u);
}

TEST(OpResolverTest, FullIsAnError) {
  static const KernelRegistration add = AddKernel();
  static const KernelRegistration copy = CopyKernel();
  MutableOpResolver<1> r;
  ASSERT_TRUE(r.AddBuiltin(add).ok());
  Status s = r.AddBuiltin(copy);
  EXPECT_EQ(s.code(), StatusCode::kOutOfRange);
  EXPECT_STREQ(s.message(),
               "cannot add operator RESHAPE (22): the op resolver holds at "
               "most 1 kernels");
}

TEST(OpResolverTest, BadRegistrationsAreRefused) {
  MutableOpResolver<4> r;
  static KernelRegistration no_invoke = CopyKernel();
  no_invoke.invoke = nullptr;
  EXPECT_EQ(r.AddBuiltin(no_invoke).code(), StatusCode::kInvalidArgument);
  static const KernelRegistration custom = NopKernel(model::kBuiltinCustom);
  Status s = r.AddBuiltin(custom);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(),
               "kernel 'test_nop': a custom operator's kernel is added with AddCustom");
  static const KernelRegistration negative = NopKernel(-5);
  EXPECT_EQ(r.AddBuiltin(negative).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.size(), 0u);
}

TEST(OpResolverTest, CustomKernelsAreFoundByTheirCustomCode) {
  MutableOpResolver<3> r;
  static KernelRegistration window = NopKernel(model::kBuiltinCustom);
  window.name = "SignalWindow";
  static KernelRegistration rfft = NopKernel(model::kBuiltinCustom);
  rfft.name = "SignalRfft";
  static const KernelRegistration add = NopKernel(kAddCode);
  ASSERT_TRUE(r.AddCustom(window).ok());
  ASSERT_TRUE(r.AddCustom(rfft).ok());
  ASSERT_TRUE(r.AddBuiltin(add).ok());
  model::OperatorInfo op;
  op.builtin_code = model::kBuiltinCustom;
  op.custom_code = "SignalRfft";
  EXPECT_EQ(r.Find(op), &rfft);
  op.custom_code = "SignalWindow";
  EXPECT_EQ(r.Find(op), &window);
  op.custom_code = "SignalWindowX";  // a prefix is not a match
  EXPECT_EQ(r.Find(op), nullptr);
  op.custom_code = "Signal";
  EXPECT_EQ(r.Find(op), nullptr);
  op.builtin_code = kAddCode;  // builtins by code, whatever the custom code
  EXPECT_EQ(r.Find(op), &add);
  // The same name twice, a builtin code, an empty name: refused.
  Status s = r.AddCustom(window);
  EXPECT_STREQ(s.message(), "custom operator 'SignalWindow' is already registered");
  EXPECT_EQ(r.AddCustom(add).code(), StatusCode::kInvalidArgument);
  static KernelRegistration unnamed = NopKernel(model::kBuiltinCustom);
  unnamed.name = "";
  EXPECT_EQ(r.AddCustom(unnamed).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.size(), 3u);
}

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
