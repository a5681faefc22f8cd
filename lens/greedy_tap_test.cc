// The greedy tap over the ISA simulator: the argmax of each traced step's logits.
#include "lens/greedy_tap.h"

#include <gtest/gtest.h>

#include "lens/recorder.h"
#include "workloads/models/checkpoint_run.h"
#include "workloads/models/model_source.h"

namespace otpu::lens {
namespace {

models::CheckpointRequest TinyRequest(std::vector<int> ids, int pos, int tokens) {
  models::CheckpointRequest req;
  req.model = models::kQwenTinyName;  // the generator's checkpoint, without a file
  req.ids = std::move(ids);
  req.pos = pos;
  req.tokens = tokens;
  return req;
}

// The tap's tokens are the argmaxes the workload's own check reports ("greedy GOT/REF").
TEST(GreedyTap, TakesTheArgmaxOfEachTracedStepsLogits) {
  StatusOr<workloads::WorkloadRun> run =
      models::MakeCheckpointRun(TinyRequest({1, 42}, -1, 2), isa::Config::Sim());
  ASSERT_TRUE(run.ok()) << run.status().message();
  IsaStepRunner isa;
  GreedyTap tap(&isa);
  StatusOr<Recording> rec = lens::Record(*run, tap);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  ASSERT_EQ(tap.tokens().size(), 2u);
  EXPECT_NE(rec->check.detail.find(" greedy " + std::to_string(tap.tokens()[1]) + "/"),
            std::string::npos)
      << rec->check.detail;
  EXPECT_EQ(GreedyLine(tap.tokens()), "greedy tokens: " + std::to_string(tap.tokens()[0]) +
                                          " " + std::to_string(tap.tokens()[1]));
}

TEST(GreedyTap, RefusesAWorkloadWithoutLogits) {
  workloads::WorkloadRun run;
  run.name = "nothing";
  IsaStepRunner isa;
  GreedyTap tap(&isa);
  Status loaded = tap.Load(run);
  EXPECT_EQ(loaded.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(loaded.message(), "nothing: no logits output to take the greedy token from");
}

}  // namespace
}  // namespace otpu::lens
