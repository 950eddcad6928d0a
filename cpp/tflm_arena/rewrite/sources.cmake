#rewrite / : the graph rewrite(spatial tiling of a model's first stage into
#stock operators).Host tool : standard library allowed.Every rewrite/*.cc,
# found by name.
file(GLOB TFLM_ARENA_REWRITE_SOURCES CONFIGURE_DEPENDS ${TFLM_ARENA_SRC}/rewrite/*.cc)
tflm_arena_host_library(tflm_arena_rewrite
  SOURCES ${TFLM_ARENA_REWRITE_SOURCES}
  DEPS tflm_arena_model_host tflm_arena_tflm)
