// Shared by the per-operator kernel tests (tests_cpp/runtime/kernels/
// <op>_test.cc): TensorInfo fixtures, the golden-vector replay checks (one
// convention for every operator: integer outputs bit for bit, float within
// 1e-5 relative, the kernel's persistent bytes equal to TFLM's; one
// fixture, GoldenTest), and an options-table builder to test each kernel's
// own options parser.
#ifndef TFLM_ARENA_TESTS_RUNTIME_KERNELS_KERNEL_TEST_UTIL_H_
#define TFLM_ARENA_TESTS_RUNTIME_KERNELS_KERNEL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "golden/golden_case.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernel_api.h"

namespace tflm_arena {
namespace runtime {
namespace kernel_testing {

// A TensorInfo over vectors the test keeps alive.
struct TestTensor {
  std::vector<int32_t> shape;
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  model::TensorInfo info;

  TestTensor(model::TensorType type, std::vector<int32_t> s, std::vector<float> sc = {},
             std::vector<int64_t> zp = {}, int32_t qdim = 0)
      : shape(std::move(s)), scale(std::move(sc)), zero_point(std::move(zp)) {
    if (zero_point.empty()) zero_point.assign(scale.size(), 0);
    info.name = "t";
    info.type = type;
    info.shape = Span<const int32_t>(shape.data(), shape.size());
    info.scale = Span<const float>(scale.data(), scale.size());
    info.zero_point = Span<const int64_t>(zero_point.data(), zero_point.size());
    info.quantized_dimension = qdim;
    info.num_elements = 1;
    for (int32_t d : shape) info.num_elements *= static_cast<uint64_t>(d);
  }
};

// --- golden cases (golden/golden_case.h) ---------------------------------------

inline model::TensorInfo ToInfo(const golden::Tensor& t) {
  model::TensorInfo info;
  info.name = "golden";
  info.type = static_cast<model::TensorType>(t.type);
  info.shape = Span<const int32_t>(t.shape, static_cast<size_t>(t.rank));
  info.scale = Span<const float>(t.scale, static_cast<size_t>(t.num_scales));
  info.zero_point = Span<const int64_t>(t.zero_point, static_cast<size_t>(t.num_scales));
  info.quantized_dimension = t.quantized_dimension;
  info.num_elements = static_cast<uint64_t>(t.num_elements);
  return info;
}

// An optional tensor (a bias): null when absent, else `storage` filled.
inline const model::TensorInfo* OptionalInfo(const golden::Tensor& t, model::TensorInfo* storage) {
  if (t.type < 0) return nullptr;
  *storage = ToInfo(t);
  return storage;
}

// The options CONV_2D and DEPTHWISE_CONV_2D share: padding, strides,
// dilations and the fused activation.
template <typename ConvLikeOptions>
void SetConvOptions(const golden::Options& g, ConvLikeOptions* o) {
  o->padding = static_cast<decltype(o->padding)>(g.padding);
  o->stride_w = g.stride_w;
  o->stride_h = g.stride_h;
  o->dilation_w = g.dilation_w;
  o->dilation_h = g.dilation_h;
  o->activation = static_cast<model::Activation>(g.activation);
}

inline bool Is(const golden::Tensor& t, model::TensorType type) {
  return t.type == static_cast<int32_t>(type);
}

// Contents as T; null for an absent tensor.
template <typename T>
const T* DataOf(const golden::Tensor& t) {
  return t.type < 0 ? nullptr : static_cast<const T*>(t.data);
}

// TFLM's per-tensor view: the first scale / zero point, 0 when absent.
inline float ScaleOf(const golden::Tensor& t) { return t.num_scales > 0 ? t.scale[0] : 0.0f; }
inline int32_t ZeroPointOf(const golden::Tensor& t) {
  return t.num_scales > 0 ? static_cast<int32_t>(t.zero_point[0]) : 0;
}
inline size_t Count(const golden::Tensor& t) { return static_cast<size_t>(t.num_elements); }

// Integer outputs: every element equals TFLM's.
template <typename T>
void ExpectIdentical(const golden::Case& c, const T* got) {
  const T* want = DataOf<T>(c.output);
  size_t mismatches = 0;
  for (size_t i = 0; i < Count(c.output); ++i) {
    if (got[i] != want[i] && ++mismatches <= 8) {
      ADD_FAILURE() << c.name << " [" << i << "]: ours " << static_cast<int64_t>(got[i])
                    << ", TFLM " << static_cast<int64_t>(want[i]);
    }
  }
  EXPECT_EQ(mismatches, 0u) << c.name << ": " << mismatches << " of " << Count(c.output)
                            << " differ from TFLM";
}
template <typename T>
void ExpectIdentical(const golden::Case& c, const std::vector<T>& got) {
  ASSERT_EQ(got.size(), Count(c.output));
  ExpectIdentical(c, got.data());
}

// TFLM's output is not degenerate (many distinct values), so bit-exactness
// means something.
template <typename T>
void ExpectManyDistinct(const golden::Case& c) {
  const size_t n = Count(c.output);
  std::vector<T> sorted(DataOf<T>(c.output), DataOf<T>(c.output) + n);
  std::sort(sorted.begin(), sorted.end());
  const size_t distinct =
      static_cast<size_t>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
  EXPECT_GE(distinct, n < 20 ? n / 2 : size_t{10}) << c.name;
}

// Float outputs: within 1e-5 relative (absolute near 0); reports how many
// are bit-identical.
inline void ExpectClose(const golden::Case& c, const float* got) {
  const float* want = DataOf<float>(c.output);
  size_t bad = 0, identical = 0;
  const size_t n = Count(c.output);
  for (size_t i = 0; i < n; ++i) {
    const double tol = 1e-5 * std::max(1.0, std::fabs(static_cast<double>(want[i])));
    if (std::memcmp(&got[i], &want[i], sizeof(float)) == 0) ++identical;
    if (!(std::fabs(static_cast<double>(got[i]) - want[i]) <= tol) && ++bad <= 8) {
      ADD_FAILURE() << c.name << " [" << i << "]: ours " << got[i] << ", TFLM " << want[i];
    }
  }
  EXPECT_EQ(bad, 0u);
  std::printf("    %s: %zu/%zu float outputs bit-identical to TFLM\n", c.name, identical, n);
}
inline void ExpectClose(const golden::Case& c, const std::vector<float>& got) {
  ASSERT_EQ(got.size(), Count(c.output));
  ExpectClose(c, got.data());
}

// One output check for every kernel: integer outputs identical to TFLM's
// (ExpectIdentical) and TFLM's not degenerate (ExpectManyDistinct), float
// outputs within 1e-5 (ExpectClose).
template <typename T>
void ExpectMatchesTflm(const golden::Case& c, const std::vector<T>& got) {
  if constexpr (std::is_floating_point_v<T>) {
    ExpectClose(c, got);
  } else {
    ExpectIdentical(c, got);
    ExpectManyDistinct<T>(c);
  }
}

// The kernel's persistent request equals TFLM's (figures measured on LP64).
inline void ExpectPersistent(size_t ours, const golden::Case& c) {
  if (sizeof(void*) != 8) return;
  EXPECT_EQ(ours, static_cast<size_t>(c.tflm_persistent_bytes)) << c.name;
}

// The fixture of every kernel's golden suite:
//   using MulGolden = GoldenTest;
//   TEST_P(MulGolden, MatchesTflm) { const golden::Case& c = GetParam(); ... }
//   INSTANTIATE_TEST_SUITE_P(Tflm, MulGolden, ::testing::ValuesIn(golden::mul::kCases),
//                            GoldenName);
class GoldenTest : public ::testing::TestWithParam<golden::Case> {};

// gtest parameter names: the case name with non-alphanumerics as '_'.
inline std::string GoldenName(const ::testing::TestParamInfo<golden::Case>& info) {
  std::string name = info.param.name;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

// --- options tables ---------------------------------------------------------

// Builds one flatbuffer table of scalar fields and exposes it as the
// model::OptionsTable a kernel's parser reads. Field `id` is the field's
// declaration position in the schema table.
class OptionsTableBuilder {
 public:
  template <typename T>
  OptionsTableBuilder& Add(size_t id, T value) {
    fields_.push_back(Field{id, sizeof(T), 0});
    std::memcpy(&fields_.back().bits, &value, sizeof(T));
    return *this;
  }
  // The table (type: the BuiltinOptions union ordinal it claims to be).
  model::OptionsTable Build(model::OptionsType type) {
    flatbuffers::FlatBufferBuilder b;
    b.ForceDefaults(true);  // every added field is written, even a zero
    const auto start = b.StartTable();
    for (const Field& f : fields_) {
      const auto voffset = static_cast<flatbuffers::voffset_t>(4 + 2 * f.id);
      switch (f.size) {
        case 1:
          b.AddElement<uint8_t>(voffset, static_cast<uint8_t>(f.bits), 0);
          break;
        case 2:
          b.AddElement<uint16_t>(voffset, static_cast<uint16_t>(f.bits), 0);
          break;
        default:
          b.AddElement<uint32_t>(voffset, f.bits, 0);
          break;
      }
    }
    const flatbuffers::uoffset_t table = b.EndTable(start);
    b.Finish(flatbuffers::Offset<void>(table));
    bytes_.assign(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
    const size_t root = flatbuffers::ReadScalar<flatbuffers::uoffset_t>(bytes_.data());
    return model::OptionsTable(bytes_.data(), bytes_.size(), root, type);
  }

 private:
  struct Field {
    size_t id;
    size_t size;
    uint32_t bits;
  };
  std::vector<Field> fields_;
  std::vector<uint8_t> bytes_;
};

// Runs `registration`'s options parser on `table` into a T.
template <typename T>
Status Parse(const KernelRegistration& registration, model::OptionsTable& table, T* out) {
  if (registration.options.parse == nullptr) {
    return Status::Error(StatusCode::kInternal, "%s has no options parser", registration.name);
  }
  if (registration.options.bytes != sizeof(T) || registration.options.align != alignof(T)) {
    return Status::Error(StatusCode::kInternal, "%s parses another struct", registration.name);
  }
  alignas(T) unsigned char memory[sizeof(T)];
  TFLM_ARENA_RETURN_IF_ERROR(registration.options.parse(table, memory));
  std::memcpy(static_cast<void*>(out), memory, sizeof(T));
  return Status::Ok();
}

}  // namespace kernel_testing
}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TESTS_RUNTIME_KERNELS_KERNEL_TEST_UTIL_H_
