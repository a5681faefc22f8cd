// Step selection: which steps --pos and --tokens trace, and the errors naming them.
#include "workloads/traced_steps.h"

#include <gtest/gtest.h>

namespace otpu::workloads {
namespace {

std::vector<int> Traced(const WorkloadRun& run) {
  std::vector<int> steps;
  for (size_t i = 0; i < run.steps.size(); ++i) {
    if (run.steps[i].traced) steps.push_back(int(i));
  }
  return steps;
}

TEST(MakeTracedWorkload, QwenTinyTracesTokensStepsFromItsDefaultPosition) {
  auto run = MakeTracedWorkload("qwen-tiny", isa::Config::Sim(), {.tokens = 2});
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->steps.size(), 5u);  // positions 0..4
  EXPECT_EQ(Traced(*run), (std::vector<int>{3, 4}));
}

TEST(MakeTracedWorkload, QwenTinyPosPicksTheFirstTracedPosition) {
  auto run = MakeTracedWorkload("qwen-tiny", isa::Config::Sim(), {.pos = 1, .tokens = 3});
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->steps.size(), 4u);
  EXPECT_EQ(Traced(*run), (std::vector<int>{1, 2, 3}));
}

TEST(MakeTracedWorkload, KernelTracesItsOneStep) {
  auto run = MakeTracedWorkload("mlp-small", isa::Config::Sim(), {});
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(Traced(*run), (std::vector<int>{0}));
}

TEST(MakeTracedWorkload, MoreStepsThanTheWorkloadHasNamesTheOptions) {
  auto run = MakeTracedWorkload("mlp-small", isa::Config::Sim(), {.tokens = 2});
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(run.status().message(), "--pos -1 --tokens 2: workload mlp-small has 1 step to trace");
  run = MakeTracedWorkload("mlp-small", isa::Config::Sim(), {.pos = 1});
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("--pos 1 --tokens 1"), std::string::npos);
}

TEST(MakeTracedWorkload, BadValuesAndNamesAreRefused) {
  EXPECT_EQ(MakeTracedWorkload("mlp-small", isa::Config::Sim(), {.tokens = 0}).status().message(),
            "--tokens 0: trace at least 1 step");
  EXPECT_EQ(MakeTracedWorkload("mlp-small", isa::Config::Sim(), {.pos = -2}).status().message(),
            "--pos -2: a position is at least 0");
  EXPECT_EQ(MakeTracedWorkload("nope", isa::Config::Sim(), {}).status().code(),
            StatusCode::kNotFound);
}

TEST(TraceSteps, MarksTheRangeAndRefusesStepsTheWorkloadLacks) {
  WorkloadRun run;
  run.steps.resize(3);
  run.steps[0].traced = true;
  EXPECT_TRUE(TraceSteps(&run, 1, 2));
  EXPECT_EQ(Traced(run), (std::vector<int>{1, 2}));
  EXPECT_FALSE(TraceSteps(&run, 2, 2));
  EXPECT_FALSE(TraceSteps(&run, -1, 1));
  EXPECT_EQ(Traced(run), (std::vector<int>{1, 2}));
}

}  // namespace
}  // namespace otpu::workloads
