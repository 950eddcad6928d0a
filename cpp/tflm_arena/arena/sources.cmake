tflm_arena_runtime_library(tflm_arena_arena
  SOURCES
    ${TFLM_ARENA_SRC}/arena/single_arena_allocator.cc
    ${TFLM_ARENA_SRC}/arena/recording_allocator.cc
  DEPS tflm_arena_core)
