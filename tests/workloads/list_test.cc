#include "workloads/list.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "tests/workloads/kernel_test_util.h"
#include "workloads/models/tiny_checkpoint.h"

namespace otpu::workloads {
namespace {

TEST(ListWorkloads, NamesTheSpecWorkloadsInOrder) {
  std::vector<std::string> names;
  for (const WorkloadInfo& w : ListWorkloads()) {
    names.push_back(w.name);
    EXPECT_FALSE(w.description.empty()) << w.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"mlp-small", "mlp", "mlp8", "attn", "attn-qwen",
                                             "layer", "qwen-tiny", "qwen", "random",
                                             "random-illegal"}));
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

TEST(MakeWorkload, QwenTinyRunsPositionsBeforeTheTracedOneUntraced) {
  auto run = MakeWorkload("qwen-tiny", isa::Config::Sim());
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->steps.size(), 4u);  // positions 0..3, the default traced position 3
  for (size_t i = 0; i < run->steps.size(); ++i) {
    EXPECT_EQ(run->steps[i].traced, i == 3) << i;
    ASSERT_EQ(run->steps[i].writes.size(), 1u);  // the token's embedding row
    EXPECT_EQ(run->steps[i].writes[0].bytes.size(), 256u * 4);
  }
  EXPECT_NE(run->steps[1].args, run->steps[2].args);  // only the ARGs and the row change
}

TEST(MakeWorkload, QwenTinyPosSelectsTheTracedPosition) {
  auto run = MakeWorkload("qwen-tiny", isa::Config::Sim(), {.pos = 8});
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->steps.size(), 9u);
  EXPECT_TRUE(run->steps[8].traced);
  EXPECT_FALSE(run->steps[7].traced);
}

TEST(MakeWorkload, QwenTinyRunsAndPassesItsCheck) {
  auto run = MakeWorkload("qwen-tiny", isa::Config::Sim(), {.pos = 5});
  ASSERT_TRUE(run.ok()) << run.status().message();
  auto report = kernels::RunWorkload(*run);
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_TRUE(report->ok()) << report->detail;
  EXPECT_NE(report->detail.find("logits 1x1000 at pos 5"), std::string::npos) << report->detail;
}

TEST(MakeWorkload, QwenTinyPositionPastTheCacheNamesTheOption) {
  auto run = MakeWorkload("qwen-tiny", isa::Config::Sim(), {.pos = 1024});
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(run.status().message().find("--pos 1024 is past qwen-tiny's KV cache of 1024"),
            std::string::npos)
      << run.status().message();
}

TEST(MakeWorkload, QwenWithoutACheckpointSaysWhereToPutOne) {
  auto run = MakeWorkload("qwen", isa::Config::Sim());
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kNotFound);
  EXPECT_NE(run.status().message().find("models/Qwen3-0.6B: no such checkpoint directory"),
            std::string::npos)
      << run.status().message();
}

// qwen through the real loading path: a tiny checkpoint (config, safetensors, tokenizer) in
// the working directory's models/Qwen3-0.6B.
TEST(MakeWorkload, QwenRunsTheChatPromptOfTheCheckpointInModels) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "list_test.XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const std::filesystem::path dir = tmpl, cwd = std::filesystem::current_path();
  ASSERT_TRUE(models::WriteTinyCheckpoint((dir / "models/Qwen3-0.6B").string()).ok());
  std::filesystem::current_path(dir);
  auto run = MakeWorkload("qwen", isa::Config::Sim());
  std::filesystem::current_path(cwd);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_GT(run->steps.size(), 10u);  // the chat template around the default prompt
  EXPECT_TRUE(run->steps.back().traced);
  auto report = kernels::RunWorkload(*run);
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_TRUE(report->ok()) << report->detail;
}

TEST(TakesPosition, NamesTheDecodeWorkloads) {
  EXPECT_TRUE(TakesPosition("layer"));
  EXPECT_TRUE(TakesPosition("qwen-tiny"));
  EXPECT_TRUE(TakesPosition("qwen"));
  EXPECT_FALSE(TakesPosition("mlp-small"));
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

// A board's runner reads back only `outputs`: the image with those bytes from a finished run
// must check exactly as the whole finished DRAM does (list_big_test checks the other sizes).
TEST(MakeWorkload, OutputsHoldEverythingTheCheckReads) {
  for (const char* name : {"mlp-small", "qwen-tiny"}) {
    auto run = MakeWorkload(name, isa::Config::Sim());
    ASSERT_TRUE(run.ok()) << run.status().message();
    ASSERT_FALSE(run->outputs.empty()) << name;
    SparseMemory done(1);
    auto full = kernels::RunWorkload(*run, &done);
    ASSERT_TRUE(full.ok()) << full.status().message();
    SparseMemory readback = run->image;
    for (const DramRange& r : run->outputs) {
      const std::vector<uint8_t> bytes = done.ReadBytes(r.addr, r.bytes);
      readback.Write(r.addr, bytes.data(), bytes.size());
    }
    const CheckReport partial = run->check(readback);
    EXPECT_EQ(partial.rel_l2, full->rel_l2) << name;
    EXPECT_EQ(partial.detail, full->detail) << name;
  }
}

TEST(MakeWorkload, CheckFailsOnAnUnrunImage) {
  auto run = MakeWorkload("mlp-small", isa::Config::Sim());
  ASSERT_TRUE(run.ok());
  CheckReport report = run->check(run->image);  // y was never written: all zeros
  EXPECT_FALSE(report.ok()) << report.detail;
}

}  // namespace
}  // namespace otpu::workloads
