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
  EXPECT_STREQ(s.message(), "kernel 'test_nop': custom operators are not supported");
  static const KernelRegistration negative = NopKernel(-5);
  EXPECT_EQ(r.AddBuiltin(negative).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.size(), 0u);
}

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
