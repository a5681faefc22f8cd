#include "workloads/list.h"

#include <gtest/gtest.h>

#include "workloads/kernels/test_util.h"

namespace otpu::workloads {
namespace {

TEST(ListWorkloads, NamesTheSpecWorkloadsInOrder) {
  std::vector<std::string> names;
  for (const WorkloadInfo& w : ListWorkloads()) {
    names.push_back(w.name);
    EXPECT_FALSE(w.description.empty()) << w.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"mlp-small", "mlp", "mlp8", "attn", "attn-qwen",
                                             "layer", "qwen-tiny", "qwen"}));
}

TEST(MakeWorkload, UnknownNameIsNotFoundAndListsTheValidNames) {
  auto run = MakeWorkload("mlp-huge", isa::Config::Sim());
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kNotFound);
  EXPECT_NE(run.status().message().find("'mlp-huge'"), std::string::npos);
  EXPECT_NE(run.status().message().find("mlp-small, mlp, mlp8, attn, attn-qwen, layer"),
            std::string::npos)
      << run.status().message();
}

TEST(MakeWorkload, QwenWorkloadsAreNotBuiltYet) {
  for (const char* name : {"qwen-tiny", "qwen"}) {
    auto run = MakeWorkload(name, isa::Config::Sim());
    ASSERT_FALSE(run.ok());
    EXPECT_EQ(run.status().code(), StatusCode::kNotFound);
    EXPECT_EQ(run.status().message(),
              std::string("workload ") + name + ": the Qwen3 engine is not built yet");
  }
}

TEST(MakeWorkload, ConfigThatCannotRunItNamesWorkloadAndConfig) {
  isa::Config cfg = isa::Config::Sim();
  cfg.name = "tiny";
  cfg.ACT_ROWS = 2;
  auto run = MakeWorkload("mlp-small", cfg);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("workload mlp-small on config tiny: mlp M=3"),
            std::string::npos)
      << run.status().message();
}

TEST(MakeWorkload, MlpSmallRunsAndPassesItsCheck) {
  auto run = MakeWorkload("mlp-small", isa::Config::Sim());
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->steps.size(), 1u);
  EXPECT_TRUE(run->steps[0].traced);
  auto report = kernels::RunWorkload(*run);
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_TRUE(report->ok()) << report->detail;
  EXPECT_NE(report->detail.find("y - x 3x128 rel_l2"), std::string::npos) << report->detail;
}

TEST(MakeWorkload, MlpSmallTakesAFourBitWeightFormat) {
  auto run = MakeWorkload("mlp-small", isa::Config::Sim(), {.wf = isa::WFormat::kFP4});
  ASSERT_TRUE(run.ok()) << run.status().message();
  auto report = kernels::RunWorkload(*run);
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_TRUE(report->ok()) << report->detail;
  EXPECT_GT(report->bound, 0.1);  // the 4-bit bound, not int8's
}

TEST(MakeWorkload, LayerPositionPastTheCacheNamesTheOption) {
  auto run = MakeWorkload("layer", isa::Config::Sim(), {.pos = 1024});
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(run.status().message().find("--pos 1024 is past the layer's cache of 1024"),
            std::string::npos)
      << run.status().message();
}

TEST(MakeWorkload, CheckFailsOnAnUnrunImage) {
  auto run = MakeWorkload("mlp-small", isa::Config::Sim());
  ASSERT_TRUE(run.ok());
  CheckReport report = run->check(run->image);  // y was never written: all zeros
  EXPECT_FALSE(report.ok()) << report.detail;
}

}  // namespace
}  // namespace otpu::workloads
