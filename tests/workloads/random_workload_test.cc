// The `random` workload on the ISA simulator: legal for every seed tried on both
// configurations, inside its DRAM region, reproducible by seed, and in the list.
#include "workloads/random_workload.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "sim/isa/isa_sim.h"
#include "workloads/list.h"
#include "workloads/traced_steps.h"

namespace otpu::workloads {
namespace {

StatusOr<trace::RunEvents> RunOnIsa(const WorkloadRun& run, SparseMemory* dram) {
  sim::IsaSim isa(run.config, dram);
  RETURN_IF_ERROR(isa.LoadProgram(run.program));
  sim::IsaRunOptions opts;
  opts.args = run.steps.at(0).args;
  return isa.Run(opts);
}

TEST(RandomWorkload, IsInTheList) {
  const std::vector<WorkloadInfo> list = ListWorkloads();
  EXPECT_TRUE(std::any_of(list.begin(), list.end(),
                          [](const WorkloadInfo& w) { return w.name == "random"; }));
}

TEST(RandomWorkload, RunsOnTheIsaSimulatorOnBothConfigs) {
  for (const isa::Config& cfg : {isa::Config::Sim(), isa::Config::Board()}) {
    for (uint64_t seed = 0; seed < 40; ++seed) {
      StatusOr<WorkloadRun> run = MakeRandomWorkload(cfg, seed);
      ASSERT_TRUE(run.ok()) << run.status().message();
      SparseMemory dram = run->image;
      StatusOr<trace::RunEvents> ev = RunOnIsa(*run, &dram);
      ASSERT_TRUE(ev.ok()) << cfg.name << " seed " << seed << ": " << ev.status().message()
                           << "\n" << Listing(run->program.code);
      EXPECT_TRUE(run->check(dram).ok());
    }
  }
}

// The host keeps DRAM below kImageBase for the program: the program's writes stay in its
// outputs, so everything else is the image's.
TEST(RandomWorkload, WritesOnlyItsOutputRegion) {
  for (uint64_t seed = 0; seed < 20; ++seed) {
    StatusOr<WorkloadRun> run = MakeRandomWorkload(isa::Config::Sim(), seed);
    ASSERT_TRUE(run.ok());
    ASSERT_EQ(run->outputs.size(), 1u);
    EXPECT_EQ(run->outputs[0].addr, kImageBase);
    SparseMemory dram = run->image;
    ASSERT_TRUE(RunOnIsa(*run, &dram).ok());
    for (const auto& [page, bytes] : dram.pages()) {
      const uint64_t lo = page * SparseMemory::kPageBytes;
      EXPECT_GE(lo + SparseMemory::kPageBytes, kImageBase) << "seed " << seed;
      EXPECT_LE(lo, kImageBase + run->outputs[0].bytes) << "seed " << seed;
    }
  }
}

TEST(RandomWorkload, SeedPicksTheProgramAndData) {
  const isa::Config cfg = isa::Config::Sim();
  StatusOr<WorkloadRun> a = MakeRandomWorkload(cfg, 5), b = MakeRandomWorkload(cfg, 5),
                        c = MakeRandomWorkload(cfg, 6);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->program.code, b->program.code);
  EXPECT_TRUE(a->image.SameBytes(b->image));
  EXPECT_NE(a->program.code, c->program.code);
  EXPECT_FALSE(a->image.SameBytes(c->image));
}

TEST(RandomWorkload, TraceRequestCarriesTheSeed) {
  TraceRequest req;
  req.seed = 6;
  StatusOr<WorkloadRun> run = MakeTracedWorkload("random", isa::Config::Board(), req);
  ASSERT_TRUE(run.ok()) << run.status().message();
  StatusOr<WorkloadRun> direct = MakeRandomWorkload(isa::Config::Board(), 6);
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(run->program.code, direct->program.code);
  ASSERT_EQ(run->steps.size(), 1u);
  EXPECT_TRUE(run->steps[0].traced);
}

// Over many seeds the programs hold every unit kind, loops, every weight format and every
// broadcast mode (what the regression's random cells are for).
TEST(RandomWorkload, SeedsCoverKindsFormatsAndModes) {
  std::set<int> ops, wfs, bmodes;
  for (uint64_t seed = 0; seed < 16; ++seed) {
    StatusOr<WorkloadRun> run = MakeRandomWorkload(isa::Config::Sim(), seed);
    ASSERT_TRUE(run.ok());
    for (const isa::Instr& in : run->program.code) {
      ops.insert(in.opcode());
      if (in.opcode() == int(isa::Opcode::kMM)) wfs.insert(int(in.w[0] >> 26 & 3));
      if (in.opcode() == int(isa::Opcode::kVOP)) bmodes.insert(int(in.w[0] >> 24 & 3));
    }
  }
  for (isa::Opcode op : {isa::Opcode::kLD, isa::Opcode::kST, isa::Opcode::kMM, isa::Opcode::kQACT,
                         isa::Opcode::kQST, isa::Opcode::kVOP, isa::Opcode::kLOOP}) {
    EXPECT_TRUE(ops.count(int(op))) << isa::OpcodeName(op);
  }
  EXPECT_EQ(wfs.size(), 3u);
  EXPECT_EQ(bmodes.size(), 4u);
}

}  // namespace
}  // namespace otpu::workloads
