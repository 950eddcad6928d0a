# plan/: runtime planners (device code: no heap, no exceptions) and the host
# planning API (plan.h) built on them.
#
# File names: <x>_planner.{h,cc} is a runtime planner class (GreedyPlanner,
# LinearPlanner; device code); <strategy>.cc is the host strategy of that
# name in the registry (strategies.cc): tflm_greedy.cc, linear.cc,
# greedy_by_size.cc, naive_objects.cc, ...; one algorithm per file.
# Namespaces: the public API in tflm_arena; helpers private to one file in an
# anonymous namespace; helpers shared by several plan/ files (declared in
# headers only plan/ and its tests include) in tflm_arena::plan_internal.
tflm_arena_runtime_library(tflm_arena_plan_runtime
  SOURCES
    ${TFLM_ARENA_SRC}/plan/memory_planner.cc
    ${TFLM_ARENA_SRC}/plan/greedy_planner.cc
    ${TFLM_ARENA_SRC}/plan/linear_planner.cc
    ${TFLM_ARENA_SRC}/plan/plan_text.cc
  DEPS tflm_arena_core)

tflm_arena_host_library(tflm_arena_plan
  SOURCES
    ${TFLM_ARENA_SRC}/plan/records_validation.cc
    ${TFLM_ARENA_SRC}/plan/tflm_limits.cc
    ${TFLM_ARENA_SRC}/plan/overlap_sweep.cc
    ${TFLM_ARENA_SRC}/plan/fixed_aliases.cc
    ${TFLM_ARENA_SRC}/plan/lower_bound.cc
    ${TFLM_ARENA_SRC}/plan/live_bytes.cc
    ${TFLM_ARENA_SRC}/plan/interval_index.cc
    ${TFLM_ARENA_SRC}/plan/offset_sort.cc
    ${TFLM_ARENA_SRC}/plan/tflm_greedy.cc
    ${TFLM_ARENA_SRC}/plan/tflm_greedy_runtime.cc
    ${TFLM_ARENA_SRC}/plan/linear.cc
    ${TFLM_ARENA_SRC}/plan/plan_validation.cc
    ${TFLM_ARENA_SRC}/plan/ascii_render.cc
    ${TFLM_ARENA_SRC}/plan/shared_objects_common.cc
    ${TFLM_ARENA_SRC}/plan/naive_objects.cc
    ${TFLM_ARENA_SRC}/plan/equality_objects.cc
    ${TFLM_ARENA_SRC}/plan/greedy_in_order_objects.cc
    ${TFLM_ARENA_SRC}/plan/greedy_by_breadth_objects.cc
    ${TFLM_ARENA_SRC}/plan/greedy_by_size_objects.cc
    ${TFLM_ARENA_SRC}/plan/greedy_best_objects.cc
    ${TFLM_ARENA_SRC}/plan/mincostflow_objects.cc
    ${TFLM_ARENA_SRC}/plan/objects_to_offsets.cc
    ${TFLM_ARENA_SRC}/plan/greedy_by_size.cc
    ${TFLM_ARENA_SRC}/plan/reorder_graph.cc
    ${TFLM_ARENA_SRC}/plan/reorder.cc
    ${TFLM_ARENA_SRC}/plan/optimal_search.cc
    ${TFLM_ARENA_SRC}/plan/optimal.cc
    ${TFLM_ARENA_SRC}/plan/strategies.cc
  DEPS tflm_arena_plan_runtime)

