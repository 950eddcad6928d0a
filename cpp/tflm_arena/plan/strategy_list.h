// Every planning strategy, one entry per strategy, in the order lists show
// them (TFLM's greedy first). strategies.cc expands this list twice: to
// declare each function an entry names (defined in the strategy's own file,
// plan/<name>.cc) and to build the registry table (strategies.h,
// StrategyInfo). Python's lists, the CLI and the docs read that table.
//
// Adding a strategy (plan/sources.cmake and tests_cpp/plan/tests.cmake find
// the files by name):
//  1. plan/<name>.cc defining the function, in namespace tflm_arena.
//  2. tests_cpp/plan/<name>_test.cc with the cases that show what it does
//     (reach it through FindStrategy("<name>")->plan); strategies_test.cc
//     checks every entry on random records by itself.
//  3. One entry below, of the kind that fits:
//   RUNTIME(name, function, planner, best, fixed, description)
//     a TFLM planner the device runtime also runs (RuntimePlanner::planner);
//   OFFSETS(name, function, best, fixed, description)
//     a host planner giving every buffer an offset;
//     function: Status(Span<const UsageRecord>, PlanResult*, PlanCancel);
//   OBJECTS(name, assign, best, description)
//     shared objects laid end to end (never fixed offsets); name ends in
//     "_objects"; assign: Status(Span<const UsageRecord>, SharedObjects*);
//   SEARCH(name, best, fixed, description)
//     a search over other plans with its own API (PlanOptimal, "best").
//   best: strategy "best" tries it; fixed: it accepts records with fixed
//   (offline) offsets; description: one line, for help texts and lists.
// best is false where the plan can never win (best keeps the first of equal
// plans): greedy_by_breadth_objects gives greedy_by_breadth's offsets
// (that planner lays out the same objects), greedy_best_objects the plan of
// one of its two parts, and naive_objects the sum of all sizes, which TFLM's
// greedy and greedy_by_breadth never exceed.
#ifndef TFLM_ARENA_PLAN_STRATEGY_LIST_H_
#define TFLM_ARENA_PLAN_STRATEGY_LIST_H_

// clang-format off
#define TFLM_ARENA_STRATEGIES(RUNTIME, OFFSETS, OBJECTS, SEARCH)                                 \
  RUNTIME("tflm_greedy", PlanTflmGreedy, kGreedy, true, true,                                    \
          "TFLM's GreedyMemoryPlanner, byte for byte (fast host implementation)")               \
  OFFSETS("tflm_greedy_runtime", PlanRuntimeGreedy, false, true,                                 \
          "the microcontroller implementation of tflm_greedy (same plan, quadratic, no heap)")  \
  RUNTIME("linear", PlanLinearNoCancel, kLinear, false, false,                                   \
          "TFLM's LinearMemoryPlanner: buffers end to end, no reuse")                           \
  OFFSETS("greedy_by_size", PlanGpuGreedyBySize, true, false,                                    \
          "the TFLite GPU delegate's offset planner: largest first, best-fit gap")              \
  OFFSETS("greedy_by_breadth", PlanGpuGreedyByBreadth, true, false,                              \
          "the GPU delegate's greedy_by_breadth shared objects end to end, as the delegate "    \
          "lays them")                                                                           \
  OBJECTS("naive_objects", AssignNaive, false, "shared objects, one per buffer")                  \
  OBJECTS("equality_objects", AssignEquality, true,                                              \
          "shared objects reused only by buffers of exactly the same size")                     \
  OBJECTS("greedy_in_order_objects", AssignGreedyInOrder, true,                                  \
          "shared objects assigned in order of first step")                                     \
  OBJECTS("greedy_by_breadth_objects", AssignGreedyByBreadth, false,                              \
          "shared objects assigned step by step, widest step first")                            \
  OBJECTS("greedy_by_size_objects", AssignGreedyBySize, true,                                    \
          "shared objects by positional-maximum priority")                                      \
  OBJECTS("greedy_best_objects", AssignGreedyBest, false,                                         \
          "the smaller of greedy_by_breadth_objects and greedy_by_size_objects")                \
  OBJECTS("mincostflow_objects", AssignMinCostFlow, true,                                        \
          "shared objects by min-cost flow (at most 1,000 buffers)")                            \
  SEARCH("optimal", true, true,                                                                  \
         "exact search within a time limit; never worse than tflm_greedy")                      \
  SEARCH("best", false, true,                                                                    \
         "the smallest plan of every strategy best tries (ties go to the earlier one)")         \
  /* end of the list */
// clang-format on

#endif  // TFLM_ARENA_PLAN_STRATEGY_LIST_H_
