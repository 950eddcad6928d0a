# plan/: runtime planners (device code: no heap, no exceptions) and the host
# planning API (plan.h) built on them.
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
    ${TFLM_ARENA_SRC}/plan/interval_index.cc
    ${TFLM_ARENA_SRC}/plan/offset_sort.cc
    ${TFLM_ARENA_SRC}/plan/greedy_fast.cc
    ${TFLM_ARENA_SRC}/plan/greedy_runtime_host.cc
    ${TFLM_ARENA_SRC}/plan/linear.cc
    ${TFLM_ARENA_SRC}/plan/plan_validation.cc
    ${TFLM_ARENA_SRC}/plan/ascii_render.cc
    ${TFLM_ARENA_SRC}/plan/shared_objects_common.cc
    ${TFLM_ARENA_SRC}/plan/naive.cc
    ${TFLM_ARENA_SRC}/plan/equality.cc
    ${TFLM_ARENA_SRC}/plan/greedy_in_order.cc
    ${TFLM_ARENA_SRC}/plan/greedy_by_breadth.cc
    ${TFLM_ARENA_SRC}/plan/greedy_by_size.cc
    ${TFLM_ARENA_SRC}/plan/greedy_best.cc
    ${TFLM_ARENA_SRC}/plan/min_cost_flow.cc
    ${TFLM_ARENA_SRC}/plan/objects_to_offsets.cc
    ${TFLM_ARENA_SRC}/plan/offsets_greedy_by_size.cc
    ${TFLM_ARENA_SRC}/plan/reorder_graph.cc
    ${TFLM_ARENA_SRC}/plan/reorder.cc
    ${TFLM_ARENA_SRC}/plan/optimal_search.cc
    ${TFLM_ARENA_SRC}/plan/optimal.cc
    ${TFLM_ARENA_SRC}/plan/strategies.cc
  DEPS tflm_arena_plan_runtime)

