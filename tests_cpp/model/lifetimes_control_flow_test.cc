// Lifetimes through IF / WHILE / CALL_ONCE (TFLM's micro_allocation_info.cc
// and the IF cases of its micro_allocation_info_test.cc): recursion order, repeated and unreachable
// subgraphs, scratch of control-flow operators, global offline indexing, and the bounds we add
// (cycles, nesting depth, work).
#include "lifetimes_test_util.h"

namespace tflm_arena {
namespace model {
namespace lifetimes_test {
namespace {

TEST(Lifetimes, TL3_SubgraphsAndIf) {
  ExpectRanges(Compute(IfModel(true, false)),
               {{0, 5}, {0, 5}, {0, 5}, {1, 5}, {2, 3}, {2, 3}, {3, 3}, {4, 5}, {4, 5}, {5, 5}});
}

TEST(Lifetimes, TL4_IfWithEmptyElseSubgraph) {
  ExpectRanges(Compute(IfModel(false, false)),
               {{0, 4}, {0, 4}, {0, 4}, {1, 4}, {2, 3}, {2, 3}, {3, 3}, {4, 4}, {4, 4}, {4, 4}});
}

TEST(Lifetimes, TL5_IfFollowedByAnotherOp) {
  std::vector<AllocationEntry> e = Compute(IfModel(true, true));
  ExpectRanges(
      e, {{0, 5}, {0, 5}, {0, 6}, {1, 6}, {6, 6}, {2, 3}, {2, 3}, {3, 3}, {4, 5}, {4, 5}, {5, 5}});
  EXPECT_EQ(e[5].subgraph, 1u);
  EXPECT_EQ(e[5].index, 0u);
  EXPECT_EQ(e[10].subgraph, 2u);
  EXPECT_EQ(e[10].index, 2u);
}

// One running index over all subgraphs' tensors.
TEST(Lifetimes, OfflineOffsetsAreGlobalAcrossSubgraphs) {
  TModel t = IfModel(true, false);
  std::vector<int32_t> offsets;
  for (int32_t i = 0; i < 10; ++i) offsets.push_back(16 * i);
  testing::AddOfflinePlan(&t, offsets);
  std::vector<AllocationEntry> e = Compute(t);
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(e[i].offline_offset, 16 * static_cast<int32_t>(i)) << i;
  }
  EXPECT_EQ(e[7].subgraph, 2u);
  EXPECT_EQ(e[7].index, 0u);
}

TEST(Lifetimes, ScratchOfControlFlowOpSpansItsSubgraphs) {
  std::vector<AllocationEntry> e = Compute(IfModel(true, true), {{64, 0, 0}, {8, 0, 1}, {9, 1, 0}});
  EXPECT_EQ(Range(e[11].first_created, e[11].last_used), Range(1, 5));
  EXPECT_EQ(Range(e[12].first_created, e[12].last_used), Range(3, 3));
  EXPECT_EQ(Range(e[13].first_created, e[13].last_used), Range(6, 6));
  EXPECT_EQ(e[12].subgraph, 1u);
}

TEST(Lifetimes, WhileAndCallOnce) {
  const TModel t = WhileAndCallOnceModel();
  std::vector<AllocationEntry> e = Compute(t);
  // scope: CALL_ONCE op 1, init sg at 2 (its op 3); WHILE op 4, cond at 5
  // (op 6), body at 7 (op 8); last op 9.
  ExpectRanges(e, {{0, 8},
                   {4, 9},
                   {9, 9},  // subgraph 0
                   {5, 6},
                   {6, 6},  // cond
                   {7, 8},
                   {8, 8},    // body
                   {3, 3}});  // init
}

TEST(Lifetimes, SubgraphCalledTwiceIsExtendedAndUnreachableStaysUnset) {
  TModel t = IfModel(true, false);
  t.subgraphs[0].ops[0].sub_b = 1;  // IF(then=1, else=1); subgraph 2 unused
  std::vector<AllocationEntry> e = Compute(t, {{16, 0, 2}});
  // then pass at 2..3, else pass at 4..5
  EXPECT_EQ(Range(e[4].first_created, e[4].last_used), Range(2, 5));
  EXPECT_EQ(Range(e[6].first_created, e[6].last_used), Range(3, 5));
  for (size_t i = 7; i <= 10; ++i) {  // subgraph 2 tensors, its scratch
    EXPECT_EQ(Range(e[i].first_created, e[i].last_used), Range(-1, -1)) << i;
  }
  EXPECT_EQ(e[10].bytes, 16u);
}

TEST(Lifetimes, ControlFlowCycleIsRefused) {
  TModel t = IfModel(true, false);
  t.subgraphs[2].ops[0] = TOp{1, {0, 1}, {2}, {}, TOptions::kIf, 1, 0};
  ExpectFails(t,
              "control-flow cycle: subgraph 2 operator 0 (IF) invokes "
              "subgraph 0");
}

// IF chains where each subgraph calls the next twice: 2^depth walks.
TModel IfChain(int n) {
  TModel t;
  t.opcodes = {testing::Builtin(kBuiltinIf)};
  for (int i = 0; i < n; ++i) {
    TSubgraph g;
    g.tensors = {Int32()};
    if (i + 1 < n) g.ops = {TOp{0, {0}, {}, {}, TOptions::kIf, i + 1, i + 1}};
    t.subgraphs.push_back(g);
  }
  return t;
}

TEST(Lifetimes, DeepOrExplosiveControlFlowIsBounded) {
  ExpectFails(IfChain(40), "exceeds 16777216 steps");
  TModel t = IfChain(70);
  for (auto& g : t.subgraphs) {
    if (!g.ops.empty()) g.ops[0].options = TOptions::kCallOnce;  // one call
  }
  t.opcodes = {testing::Builtin(kBuiltinCallOnce)};
  ExpectFails(t, "control flow nests deeper than 64 subgraphs");
  ASSERT_TRUE(ComputeStatus(IfChain(12)).ok());  // 2^12 walks: fine
}

}  // namespace
}  // namespace lifetimes_test
}  // namespace model
}  // namespace tflm_arena
