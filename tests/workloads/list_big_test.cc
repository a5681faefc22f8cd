// Runs every workload of the list at its list size on the ISA simulator and checks it
// against its float64 reference (the sizes `lens record` uses; a few seconds each).
#include <gtest/gtest.h>

#include <chrono>

#include "tests/workloads/kernel_test_util.h"
#include "workloads/list.h"

namespace otpu::workloads {
namespace {

// The check of `run` on its image with only `run.outputs` taken from `done` (what a board's
// runner reads back from the card).
CheckReport CheckOutputsOnly(const WorkloadRun& run, const SparseMemory& done) {
  SparseMemory readback = run.image;
  for (const DramRange& r : run.outputs) {
    const std::vector<uint8_t> bytes = done.ReadBytes(r.addr, r.bytes);
    readback.Write(r.addr, bytes.data(), bytes.size());
  }
  return run.check(readback);
}

// Builds and runs `name`, printing how long each part took, and checks it; the check must
// read only the workload's `outputs`.
void RunAndCheck(const std::string& name, const isa::Config& cfg, const WorkloadOptions& opts) {
  auto t0 = std::chrono::steady_clock::now();
  auto run = MakeWorkload(name, cfg, opts);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_LE(run->program.size(), run->config.IMEM_WORDS);
  auto t1 = std::chrono::steady_clock::now();
  SparseMemory done(1);
  auto report = kernels::RunWorkload(*run, &done);
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(CheckOutputsOnly(*run, done).detail, report->detail) << name;
  auto t2 = std::chrono::steady_clock::now();
  std::printf("[ measure  ] %s on %s: %zu instructions, build %.2f s, run %.2f s, %s\n",
              name.c_str(), cfg.name.c_str(), run->program.size(),
              std::chrono::duration<double>(t1 - t0).count(),
              std::chrono::duration<double>(t2 - t1).count(), report->detail.c_str());
  EXPECT_TRUE(report->ok()) << report->detail;
}

class ListSizes : public ::testing::TestWithParam<std::string> {};

TEST_P(ListSizes, RunsOnTheIsaSimulatorAndPassesItsCheck) {
  RunAndCheck(GetParam(), isa::Config::Sim(), {});
}

TEST_P(ListSizes, RunsOnTheBoardConfiguration) {
  RunAndCheck(GetParam(), isa::Config::Board(), {});
}

TEST(ListOptions, LayerRunsAtAnEarlyPosition) {
  RunAndCheck("layer", isa::Config::Sim(), {.pos = 5});
}

TEST(ListOptions, MlpRunsWithInt4Weights) {
  RunAndCheck("mlp", isa::Config::Sim(), {.wf = isa::WFormat::kINT4});
}

INSTANTIATE_TEST_SUITE_P(List, ListSizes,
                         ::testing::Values("mlp-small", "mlp", "mlp8", "attn", "attn-qwen",
                                           "layer"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace otpu::workloads
