# plan/: runtime planners (device code: no heap, no exceptions) and the host
# planning API (plan.h) built on them.
#
# File names: <x>_planner.{h,cc} is a runtime planner class (GreedyPlanner,
# LinearPlanner; device code); <strategy>.cc is the host strategy of that
# name in the registry (strategy_list.h): tflm_greedy.cc, linear.cc,
# greedy_by_size.cc, naive_objects.cc, ...; one algorithm per file.
# Namespaces: the public API in tflm_arena; helpers private to one file in an
# anonymous namespace; helpers shared by several plan/ files (declared in
# headers only plan/ and its tests include) in tflm_arena::plan_internal.
# The runtime library's sources are listed (device code: a file joins it only
# on purpose); every other plan/*.cc is host code, found by name, so a new
# strategy's plan/<name>.cc needs no edit here.
set(TFLM_ARENA_PLAN_RUNTIME_SOURCES
  ${TFLM_ARENA_SRC}/plan/memory_planner.cc
  ${TFLM_ARENA_SRC}/plan/greedy_planner.cc
  ${TFLM_ARENA_SRC}/plan/linear_planner.cc
  ${TFLM_ARENA_SRC}/plan/plan_text.cc)
tflm_arena_runtime_library(tflm_arena_plan_runtime
  SOURCES ${TFLM_ARENA_PLAN_RUNTIME_SOURCES}
  DEPS tflm_arena_core)

file(GLOB TFLM_ARENA_PLAN_SOURCES CONFIGURE_DEPENDS ${TFLM_ARENA_SRC}/plan/*.cc)
list(REMOVE_ITEM TFLM_ARENA_PLAN_SOURCES ${TFLM_ARENA_PLAN_RUNTIME_SOURCES})
tflm_arena_host_library(tflm_arena_plan
  SOURCES ${TFLM_ARENA_PLAN_SOURCES}
  DEPS tflm_arena_plan_runtime)
# Host code runs on threads (strategy "best", plan validation): the system's
# thread library, not a layer of docs/DESIGN.md.
find_package(Threads REQUIRED)
target_link_libraries(tflm_arena_plan PUBLIC Threads::Threads)
