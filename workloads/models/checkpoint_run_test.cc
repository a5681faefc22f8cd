// The card recording's workload: prompt ids, the traced positions, its errors.
#include "workloads/models/checkpoint_run.h"

#include <gtest/gtest.h>

#include "workloads/models/model_source.h"

namespace otpu::models {
namespace {

TEST(ParsePromptIds, ReadsCommaSeparatedIds) {
  StatusOr<std::vector<int>> ids = ParsePromptIds("1,42,7");
  ASSERT_TRUE(ids.ok()) << ids.status().message();
  EXPECT_EQ(*ids, (std::vector<int>{1, 42, 7}));
}

TEST(ParsePromptIds, RefusesWhatIsNotAnId) {
  for (const char* bad : {"", "1,", ",1", "1,,2", "a", "1,-2", "1.5", "99999999999", "1 2"}) {
    StatusOr<std::vector<int>> ids = ParsePromptIds(bad);
    ASSERT_FALSE(ids.ok()) << bad;
    EXPECT_EQ(ids.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(ids.status().message().rfind(std::string("--prompt-ids ") + bad + ": '", 0), 0u)
        << ids.status().message();
  }
}

CheckpointRequest TinyRequest(std::vector<int> ids, int pos, int tokens) {
  CheckpointRequest req;
  req.model = kQwenTinyName;  // the generator's checkpoint, without a file
  req.ids = std::move(ids);
  req.pos = pos;
  req.tokens = tokens;
  return req;
}

std::vector<bool> Traced(const workloads::WorkloadRun& run) {
  std::vector<bool> traced;
  for (const workloads::Step& s : run.steps) traced.push_back(s.traced);
  return traced;
}

TEST(MakeCheckpointRun, TracesFromTheLastPromptTokenByDefault) {
  StatusOr<workloads::WorkloadRun> run =
      MakeCheckpointRun(TinyRequest({1, 42, 318}, -1, 2), isa::Config::Sim());
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->name, "qwen-tiny");
  EXPECT_EQ(Traced(*run), (std::vector<bool>{false, false, true, true}));
}

TEST(MakeCheckpointRun, TracesFromPos) {
  StatusOr<workloads::WorkloadRun> run =
      MakeCheckpointRun(TinyRequest({1, 42, 318}, 1, 1), isa::Config::Sim());
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(Traced(*run), (std::vector<bool>{false, true}));
}

TEST(MakeCheckpointRun, ErrorsNameTheOption) {
  StatusOr<workloads::WorkloadRun> run =
      MakeCheckpointRun(TinyRequest({1, 1000}, -1, 1), isa::Config::Sim());
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().message(), "--prompt-ids: token 1000 is past the vocabulary of 1000");

  run = MakeCheckpointRun(TinyRequest({1}, -1, 0), isa::Config::Sim());
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().message(), "--tokens 0: trace at least 1 step");

  run = MakeCheckpointRun(TinyRequest({1}, 100000, 1), isa::Config::Sim());
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(run.status().message().find("--pos 100000"), std::string::npos)
      << run.status().message();

  CheckpointRequest missing = TinyRequest({1}, -1, 1);
  missing.model = "/nonexistent/otpu-checkpoint";
  run = MakeCheckpointRun(missing, isa::Config::Sim());
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kNotFound);
  EXPECT_NE(run.status().message().find("/nonexistent/otpu-checkpoint"), std::string::npos)
      << run.status().message();
}

}  // namespace
}  // namespace otpu::models
