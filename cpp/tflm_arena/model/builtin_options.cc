// Bounds-checked reads of one operator's builtin options table, and
// Model::builtin_options(), which finds that table.
#include "tflm_arena/model/builtin_options.h"

#include <cstring>

#include "tflm_arena/model/model.h"
#include "tflm_arena/model/schema_access.h"
#include "tflm_arena/model/table_reader.h"

namespace tflm_arena {
namespace model {

namespace fb = internal::fb;

namespace {
// builtin_options.h's enums and ordinals must be the schema's: tflite_subset.fbs
// declares the members the verifier checks, and a drift would make a kernel
// decode another operator's table.
constexpr bool Same(OptionsType ours, fb::BuiltinOptions schema) {
  return ours == static_cast<OptionsType>(schema);
}
static_assert(Same(kNoOptions, fb::BuiltinOptions::NONE), "");
static_assert(Same(kConv2DOptions, fb::BuiltinOptions::Conv2DOptions), "");
static_assert(Same(kDepthwiseConv2DOptions, fb::BuiltinOptions::DepthwiseConv2DOptions), "");
static_assert(Same(kPool2DOptions, fb::BuiltinOptions::Pool2DOptions), "");
static_assert(Same(kFullyConnectedOptions, fb::BuiltinOptions::FullyConnectedOptions), "");
static_assert(Same(kSoftmaxOptions, fb::BuiltinOptions::SoftmaxOptions), "");
static_assert(Same(kAddOptions, fb::BuiltinOptions::AddOptions), "");
static_assert(Same(kReshapeOptions, fb::BuiltinOptions::ReshapeOptions), "");
static_assert(Same(kIfOptions, fb::BuiltinOptions::IfOptions), "");
static_assert(Same(kWhileOptions, fb::BuiltinOptions::WhileOptions), "");
static_assert(Same(kCallOnceOptions, fb::BuiltinOptions::CallOnceOptions), "");
// The last union member of the format (the union is frozen at 126 members).
static_assert(kRightShiftOptions == 126 && kNumOptionsTypes == 127,
              "builtin_options_list.h is out of order");

static_assert(static_cast<int>(Padding::kSame) == static_cast<int>(fb::Padding::SAME) &&
                  static_cast<int>(Padding::kValid) == static_cast<int>(fb::Padding::VALID) &&
                  static_cast<int>(fb::Padding::MAX) == 1,
              "Padding disagrees with the schema");
constexpr bool Same(Activation ours, fb::ActivationFunctionType schema) {
  return static_cast<int>(ours) == static_cast<int>(schema);
}
static_assert(Same(Activation::kNone, fb::ActivationFunctionType::NONE) &&
                  Same(Activation::kRelu, fb::ActivationFunctionType::RELU) &&
                  Same(Activation::kReluN1To1, fb::ActivationFunctionType::RELU_N1_TO_1) &&
                  Same(Activation::kRelu6, fb::ActivationFunctionType::RELU6) &&
                  Same(Activation::kTanh, fb::ActivationFunctionType::TANH) &&
                  Same(Activation::kSignBit, fb::ActivationFunctionType::SIGN_BIT) &&
                  static_cast<int>(fb::ActivationFunctionType::MAX) == 5,
              "Activation disagrees with the schema");
}  // namespace

template <typename T>
T OptionsTable::Read(size_t pos, T def) {
  if (!ok_ || pos > size_ || sizeof(T) > size_ - pos) {
    ok_ = false;
    return def;
  }
  T v;
  std::memcpy(&v, data_ + pos, sizeof(T));  // little-endian hosts only
  return v;
}

size_t OptionsTable::Field(size_t id, size_t bytes) {
  if (!present()) return 0;
  // A table starts with an int32 offset back to its vtable: uint16 vtable
  // bytes, uint16 table bytes, then one uint16 field offset per field.
  const int32_t back = Read<int32_t>(table_, 0);
  const int64_t vtable = static_cast<int64_t>(table_) - back;
  if (!ok_ || vtable < 0 || static_cast<uint64_t>(vtable) >= size_) {
    ok_ = false;
    return 0;
  }
  const size_t vt = static_cast<size_t>(vtable);
  const uint16_t vt_bytes = Read<uint16_t>(vt, 0);
  const uint16_t table_bytes = Read<uint16_t>(vt + 2, 0);
  if (!ok_ || 4 + 2 * id + 2 > vt_bytes) return 0;  // field not in this vtable
  const uint16_t offset = Read<uint16_t>(vt + 4 + 2 * id, 0);
  if (offset == 0) return 0;
  if (offset < 4 || offset + bytes > table_bytes) {  // inside its table, after the soffset
    ok_ = false;
    return 0;
  }
  return table_ + offset;
}

int32_t OptionsTable::Int32(size_t id, int32_t def) {
  const size_t pos = Field(id, sizeof(int32_t));
  return pos == 0 ? def : Read<int32_t>(pos, def);
}

float OptionsTable::Float(size_t id, float def) {
  const size_t pos = Field(id, sizeof(float));
  return pos == 0 ? def : Read<float>(pos, def);
}

uint8_t OptionsTable::UInt8(size_t id, uint8_t def) {
  const size_t pos = Field(id, sizeof(uint8_t));
  return pos == 0 ? def : Read<uint8_t>(pos, def);
}

int8_t OptionsTable::Int8(size_t id, int8_t def) {
  const size_t pos = Field(id, sizeof(int8_t));
  return pos == 0 ? def : Read<int8_t>(pos, def);
}

bool OptionsTable::Vector(size_t id, size_t* first, uint32_t* length) {
  const size_t pos = Field(id, sizeof(uint32_t));
  if (pos == 0) return false;
  const uint64_t vec = static_cast<uint64_t>(pos) + Read<uint32_t>(pos, 0);
  if (!ok_ || vec > size_ || size_ - vec < 4) {
    ok_ = false;
    return false;
  }
  *length = Read<uint32_t>(static_cast<size_t>(vec), 0);
  *first = static_cast<size_t>(vec + 4);
  return true;
}

bool OptionsTable::Int32Vector(size_t id, Span<const int32_t>* out) {
  *out = Span<const int32_t>();
  size_t first = 0;
  uint32_t length = 0;
  if (!Vector(id, &first, &length)) return false;
  if (length > (size_ - first) / sizeof(int32_t) ||
      reinterpret_cast<uintptr_t>(data_ + first) % alignof(int32_t) != 0) {
    ok_ = false;
    return false;
  }
  if (length > 0) {
    *out = Span<const int32_t>(reinterpret_cast<const int32_t*>(data_ + first), length);
  }
  return true;
}

bool OptionsTable::String(size_t id, Span<const char>* out) {
  *out = Span<const char>();
  size_t first = 0;
  uint32_t length = 0;
  if (!Vector(id, &first, &length)) return false;
  if (length >= size_ - first || data_[first + length] != '\0') {  // room for the NUL
    ok_ = false;
    return false;
  }
  *out = Span<const char>(reinterpret_cast<const char*>(data_ + first), length);
  return true;
}

Status Model::builtin_options(size_t subgraph, size_t op, OptionsTable* out) const {
  *out = OptionsTable();
  if (op >= num_operators(subgraph)) {  // 0 for a subgraph out of range
    return Status::Error(StatusCode::kOutOfRange,
                         "operator index %zu out of range (subgraph %zu of %zu has %zu)", op,
                         subgraph, num_subgraphs(), num_operators(subgraph));
  }
  using internal::TableField;
  const internal::Table g =
      TableField(static_cast<internal::Table>(root_), fb::Model::VT_SUBGRAPHS, subgraph);
  const internal::Table o = TableField(g, fb::SubGraph::VT_OPERATORS, op);
  const uint8_t* table = internal::RefField(o, fb::Operator::VT_BUILTIN_OPTIONS);
  const auto type =
      static_cast<uint8_t>(internal::I8Field(o, fb::Operator::VT_BUILTIN_OPTIONS_TYPE));
  if (table == nullptr || type == static_cast<uint8_t>(fb::BuiltinOptions::NONE)) {
    return Status::Ok();
  }
  // The verifier checked that the union's offset points inside the buffer.
  const size_t pos = static_cast<size_t>(table - data_);
  *out = OptionsTable(data_, size_, pos, static_cast<OptionsType>(type));
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena
