// The RTL step runner (lens/rtl_step_runner.h) on the real Verilated core: the recorder's runs
// on the RTL leave the ISA simulator's DRAM bytes, with the ideal and the stalling memory, and
// its errors name what went wrong; with untraced_on_isa, the steps before the traced one run
// on the ISA simulator and the RTL continues from its DRAM, TMEM and ACT RAM.
#include "lens/rtl_step_runner.h"

#include <gtest/gtest.h>

#include <bit>

#include "base/strings.h"
#include "workloads/list.h"

namespace otpu::lens {
namespace {

workloads::WorkloadRun Make(const std::string& name, workloads::WorkloadOptions wopts = {},
                            const isa::Config& cfg = rtl::BuiltConfig()) {
  StatusOr<workloads::WorkloadRun> run = workloads::MakeWorkload(name, cfg, wopts);
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

TEST(RtlStepRunner, UntracedStepsOnTheIsaSimulatorLeaveTheAllIsaDram) {
  const workloads::WorkloadRun run = Make("qwen-tiny", {.pos = 3});
  ASSERT_EQ(run.steps.size(), 4u);
  IsaStepRunner isa;
  ASSERT_TRUE(Record(run, isa).ok());
  RtlStepRunner mixed(rtl::DramOptions{}, kDefaultBucketCycles, /*untraced_on_isa=*/true);
  StatusOr<Recording> rec = Record(run, mixed);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  EXPECT_EQ(mixed.isa_steps(), 3);
  EXPECT_EQ(mixed.rtl_steps(), 1);
  EXPECT_EQ(mixed.dram().FirstDifference(isa.dram()), -1);
  ASSERT_EQ(rec->profiles.size(), 1u);
  EXPECT_EQ(rec->profiles[0].kind, ProfileKind::kRtl);
}

isa::DmaOp Rows(uint32_t tmem, int reg, uint32_t n) {
  isa::DmaOp d;
  d.tmem = isa::At(tmem);
  d.dram = isa::At(reg, 0);
  d.n = n;
  d.rows = 1;
  d.tmem_stride = n;
  d.dram_stride = 4 * n;
  return d;
}

TEST(RtlStepRunner, TmemLeftByTheIsaStepsIsWhatTheFirstRtlStepReads) {
  // Each step stores TMEM to ARG0, then loads ARG1 into TMEM: the RTL step's store shows the
  // words the ISA step loaded only if the hand-over moved TMEM.
  constexpr uint32_t kN = 24, kIn = 0x1000, kOut0 = 0x2000, kOut1 = 0x3000;
  workloads::WorkloadRun run;
  run.name = "tmem-carry";
  run.config = rtl::BuiltConfig();
  run.program.code = {isa::EncodeSt(Rows(5, 8, kN)), isa::EncodeLd(Rows(5, 9, kN)),
                      isa::EncodeHalt()};
  run.image = SparseMemory(run.config.DRAM_BYTES);
  for (uint32_t i = 0; i < kN; ++i) run.image.Write32(kIn + 4 * i, 0x40000000u + i);
  RtlStepRunner rtl(rtl::DramOptions{}, 64, /*untraced_on_isa=*/true);
  ASSERT_TRUE(rtl.Load(run).ok());
  ASSERT_TRUE(rtl.Run({.args = {kOut0, kIn}}).ok());
  StatusOr<trace::RunEvents> last = rtl.Run({.args = {kOut1, kIn}, .traced = true});
  ASSERT_TRUE(last.ok()) << last.status().message();
  EXPECT_EQ(rtl.isa_steps(), 1);
  EXPECT_EQ(rtl.rtl_steps(), 1);
  for (uint32_t i = 0; i < kN; ++i) {
    EXPECT_EQ(rtl.dram().Read32(kOut0 + 4 * i), 0u) << i;
    EXPECT_EQ(rtl.dram().Read32(kOut1 + 4 * i), 0x40000000u + i) << i;
  }
}

// Writes each step's host bytes, then runs it; every step must succeed.
void RunSteps(const workloads::WorkloadRun& run, StepRunner& r) {
  ASSERT_TRUE(r.Load(run).ok());
  for (const workloads::Step& step : run.steps) {
    for (const workloads::DramWrite& w : step.writes)
      ASSERT_TRUE(r.WriteDram(w.addr, w.bytes).ok());
    StatusOr<trace::RunEvents> ev = r.Run(step);
    ASSERT_TRUE(ev.ok()) << ev.status().message();
  }
}

TEST(RtlStepRunner, ActRamLeftByTheIsaStepsIsWhatTheFirstRtlStepMultiplies) {
  // Each step multiplies ACT RAM row 0 by W, stores the product to ARG0, then quantizes the
  // row at ARG1 into ACT RAM row 0: the RTL step's product is the ISA's only if the hand-over
  // moved ACT RAM.
  workloads::WorkloadRun run;
  run.name = "act-carry";
  run.config = rtl::BuiltConfig();
  const uint32_t d = uint32_t(run.config.D), kW = 0x10000, kScales = 0x20000, kIn = 0x1000;
  run.image = SparseMemory(run.config.DRAM_BYTES);
  for (uint32_t i = 0; i < 4 * d; ++i) run.image.Write8(kW + i, uint8_t(int8_t(i * 7 % 11) - 5));
  for (uint32_t i = 0; i < 4; ++i) run.image.Write32(kScales + 4 * i, 0x3F800000u);  // 1.0f
  for (uint32_t i = 0; i < d; ++i)
    run.image.Write32(kIn + 4 * i, std::bit_cast<uint32_t>(0.25f * float(int(i) - int(d) / 2)));
  isa::MmOp mm;
  mm.out = isa::At(0);
  mm.w = isa::At(kW);
  mm.scales = isa::At(kScales);
  mm.n = 4;
  mm.k = d;
  mm.w_stride = d;
  isa::QactOp q;
  q.src = isa::At(64);
  q.k = d;
  run.program.code = {isa::EncodeMm(mm), isa::EncodeSt(Rows(0, 8, 4)),
                      isa::EncodeLd(Rows(64, 9, d)), isa::EncodeQact(q), isa::EncodeHalt()};
  run.steps = {{.args = {0x3000, kIn}}, {.args = {0x4000, kIn}, .traced = true}};
  IsaStepRunner isa;
  RunSteps(run, isa);
  RtlStepRunner mixed(rtl::DramOptions{}, 64, /*untraced_on_isa=*/true);
  RunSteps(run, mixed);
  EXPECT_EQ(mixed.isa_steps(), 1);
  EXPECT_NE(isa.dram().Read32(0x4000), 0u);  // the product is not the empty ACT RAM's
  EXPECT_EQ(mixed.dram().FirstDifference(isa.dram()), -1);
}

TEST(RtlStepRunner, BucketSetsTheCoresCounterWindow) {
  RtlStepRunner rtl(rtl::DramOptions{}, 100);
  StatusOr<Recording> rec = Record(Make("mlp-small"), rtl, {.bucket_cycles = 100});
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  EXPECT_EQ(rec->profiles[0].slices[0].buckets.c[0], 99);
  // config.WIN stays the dispatch window's slots (SPEC 3.1), not the counter window.
  EXPECT_EQ(rec->profiles[0].config.WIN, 16);
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
  StatusOr<trace::RunEvents> r = rtl.Run({});
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
  EXPECT_NE(r.status().message().find("Run before Load"), std::string::npos);
}

// In every configuration: the board's DRAM is 4 GiB, so its last byte is 0xffffffff.
TEST(RtlStepRunner, WriteOutsideDramNamesTheAddress) {
  for (const isa::Config& cfg : rtl::BuiltConfigs()) {
    const workloads::WorkloadRun run = Make("mlp-small", {}, cfg);
    RtlStepRunner rtl(rtl::DramOptions{}, 64);
    ASSERT_TRUE(rtl.Load(run).ok()) << cfg.name;
    Status w = rtl.WriteDram(run.config.DRAM_BYTES - 1, {1, 2});
    EXPECT_EQ(w.code(), StatusCode::kInvalidArgument) << cfg.name;
    EXPECT_NE(w.message().find(StrFormat("step write of 2 bytes at DRAM 0x%llx is outside DRAM",
                                         (unsigned long long)(cfg.DRAM_BYTES - 1))),
              std::string::npos)
        << cfg.name << ": " << w.message();
  }
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

TEST(RtlStepRunner, ErrorOfAnUntracedIsaStepNamesTheSimulatorAndThePc) {
  workloads::WorkloadRun run = Make("mlp-small");
  run.program = isa::Program{};
  run.program.code = {isa::EncodeNop()};  // runs past the end at pc 1
  run.check = nullptr;
  run.steps = {{}, {.traced = true}};
  RtlStepRunner rtl(rtl::DramOptions{}, 64, /*untraced_on_isa=*/true);
  StatusOr<Recording> rec = Record(run, rtl);
  ASSERT_FALSE(rec.ok());
  const std::string& m = rec.status().message();
  for (const char* want : {"mlp-small step 0", "ISA simulator (untraced step)", "pc 1"})
    EXPECT_NE(m.find(want), std::string::npos) << want << " in " << m;
  EXPECT_EQ(rtl.rtl_steps(), 0);
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
