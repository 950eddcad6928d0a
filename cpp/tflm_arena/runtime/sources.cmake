# runtime/: the arena-only interpreter (device code: no heap, no exceptions,
# no RTTI) and its host helper.
tflm_arena_runtime_library(tflm_arena_runtime
  SOURCES
    ${TFLM_ARENA_SRC}/runtime/runtime_util.cc
    ${TFLM_ARENA_SRC}/runtime/op_resolver.cc
    ${TFLM_ARENA_SRC}/runtime/kernel_context.cc
    ${TFLM_ARENA_SRC}/runtime/interpreter.cc
    ${TFLM_ARENA_SRC}/runtime/model_allocation.cc
    ${TFLM_ARENA_SRC}/runtime/memory_planning.cc
    ${TFLM_ARENA_SRC}/runtime/preallocation.cc
  DEPS tflm_arena_model tflm_arena_plan_runtime tflm_arena_arena)

# Kernels: their own libraries, linked on top of this one (they call
# KernelContext); the interpreter never depends on them.
include(${TFLM_ARENA_SRC}/runtime/kernels/sources.cmake)

# Host helper (standard library allowed): exact arena size by trial runs.
tflm_arena_host_library(tflm_arena_runtime_host
  SOURCES ${TFLM_ARENA_SRC}/runtime/required_arena_size.cc
    ${TFLM_ARENA_SRC}/runtime/preallocation_sharing.cc
  DEPS tflm_arena_runtime)
