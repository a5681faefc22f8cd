#include "lens/recorder.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "workloads/list.h"

namespace otpu::lens {
namespace {

using isa::At;

constexpr uint64_t kIn = 0x1000, kOut = 0x2000;
constexpr int kN = 8;

// A toy workload: each step writes 2·x to kOut + ARG0 bytes; the check wants both outputs.
class RecorderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    run.name = "toy";
    run.image = SparseMemory(run.config.DRAM_BYTES);
    for (int i = 0; i < kN; ++i)
      run.image.Write32(kIn + 4 * i, std::bit_cast<uint32_t>(float(i + 1)));
    isa::ProgramBuilder b;
    b.Ld({.tmem = At(0), .dram = At(kIn), .n = kN});
    b.Vop({.fn = isa::VopFn::kADD, .dst = At(16), .a = At(0), .b = At(0), .n = kN});
    b.St({.tmem = At(16), .dram = At(isa::Arg(0).n, kOut), .n = kN});
    run.program = b.Finish();
    run.steps = {{.args = {0}, .traced = false}, {.args = {64}, .traced = true}};
    run.check = [](const SparseMemory& dram) {
      double err = 0, ref = 0;
      for (uint64_t base : {kOut, kOut + 64}) {
        for (int i = 0; i < kN; ++i) {
          double got = std::bit_cast<float>(dram.Read32(base + 4 * i)), want = 2.0 * (i + 1);
          err += (got - want) * (got - want);
          ref += want * want;
        }
      }
      return workloads::CheckReport{std::sqrt(err / ref), 1e-6, ""};
    };
  }

  workloads::WorkloadRun run;
  IsaStepRunner runner;
};

TEST_F(RecorderTest, TracedStepBecomesAProfileNamedAfterTheWorkload) {
  StatusOr<Recording> rec = Record(run, runner);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  ASSERT_EQ(rec->profiles.size(), 1u);
  const Profile& p = rec->profiles[0];
  EXPECT_EQ(p.name, "toy");
  EXPECT_EQ(p.kind, ProfileKind::kIsa);
  ASSERT_EQ(p.instrs.size(), 3u);
  EXPECT_NE(p.instrs[2].detail.find("d0x2040"), std::string::npos) << p.instrs[2].detail;
}

TEST_F(RecorderTest, EveryStepRunsWithItsArgsBeforeTheCheck) {
  StatusOr<Recording> rec = Record(run, runner);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  EXPECT_EQ(rec->check.rel_l2, 0.0);
}

TEST_F(RecorderTest, BucketOptionSetsTheWindows) {
  StatusOr<Recording> rec = Record(run, runner, {.bucket_cycles = 1});
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  EXPECT_EQ(int64_t(rec->profiles[0].slices[0].buckets.size()), rec->profiles[0].cycles);
}

TEST_F(RecorderTest, SeveralTracedStepsCarryTheirStepNumbers) {
  run.steps[0].traced = true;
  StatusOr<Recording> rec = Record(run, runner);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  ASSERT_EQ(rec->profiles.size(), 2u);
  EXPECT_EQ(rec->profiles[0].name, "toy step 0");
  EXPECT_EQ(rec->profiles[1].name, "toy step 1");
}

TEST_F(RecorderTest, FailedCheckNamesTheWorkloadAndTheNumbers) {
  run.steps.pop_back();  // the second output is never written
  StatusOr<Recording> rec = Record(run, runner);
  ASSERT_FALSE(rec.ok());
  EXPECT_EQ(rec.status().message(), "toy: check failed: rel_l2 0.707 (bound 1e-06)");
}

TEST_F(RecorderTest, IllegalInstructionNamesTheWorkloadAndStep) {
  run.program.code[0].w[4] = 0;  // LD of 0 words
  StatusOr<Recording> rec = Record(run, runner);
  ASSERT_FALSE(rec.ok());
  EXPECT_EQ(rec.status().message().rfind("toy step 0: pc 0 (LD): ", 0), 0u)
      << rec.status().message();
}

TEST_F(RecorderTest, ProgramLargerThanImemNamesTheWorkload) {
  run.config.IMEM_WORDS = 2;
  StatusOr<Recording> rec = Record(run, runner);
  ASSERT_FALSE(rec.ok());
  EXPECT_EQ(rec.status().message().rfind("toy: program of 4 instructions", 0), 0u)
      << rec.status().message();
}

TEST_F(RecorderTest, StepWritesReachDramBeforeTheirStep) {
  // The second step's input is written by the host between the runs: its output doubles it.
  std::vector<uint8_t> bytes(kN * 4);
  for (int i = 0; i < kN; ++i) {
    uint32_t v = std::bit_cast<uint32_t>(float(10 * (i + 1)));
    std::memcpy(bytes.data() + 4 * i, &v, 4);
  }
  run.steps[1].writes.push_back({kIn, bytes});
  StatusOr<Recording> rec = Record(run, runner);
  ASSERT_FALSE(rec.ok());  // the toy check wants 2·(i+1) at the second output
  EXPECT_EQ(std::bit_cast<float>(runner.dram().Read32(kOut + 64 + 4)), 40.0f);
  EXPECT_EQ(std::bit_cast<float>(runner.dram().Read32(kOut + 4)), 4.0f);
}

TEST_F(RecorderTest, StepWriteOutsideDramNamesTheStep) {
  run.steps[1].writes.push_back({run.config.DRAM_BYTES - 2, {1, 2, 3, 4}});
  StatusOr<Recording> rec = Record(run, runner);
  ASSERT_FALSE(rec.ok());
  EXPECT_EQ(rec.status().message(),
            "toy step 1: step write of 4 bytes at DRAM 0x3ffffffe is outside DRAM");
}

TEST(RecorderWorkload, MlpSmallRecordsAndPassesItsCheck) {
  StatusOr<workloads::WorkloadRun> run = workloads::MakeWorkload("mlp-small", isa::Config::Sim());
  ASSERT_TRUE(run.ok()) << run.status().message();
  IsaStepRunner runner;
  StatusOr<Recording> rec = Record(*run, runner);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  ASSERT_EQ(rec->profiles.size(), 1u);
  EXPECT_GT(rec->profiles[0].roofline.efficiency, 0.0);
  EXPECT_FALSE(rec->check.detail.empty());
}

}  // namespace
}  // namespace otpu::lens
