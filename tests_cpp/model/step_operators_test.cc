// ComputeStepOperators: the operator of every step, checked against the
// lifetimes the same walk gives (lifetimes_test_util.h models).
#include "tflm_arena/model/step_operators.h"

#include <vector>

#include "lifetimes_test_util.h"

namespace tflm_arena {
namespace model {
namespace lifetimes_test {
namespace {

struct Want {
  uint32_t subgraph;
  uint32_t op;
  int32_t calls;
};

std::vector<StepOperator> Steps(const TModel& t, Status* status = nullptr) {
  testing::Loaded loaded = testing::BuildAndLoad(t);
  size_t n = 0;
  Status s = ComputeStepOperators(loaded.model, Span<StepOperator>(), &n);
  std::vector<StepOperator> out(n);
  if (s.ok()) s = ComputeStepOperators(loaded.model, Span<StepOperator>(out), &n);
  if (status != nullptr) *status = s;
  else EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(n, out.size());
  return out;
}

void ExpectSteps(const std::vector<StepOperator>& got, const std::vector<Want>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].subgraph, want[i].subgraph) << "step " << i + 1;
    EXPECT_EQ(got[i].op, want[i].op) << "step " << i + 1;
    EXPECT_EQ(got[i].calls, want[i].calls) << "step " << i + 1;
  }
}

TEST(StepOperators, PlainModelOneStepPerOperator) {
  ExpectSteps(Steps(MockModel()), {{0, 0, -1}, {0, 1, -1}});
}

TEST(StepOperators, SubgraphWithoutOperatorsHasNoSteps) {
  TModel t = MockModel();
  t.subgraphs[0].ops.clear();
  t.subgraphs[0].outputs = {0};
  EXPECT_TRUE(Steps(t).empty());
}

TEST(StepOperators, IfThenOperatorAfterIt) {
  // IF at 1, then-call at 2 (then's op at 3), else-call at 4 (else's op at
  // 5), the ADD after the IF at 6: the lifetimes of TL5 end there.
  ExpectSteps(Steps(IfModel(true, true)),
              {{0, 0, -1}, {0, 0, 1}, {1, 0, -1}, {0, 0, 2}, {2, 0, -1}, {0, 1, -1}});
  std::vector<AllocationEntry> e = Compute(IfModel(true, true));
  EXPECT_EQ(e[4].first_created, 6);  // output of operator 1 at step 6
}

TEST(StepOperators, WhileAndCallOnceAgreeWithLifetimes) {
  const TModel t = WhileAndCallOnceModel();
  std::vector<StepOperator> s = Steps(t);
  ExpectSteps(s, {{0, 0, -1},
                  {0, 0, 3},
                  {3, 0, -1},
                  {0, 1, -1},
                  {0, 1, 1},
                  {1, 0, -1},
                  {0, 1, 2},
                  {2, 0, -1},
                  {0, 2, -1}});
  // Every operator output is first live at its operator's own step.
  std::vector<AllocationEntry> e = Compute(t);
  EXPECT_EQ(e[1].first_created, 4);  // WHILE's output, step of (0, 1)
  EXPECT_EQ(e[2].first_created, 9);  // last operator's output
  EXPECT_EQ(e[4].first_created, 6);  // cond's op output
  EXPECT_EQ(e[6].first_created, 8);  // body's op output
  EXPECT_EQ(e[7].first_created, 3);  // init's op output
}

TEST(StepOperators, SubgraphCalledTwiceGetsStepsTwice) {
  TModel t = IfModel(true, false);
  t.subgraphs[0].ops[0].sub_b = 1;  // IF(then=1, else=1)
  ExpectSteps(Steps(t), {{0, 0, -1}, {0, 0, 1}, {1, 0, -1}, {0, 0, 1}, {1, 0, -1}});
}

TEST(StepOperators, ShortOutputSpanGetsThePrefixAndTheCount) {
  testing::Loaded loaded = testing::BuildAndLoad(IfModel(true, true));
  std::vector<StepOperator> out(2);
  size_t n = 0;
  ASSERT_TRUE(ComputeStepOperators(loaded.model, Span<StepOperator>(out), &n).ok());
  EXPECT_EQ(n, 6u);
  EXPECT_EQ(out[1].calls, 1);
}

TEST(StepOperators, CycleDepthAndWorkFailAsLifetimes) {
  TModel cycle = IfModel(true, false);
  cycle.subgraphs[2].ops[0] = TOp{1, {0, 1}, {2}, {}, TOptions::kIf, 1, 0};
  Status s;
  Steps(cycle, &s);
  EXPECT_STREQ(s.message(), ComputeStatus(cycle).message());
  EXPECT_NE(std::strstr(s.message(), "control-flow cycle: subgraph 2 operator 0 (IF)"), nullptr);

  // IF chains where each subgraph calls the next twice: 2^n walks.
  auto chain = [](int n, TOptions options, int32_t code) {
    TModel t;
    t.opcodes = {testing::Builtin(code)};
    for (int i = 0; i < n; ++i) {
      TSubgraph g;
      g.tensors = {Int32()};
      if (i + 1 < n) g.ops = {TOp{0, {0}, {}, {}, options, i + 1, i + 1}};
      t.subgraphs.push_back(g);
    }
    return t;
  };
  Steps(chain(40, TOptions::kIf, kBuiltinIf), &s);
  EXPECT_NE(std::strstr(s.message(), "exceeds 16777216 steps"), nullptr) << s.message();
  Steps(chain(70, TOptions::kCallOnce, kBuiltinCallOnce), &s);
  EXPECT_NE(std::strstr(s.message(), "control flow nests deeper than 64 subgraphs"), nullptr)
      << s.message();
  // Subgraph i < 11 is walked 2^i times; its operator takes 3 steps a walk.
  EXPECT_EQ(Steps(chain(12, TOptions::kIf, kBuiltinIf)).size(), 3u * 2047u);
}

}  // namespace
}  // namespace lifetimes_test
}  // namespace model
}  // namespace tflm_arena
