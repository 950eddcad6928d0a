// Numpy record columns (sizes, first, last, fixed offsets) -> UsageRecords,
// shared by the planner and shared-object bindings.
#ifndef TFLM_ARENA_BINDINGS_RECORD_COLUMNS_H_
#define TFLM_ARENA_BINDINGS_RECORD_COLUMNS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <vector>

#include "tflm_arena/core/usage_record.h"

namespace tflm_arena {
namespace bindings {

using I64Array = pybind11::array_t<int64_t, pybind11::array::c_style | pybind11::array::forcecast>;
using I32Array = pybind11::array_t<int32_t, pybind11::array::c_style | pybind11::array::forcecast>;

inline std::vector<UsageRecord> ToRecords(const I64Array& sizes, const I32Array& first,
                                          const I32Array& last, const I64Array& fixed) {
  const pybind11::ssize_t n = sizes.size();
  if (first.size() != n || last.size() != n || fixed.size() != n) {
    throw pybind11::value_error("sizes, first, last and fixed offsets must have the same length");
  }
  std::vector<UsageRecord> records(static_cast<size_t>(n));
  for (pybind11::ssize_t i = 0; i < n; ++i) {
    records[i] = UsageRecord{sizes.data()[i], first.data()[i], last.data()[i], fixed.data()[i]};
  }
  return records;
}

}  // namespace bindings
}  // namespace tflm_arena

#endif  // TFLM_ARENA_BINDINGS_RECORD_COLUMNS_H_
