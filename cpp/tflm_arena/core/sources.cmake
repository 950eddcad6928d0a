tflm_arena_runtime_library(tflm_arena_core
  SOURCES ${TFLM_ARENA_SRC}/core/status.cc ${TFLM_ARENA_SRC}/core/format.cc
    ${TFLM_ARENA_SRC}/core/allocation_category.cc)
