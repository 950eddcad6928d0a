# Runtime tests: test-only kernels (test_kernels.cc) on models from the model
# layer's test builder and on the shared real models.
set(TFLM_ARENA_RUNTIME_TEST_COMMON
  ${CMAKE_CURRENT_LIST_DIR}/test_kernels.cc
  ${CMAKE_CURRENT_LIST_DIR}/../model/test_builder.cc)

tflm_arena_add_test(runtime_tests
  SOURCES
    ${TFLM_ARENA_RUNTIME_TEST_COMMON}
    ${CMAKE_CURRENT_LIST_DIR}/op_resolver_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/interpreter_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/planning_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/kernel_context_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/preallocation_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/recording_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/arena_size_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/untrusted_model_test.cc
  LIBS tflm_arena_runtime_host tflm_arena_plan)
target_include_directories(runtime_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/../model)

# Own binary: heap_counter.cc replaces global operator new for the program.
tflm_arena_add_test(runtime_noheap_tests
  SOURCES
    ${TFLM_ARENA_RUNTIME_TEST_COMMON}
    ${CMAKE_CURRENT_LIST_DIR}/noheap_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/noheap_real_model_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/noheap_signal_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/noheap_streaming_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/../plan/heap_counter.cc
  LIBS tflm_arena_kernels tflm_arena_plan)
target_include_directories(runtime_noheap_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/../model ${CMAKE_CURRENT_LIST_DIR}/../plan)

# The kernels library, one test file per operator (kernels/<op>_test.cc):
# hand-checked prepare logic and math, golden vectors from the real TFLM
# (kernels/golden/gen_golden.py, one format: golden_case.h) and each kernel's
# options parser. A new operator's test file is picked up without edits here.
file(GLOB TFLM_ARENA_KERNEL_TEST_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_LIST_DIR}/kernels/*_test.cc)
tflm_arena_add_test(kernel_tests
  SOURCES ${TFLM_ARENA_KERNEL_TEST_SOURCES}
  LIBS tflm_arena_kernels)
target_include_directories(kernel_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/kernels)

# Hostile models against the shipped kernels: every one is rejected at
# AllocateTensors with a clear message or runs inside its tensors (guard bytes
# on both sides of the arena). hostile_model.cc builds one-operator models
# with builtin options.
tflm_arena_add_test(kernel_hostile_tests
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/hostile_model.cc
    ${CMAKE_CURRENT_LIST_DIR}/kernel_hostile_test.cc
  LIBS tflm_arena_kernels tflm_arena_plan)
