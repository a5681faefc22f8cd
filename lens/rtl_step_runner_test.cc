// The RTL step runner (lens/rtl_step_runner.h) on the real Verilated core: the recorder's runs
// on the RTL leave the ISA simulator's DRAM bytes, with the ideal and the stalling memory, and
// its errors name what went wrong.
#include "lens/rtl_step_runner.h"

#include <gtest/gtest.h>

#include "workloads/list.h"

namespace otpu::lens {
namespace {

workloads::WorkloadRun Make(const std::string& name, workloads::WorkloadOptions wopts = {}) {
  StatusOr<workloads::WorkloadRun> run = workloads::MakeWorkload(name, rtl::BuiltConfig(), wopts);
  OTPU_CHECK(run.ok());
  return std::move(run).value();
}

rtl::DramOptions Stall(int percent) {
  rtl::DramOptions mem;
  mem.stall_percent = percent;
  mem.seed = 7;
  return mem;
}

TEST(RtlStepRunner, IdealAndStallingMemoriesLeaveTheIsaSimulatorsDram) {
  const workloads::WorkloadRun run = Make("mlp-small");
  IsaStepRunner isa;
  ASSERT_TRUE(Record(run, isa).ok());
  RtlStepRunner ideal(rtl::DramOptions{}, kDefaultBucketCycles);
  StatusOr<Recording> a = Record(run, ideal);
  ASSERT_TRUE(a.ok()) << a.status().message();
  RtlStepRunner stall(Stall(30), kDefaultBucketCycles);
  StatusOr<Recording> b = Record(run, stall);
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(ideal.dram().FirstDifference(isa.dram()), -1);
  EXPECT_EQ(stall.dram().FirstDifference(isa.dram()), -1);
  EXPECT_GT(b->profiles[0].cycles, a->profiles[0].cycles);
  EXPECT_EQ(a->profiles[0].config.MEM, "ideal");
  EXPECT_EQ(b->profiles[0].config.MEM, "stall 30");
}

TEST(RtlStepRunner, StepsWithHostWritesMatchTheIsaSimulator) {
  const workloads::WorkloadRun run = Make("qwen-tiny", {.pos = 1});
  ASSERT_GT(run.steps.size(), 1u);
  IsaStepRunner isa;
  ASSERT_TRUE(Record(run, isa).ok());
  RtlStepRunner rtl(rtl::DramOptions{}, kDefaultBucketCycles);
  StatusOr<Recording> rec = Record(run, rtl);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  EXPECT_EQ(rtl.dram().FirstDifference(isa.dram()), -1);
  ASSERT_EQ(rec->profiles.size(), 1u);
  EXPECT_EQ(rec->profiles[0].kind, ProfileKind::kRtl);
}

TEST(RtlStepRunner, BucketSetsTheCoresCounterWindow) {
  RtlStepRunner rtl(rtl::DramOptions{}, 100);
  StatusOr<Recording> rec = Record(Make("mlp-small"), rtl, {.bucket_cycles = 100});
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  EXPECT_EQ(rec->profiles[0].config.WIN, 100);
  EXPECT_EQ(rec->profiles[0].slices[0].buckets.c[0], 99);
}

TEST(RtlStepRunner, BucketOtherThanTheCoresWindowIsRefused) {
  RtlStepRunner rtl(rtl::DramOptions{}, 64);
  StatusOr<Recording> rec = Record(Make("mlp-small"), rtl, {.bucket_cycles = 32});
  ASSERT_FALSE(rec.ok());
  EXPECT_NE(rec.status().message().find("bucket of 32 cycles, but the core counted windows of 64"),
            std::string::npos)
      << rec.status().message();
}

TEST(RtlStepRunner, WriteAndRunBeforeLoadAreInternalErrors) {
  RtlStepRunner rtl(rtl::DramOptions{}, 64);
  Status w = rtl.WriteDram(0, {1});
  EXPECT_EQ(w.code(), StatusCode::kInternal);
  EXPECT_NE(w.message().find("WriteDram before Load"), std::string::npos) << w.message();
  StatusOr<sim::RunEvents> r = rtl.Run({});
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
  EXPECT_NE(r.status().message().find("Run before Load"), std::string::npos);
}

TEST(RtlStepRunner, WriteOutsideDramNamesTheAddress) {
  const workloads::WorkloadRun run = Make("mlp-small");
  RtlStepRunner rtl(rtl::DramOptions{}, 64);
  ASSERT_TRUE(rtl.Load(run).ok());
  Status w = rtl.WriteDram(run.config.DRAM_BYTES - 1, {1, 2});
  EXPECT_EQ(w.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(w.message().find("step write of 2 bytes at DRAM 0x3fffffff is outside DRAM"),
            std::string::npos)
      << w.message();
}

TEST(RtlStepRunner, CoreErrorNamesTheStopThePcAndTheMemory) {
  workloads::WorkloadRun run = Make("mlp-small");
  run.program = isa::Program{};
  run.program.code = {isa::EncodeNop()};  // runs past the end: the core's ERROR at pc 1
  run.check = nullptr;
  RtlStepRunner rtl(Stall(5), 64);
  StatusOr<Recording> rec = Record(run, rtl);
  ASSERT_FALSE(rec.ok());
  const std::string& m = rec.status().message();
  EXPECT_EQ(rec.status().code(), StatusCode::kInternal);
  for (const char* want : {"mlp-small", "RTL run (stall 5 memory)", "by error", "pc 1"})
    EXPECT_NE(m.find(want), std::string::npos) << want << " in " << m;
}

TEST(RtlStepRunner, ConfigurationOtherThanTheBuiltOneIsRefused) {
  workloads::WorkloadRun run = Make("mlp-small");
  run.config.D *= 2;
  RtlStepRunner rtl(rtl::DramOptions{}, 64);
  Status s = rtl.Load(run);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.message();
}

}  // namespace
}  // namespace otpu::lens
