#include "lens/build_profile.h"

#include <gtest/gtest.h>

#include <numeric>

#include "sim/isa/isa_sim.h"
#include "workloads/isa/cost.h"
#include "workloads/isa/disasm.h"

namespace otpu::lens {
namespace {

using isa::At;

// A small kernel touching every unit: LD, QACT, MM, QST, VOP, ST.
isa::Program SmallKernel() {
  isa::ProgramBuilder b;
  isa::R r = b.Alloc();
  b.Li(r, 64);
  b.Comment("load the row");
  b.Ld({.tmem = At(r.n, 0), .dram = At(0x1000), .n = 64});
  b.Qact({.src = At(64), .k = 64});
  b.Mm({.out = At(256), .w = At(0x2000), .scales = At(0x8000), .n = 16, .k = 64, .w_stride = 64});
  b.Qst({.src = At(256), .dst = At(0x9000), .scales = At(0x9800), .n = 16, .perrow = true});
  b.Vop({.fn = isa::VopFn::kADD, .dst = At(512), .a = At(256), .b = At(64), .n = 16});
  b.St({.tmem = At(512), .dram = At(0xA000), .n = 16});
  return b.Finish();
}

class BuildProfileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    program = SmallKernel();
    sim::IsaSim sim(cfg, &dram);
    ASSERT_TRUE(sim.LoadProgram(program).ok());
    StatusOr<trace::RunEvents> r = sim.Run({});
    ASSERT_TRUE(r.ok()) << r.status().message();
    events = *r;
  }
  Profile Build(int bucket = kDefaultBucketCycles) {
    StatusOr<Profile> p = BuildProfile(ProfileKind::kIsa, "small", cfg, program, events, bucket);
    EXPECT_TRUE(p.ok()) << p.status().message();
    return p.ok() ? *p : Profile{};
  }
  // One MM event of `port_b` chunks over [start, end), for hand-made timelines.
  trace::InstrEvent Mm(int64_t start, int64_t end, int64_t port_b) {
    trace::InstrEvent e = events.instrs[2];
    e.start = start;
    e.end = end;
    e.port_b = port_b;
    e.port_a = 0;
    return e;
  }

  isa::Config cfg = isa::Config::Sim();
  SparseMemory dram{uint64_t{1} << 20};
  isa::Program program;
  trace::RunEvents events;
};

TEST_F(BuildProfileTest, RowsFollowTheEvents) {
  Profile p = Build();
  ASSERT_EQ(p.instrs.size(), events.instrs.size());
  const InstrRow& ld = p.instrs[0];
  EXPECT_EQ(ld.name, "LD");
  EXPECT_EQ(ld.detail, isa::InstrDetail(events.instrs[0].resolved, nullptr));
  EXPECT_NE(ld.detail.find("t64"), std::string::npos) << ld.detail;  // R1 + 0, resolved
  EXPECT_EQ(ld.pc, 1);
  EXPECT_EQ(ld.unit, int(isa::Unit::kDMA));
  EXPECT_EQ(ld.source, program.source[1]);
  EXPECT_EQ(p.instrs[4].name, "VOP.ADD");
  EXPECT_EQ(p.instrs[2].release, p.instrs[2].start);
  EXPECT_EQ(p.instrs[3].release, -1);
  EXPECT_EQ(p.instrs[5].end, events.instrs[5].end);
}

TEST_F(BuildProfileTest, ProgramTableHasEveryInstruction) {
  Profile p = Build();
  ASSERT_EQ(p.programs.size(), 1u);
  ASSERT_EQ(p.programs[0].size(), program.size());
  const ProgramRow& ld = p.programs[0][1];
  EXPECT_EQ(ld.name, "LD");
  EXPECT_EQ(ld.comment, "load the row");
  EXPECT_NE(ld.detail.find("+r1"), std::string::npos) << ld.detail;  // as written
  EXPECT_EQ(ld.words, program.code[1].w);
  EXPECT_EQ(ld.regs[0], 1);
  EXPECT_EQ(ld.opcode, int(isa::Opcode::kLD));
  EXPECT_EQ(p.programs[0].back().name, "HALT");
  ASSERT_EQ(p.sources.size(), program.sources.size());
  EXPECT_EQ(p.sources[size_t(ld.source)].file, "lens/build_profile_test.cc");
}

TEST_F(BuildProfileTest, PortsAreSplitByWhoMovedThem) {
  Profile p = Build();
  const Ports& ports = p.slices[0].ports;
  EXPECT_EQ(ports.bdma, events.instrs[0].port_b + events.instrs[5].port_b);
  EXPECT_EQ(ports.bmxu, events.instrs[2].port_b);
  EXPECT_EQ(ports.amxu, events.instrs[2].port_a);
  EXPECT_EQ(ports.aq, events.instrs[3].port_a);
  EXPECT_EQ(ports.c, events.cycles);
  EXPECT_GT(ports.bmxu * ports.amxu * ports.aq * ports.bdma, 0);
}

TEST_F(BuildProfileTest, RooflineIsTheBusierPort) {
  Profile p = Build();
  const Ports& ports = p.slices[0].ports;
  int64_t b = ports.bmxu + ports.bdma, a = ports.amxu + ports.aq;
  EXPECT_EQ(p.roofline.bound, std::max(a, b));
  EXPECT_DOUBLE_EQ(p.roofline.efficiency, double(std::max(a, b)) / double(p.cycles));
  EXPECT_EQ(p.roofline.per_slice[0].portb, b);
  EXPECT_EQ(p.roofline.per_slice[0].porta, a);
}

TEST_F(BuildProfileTest, TotalsComeFromTheCostModel) {
  Profile p = Build();
  isa::Cost mm = isa::CostOf(events.instrs[2].resolved, nullptr, cfg);
  EXPECT_EQ(p.macs, mm.macs);
  EXPECT_EQ(p.peak_macs, cfg.D * cfg.MCOLS);
  EXPECT_EQ(p.peak_bytes, cfg.D);
  EXPECT_EQ(p.config.D, cfg.D);
  EXPECT_EQ(p.clock_mhz, 100);
}

TEST_F(BuildProfileTest, BusyIsEachUnitsWorkBackToBack) {
  Profile p = Build();
  std::vector<int64_t> want(isa::kNumUnits, 0);
  for (const trace::InstrEvent& e : events.instrs) want[size_t(e.unit)] += e.work;
  EXPECT_EQ(p.slices[0].busy, want);
  EXPECT_EQ(p.slices[0].lose, std::vector<int64_t>(isa::kNumUnits, 0));
}

TEST_F(BuildProfileTest, OverlappingInstructionsAreBusyOnce) {
  events.instrs = {Mm(0, 100, 10), Mm(50, 120, 10), Mm(200, 210, 10)};
  events.cycles = 256;
  Profile p = Build();
  EXPECT_EQ(p.slices[0].busy[int(isa::Unit::kMXU)], 120 + 10);
}

TEST_F(BuildProfileTest, BucketsSpreadTransfersEvenly) {
  events.instrs = {Mm(0, 200, 100)};
  events.cycles = 200;
  Profile p = Build(64);
  const Buckets& b = p.slices[0].buckets;
  EXPECT_EQ(b.bm, (std::vector<int64_t>{32, 32, 32, 4}));
  EXPECT_EQ(b.mx, (std::vector<int64_t>{64, 64, 64, 8}));
  EXPECT_EQ(b.c, (std::vector<int64_t>{63, 127, 191, 199}));
  EXPECT_EQ(b.n, (std::vector<int64_t>{64, 64, 64, 8}));
}

TEST_F(BuildProfileTest, BucketTotalsMatchThePorts) {
  Profile p = Build(3);
  const Slice& s = p.slices[0];
  auto sum = [](const std::vector<int64_t>& v) {
    return std::accumulate(v.begin(), v.end(), int64_t{0});
  };
  EXPECT_EQ(sum(s.buckets.bm), s.ports.bmxu);
  EXPECT_EQ(sum(s.buckets.bd), s.ports.bdma);
  EXPECT_EQ(sum(s.buckets.am), s.ports.amxu);
  EXPECT_EQ(sum(s.buckets.aq), s.ports.aq);
  EXPECT_EQ(sum(s.buckets.n), p.cycles);
  EXPECT_EQ(sum(s.buckets.ld), s.busy[int(isa::Unit::kDMA)]);
  for (const auto& [name, column] : Buckets::Columns()) {
    EXPECT_EQ((s.buckets.*column).size(), s.buckets.size()) << name;
  }
}

TEST_F(BuildProfileTest, ZeroBucketIsRejected) {
  StatusOr<Profile> p = BuildProfile(ProfileKind::kIsa, "small", cfg, program, events, 0);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(), "bucket of 0 cycles: a counter window must be at least 1 cycle");
}

TEST_F(BuildProfileTest, VerdictComesFirstByRooflineShare) {
  events.instrs = {Mm(0, 100, 90)};
  events.cycles = 100;
  EXPECT_EQ(Build().notes[0].level, NoteLevel::kGood);
  events.cycles = 200;
  EXPECT_EQ(Build().notes[0].level, NoteLevel::kWarn);
  events.cycles = 1000;
  Note bad = Build().notes[0];
  EXPECT_EQ(bad.level, NoteLevel::kBad);
  EXPECT_EQ(bad.text,
            "runs at 9% of the DRAM roofline: 1000 cycles where port B needs 90 chunk transfers");
}

TEST_F(BuildProfileTest, BiggestConsumerIsNamedWithItsSourceLine) {
  events.instrs = {Mm(0, 10, 1), Mm(10, 100, 1)};
  events.instrs[1].pc = 2;  // the QACT line, for the test's sake
  events.cycles = 100;
  Profile p = Build();
  ASSERT_GE(p.notes.size(), 3u);
  const Source& src = p.sources[size_t(program.source[2])];
  EXPECT_EQ(p.notes[1].level, NoteLevel::kInfo);
  EXPECT_EQ(p.notes[1].text.rfind("pc 2 QACT", 0), 0u) << p.notes[1].text;
  EXPECT_NE(p.notes[1].text.find("90% of cycles (90 in 1 run)"), std::string::npos)
      << p.notes[1].text;
  EXPECT_NE(p.notes[1].text.find(src.file + ":" + std::to_string(src.line) + " b.Qact("),
            std::string::npos)
      << p.notes[1].text;
  EXPECT_EQ(p.notes[2].text.rfind("pc 3 MM", 0), 0u) << p.notes[2].text;
}

TEST_F(BuildProfileTest, OverlappedCyclesGoToTheOldestInstruction) {
  events.instrs = {Mm(0, 60, 1), Mm(10, 100, 1)};
  events.instrs[0].idx = 0;
  events.instrs[1].idx = 1;
  events.instrs[1].pc = 2;
  events.cycles = 100;
  Profile p = Build();
  EXPECT_NE(p.notes[1].text.find("pc 3 MM"), std::string::npos) << p.notes[1].text;
  EXPECT_NE(p.notes[1].text.find("(60 in 1 run)"), std::string::npos) << p.notes[1].text;
  EXPECT_NE(p.notes[2].text.find("(40 in 1 run)"), std::string::npos) << p.notes[2].text;
}

}  // namespace
}  // namespace otpu::lens
