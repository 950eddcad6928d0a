// The shipped-kernel table (kernel_list.h): every registration is reachable,
// named after its builtin code, unique, and declares a consistent options
// parser.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/runtime/kernels/all_kernels.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

#define TFLM_ARENA_KERNEL_FN(NAME) &Register_##NAME,
const KernelRegistration& (*const kEvery[])() = {TFLM_ARENA_SHIPPED_KERNELS(TFLM_ARENA_KERNEL_FN)};
const KernelRegistration& (*const kEveryCustom[])() = {
    TFLM_ARENA_SHIPPED_CUSTOM_KERNELS(TFLM_ARENA_KERNEL_FN)};
#undef TFLM_ARENA_KERNEL_FN

TEST(KernelList, EveryKernelIsNamedAfterItsCodeAndFindable) {
  EXPECT_EQ(sizeof(kEvery) / sizeof(kEvery[0]), kNumShippedKernels);
  std::set<model::BuiltinCode> codes;
  for (auto fn : kEvery) {
    const KernelRegistration& r = fn();
    const char* name = model::BuiltinCodeName(r.builtin_code);
    ASSERT_NE(name, nullptr) << r.name;
    EXPECT_STREQ(r.name, name);
    EXPECT_TRUE(codes.insert(r.builtin_code).second) << r.name << " registered twice";
    EXPECT_EQ(FindShippedKernel(r.builtin_code), &r) << r.name;
    EXPECT_NE(r.invoke, nullptr) << r.name;
    if (r.options.parse != nullptr) {
      EXPECT_NE(r.options.table_type, 0) << r.name;
      EXPECT_GT(r.options.bytes, 0u) << r.name;
      EXPECT_GT(std::strlen(r.options.table_name), 0u) << r.name;
    }
  }
  EXPECT_EQ(FindShippedKernel(model::kBuiltinCustom), nullptr);
}

TEST(KernelList, EveryCustomKernelIsNamedByItsCustomCodeAndFindable) {
  EXPECT_EQ(sizeof(kEveryCustom) / sizeof(kEveryCustom[0]), kNumShippedCustomKernels);
  std::set<std::string> names;
  for (auto fn : kEveryCustom) {
    const KernelRegistration& r = fn();
    EXPECT_EQ(r.builtin_code, model::kBuiltinCustom) << r.name;
    EXPECT_TRUE(names.insert(r.name).second) << r.name << " registered twice";
    EXPECT_EQ(FindShippedCustomKernel(r.name), &r) << r.name;
    EXPECT_NE(r.invoke, nullptr) << r.name;
    EXPECT_EQ(r.options.parse, nullptr) << r.name;  // flexbuffer options, read in init
  }
  EXPECT_EQ(FindShippedCustomKernel("SignalWindowX"), nullptr);
  EXPECT_EQ(FindShippedCustomKernel(""), nullptr);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
