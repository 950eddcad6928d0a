# tflm/: a model of STOCK TFLM's allocation sequence (host tool: standard
# library allowed). Uses core, model and plan only; nothing here runs a kernel.
# Every tflm/*.cc, found by name.
file(GLOB TFLM_ARENA_TFLM_SOURCES CONFIGURE_DEPENDS ${TFLM_ARENA_SRC}/tflm/*.cc)
tflm_arena_host_library(tflm_arena_tflm
  SOURCES ${TFLM_ARENA_TFLM_SOURCES}
  DEPS tflm_arena_model tflm_arena_plan)
