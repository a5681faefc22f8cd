// The functional-coverage model on hand-made programs (every bin a program hits, and none
// more), on hand-made core cycles (window full, stalls per unit), and the merge of cells.
#include "host/programs/regress/func_coverage.h"

#include <gtest/gtest.h>

#include <set>

namespace otpu::regress {
namespace {

using Bins = std::set<std::string>;

isa::Config Sim() { return isa::Config::Sim(); }  // D=32, LANES=8, MCOLS=8

isa::Instr Ld(uint32_t tmem, uint32_t dram, uint32_t n) {
  isa::DmaOp d;
  d.tmem = isa::At(tmem);
  d.dram = isa::At(dram);
  d.n = n;
  return isa::EncodeLd(d);
}

isa::Instr St(uint32_t tmem, uint32_t dram, uint32_t n) {
  isa::DmaOp d;
  d.tmem = isa::At(tmem);
  d.dram = isa::At(dram);
  d.n = n;
  return isa::EncodeSt(d);
}

TEST(FunctionalBins, NamesAreUniqueAndEveryGroupIsThere) {
  Bins names;
  std::set<std::string> groups;
  for (const CoverageBin& b : FunctionalBins()) {
    EXPECT_TRUE(names.insert(b.name).second) << b.name;
    EXPECT_EQ(b.name.rfind(b.group + "/", 0), 0u) << b.name;
    groups.insert(b.group);
  }
  // 7 sequencer/DMA opcodes, 12 MM, 4 QACT/QST, 10 VOP fns reading B x 5 + 4 that do not;
  // 24 shapes; 3 kinds x 3 spaces x 4 distances; the window; 5 stalls.
  EXPECT_EQ(names.size(), 7u + 12 + 4 + 54 + 24 + 36 + 1 + 5);
  EXPECT_EQ(groups, (std::set<std::string>{"op", "shape", "hazard", "window", "stall"}));
  // Illegal or meaningless combinations are not bins: COPY reads no B, so no BMODE.
  EXPECT_EQ(names.count("op/VOP.COPY"), 1u);
  EXPECT_EQ(names.count("op/VOP.COPY.ROW"), 0u);
  EXPECT_EQ(names.count("op/VOP.ADD.SCALAR"), 1u);
}

TEST(FunctionalCoverage, HandMadeRunHitsExactlyItsBins) {
  FunctionalCoverage cov(Sim());
  isa::VopOp add;  // TMEM[16..24) = TMEM[0..8) + TMEM[0] per row: reads what the LD wrote
  add.fn = isa::VopFn::kADD;
  add.bmode = isa::BMode::kROW;
  add.dst = isa::At(16);
  add.a = isa::At(0);
  add.b = isa::At(0);
  add.n = 8;
  cov.AddRun({Ld(0, 0x100000, 8),          // 32 bytes at an aligned address: one whole chunk
              isa::EncodeVop(add),
              St(16, 0x100004, 1)});        // one word, reads the VOP's output
  const Bins want = {
      "op/LD", "op/ST", "op/VOP.ADD.ROW",
      "shape/LD.whole_chunks", "shape/VOP.full_lanes",
      "shape/ST.n1", "shape/ST.last_chunk_partial",  // ends at byte 8 of its chunk
      "hazard/RAW.TMEM.d1",                          // LD -> VOP, VOP -> ST
      "hazard/WAR.DRAM.d2-3",                        // LD read 0x100000.., ST writes 0x100004
  };
  EXPECT_EQ(cov.hit(), want);
}

TEST(FunctionalCoverage, ShapesAtTheEdges) {
  FunctionalCoverage cov(Sim());
  isa::MmOp mm;  // m = 11 > MCOLS = 8: two passes, the last partial; the last ACT row and block
  mm.out = isa::At(0);
  mm.w = isa::At(0x200000);
  mm.n = 1;
  mm.k = 32;
  mm.m = 11;
  mm.out_stride = 4;
  mm.act_row = 5;
  mm.act_block = 127;
  mm.w_stride = 32;
  mm.unit = true;
  mm.wf = isa::WFormat::kFP4;
  mm.k = 64;
  mm.act_block = 126;
  isa::QstOp q;  // strided QST of one element a row
  q.src = isa::At(100);
  q.dst = isa::At(0x300000);
  q.scales = isa::At(0x300100);
  q.n = 1;
  q.perrow = true;
  q.elem_stride = 3;
  cov.AddRun({isa::EncodeMm(mm), Ld(7, 0x100000, 1), isa::EncodeQst(q)});
  for (const char* b : {"op/MM.fp4.UNIT", "shape/MM.passes", "shape/MM.last_pass_partial",
                        "shape/MM.last_act_row", "shape/MM.last_act_block", "shape/LD.n1",
                        "op/QST.PERROW", "shape/QST.n1", "shape/QST.strided"}) {
    EXPECT_EQ(cov.hit().count(b), 1u) << b;
  }
  // LD of one word at bank 7: a partial group ending in the last lane.
  EXPECT_EQ(cov.hit().count("shape/LD.last_lane"), 1u);
  EXPECT_EQ(cov.hit().count("shape/MM.m_full"), 0u);
  EXPECT_EQ(cov.hit().count("shape/MM.m1n1"), 0u);
  EXPECT_EQ(cov.hit().count("shape/QST.whole_chunks"), 0u);
}

TEST(FunctionalCoverage, HazardsBeyondTheWindowAreNotCounted) {
  FunctionalCoverage cov(Sim());
  std::vector<isa::Instr> run = {St(0, 0x100000, 4)};
  for (int i = 0; i < 4; ++i) run.push_back(Ld(1000 + 10 * i, 0x200000, 1));
  run.push_back(St(64, 0x100008, 1));  // WAW with the first ST, 5 apart
  for (int i = 0; i < 15; ++i) run.push_back(Ld(2000 + 10 * i, 0x200000, 1));
  run.push_back(Ld(3000, 0x100008, 1));  // RAW with the second ST, 16 apart: outside the window
  cov.AddRun(run);
  EXPECT_EQ(cov.hit().count("hazard/WAW.DRAM.d4-7"), 1u);
  for (const std::string& b : cov.hit()) {
    EXPECT_EQ(b.find("hazard/RAW.DRAM"), std::string::npos) << b;
    EXPECT_EQ(b.find("hazard/WAW.TMEM"), std::string::npos) << b;
  }
}

TEST(FunctionalCoverage, SequencerOpcodesComeFromTheProgram) {
  FunctionalCoverage cov(Sim());
  isa::Program p;
  p.code = {isa::EncodeLi({1, 5}), isa::EncodeLoop({isa::At(1, 0), 1}), isa::EncodeNop(),
            isa::EncodeHalt()};
  cov.AddProgram(p);
  EXPECT_EQ(cov.hit(), (Bins{"op/LI", "op/LOOP", "op/NOP", "op/HALT"}));
}

rtl::CoreCycle Cycle(int64_t t) {
  rtl::CoreCycle c;
  c.cycle = t;
  return c;
}

TEST(CoverageHook, WindowFullNeedsEverySlot) {
  FunctionalCoverage cov(Sim());
  CoverageHook hook(Sim(), &cov);
  hook.OnRunStart();
  int64_t t = 0;
  for (int s = 0; s < 15; ++s) {
    rtl::CoreCycle c = Cycle(t++);
    c.any = true;
    c.dispatch = {true, s, 0, Ld(0, 0, 1)};
    hook.OnClock(c);
  }
  rtl::CoreCycle end = Cycle(t++);  // slot 3 ends: 14 occupied
  end.any = true;
  end.end[0] = {true, 3, {}};
  hook.OnClock(end);
  rtl::CoreCycle d = Cycle(t++);
  d.any = true;
  d.dispatch = {true, 15, 0, Ld(0, 0, 1)};
  hook.OnClock(d);
  EXPECT_TRUE(cov.hit().empty());
  d.dispatch.slot = 3;
  hook.OnClock(d);
  EXPECT_EQ(cov.hit(), Bins{"window/full"});
}

TEST(CoverageHook, StallCountsOnlyWhenOneUnitUsesThePort) {
  FunctionalCoverage cov(Sim());
  CoverageHook hook(Sim(), &cov);
  hook.OnRunStart();
  isa::MmOp mm;
  mm.n = 1;
  mm.k = 32;
  rtl::CoreCycle c = Cycle(0);
  c.any = true;
  c.dispatch = {true, 0, 0, Ld(0, 0, 1)};
  hook.OnClock(c);
  c = Cycle(1);
  c.any = true;
  c.dispatch = {true, 1, 1, isa::EncodeMm(mm)};  // scales: not UNIT
  c.start[0] = {true, 0, 0};
  c.start[1] = {true, 1, 0};
  hook.OnClock(c);
  c = Cycle(2);  // LD and MM both stream on port B: whose stall is it? Neither bin.
  c.activity.bits = 1ull << 19 | 1ull << 18;  // b_wait, a_wait
  hook.OnClock(c);
  EXPECT_EQ(cov.hit(), Bins{"stall/MXU.scales"});  // port A: only the MM
  c = Cycle(3);
  c.any = true;
  c.end[1] = {true, 1, {}};
  hook.OnClock(c);
  c = Cycle(4);
  c.activity.bits = 1ull << 19;
  hook.OnClock(c);
  EXPECT_EQ(cov.hit(), (Bins{"stall/MXU.scales", "stall/DMA.LD"}));
}

CellResult WithBins(const std::string& id, std::vector<std::string> bins) {
  CellResult r;
  r.id = id;
  r.has_coverage = true;
  r.coverage = std::move(bins);
  return r;
}

TEST(MergeCoverage, CountsCellsFirstCellAndNeverHit) {
  CellResult error = ErrorResult("c", 2, "crashed");
  const CoverageSummary s =
      MergeCoverage({WithBins("a", {"op/LD", "window/full"}), WithBins("b", {"op/LD", "op/ST"}),
                     error});
  EXPECT_EQ(s.cells, 2);
  EXPECT_EQ(s.hit(), 3);
  EXPECT_EQ(s.rows.size(), FunctionalBins().size());
  for (const CoverageSummary::Row& r : s.rows) {
    if (r.bin->name == "op/LD") {
      EXPECT_EQ(r.cells, 2);
      EXPECT_EQ(r.first_cell, "a");
    }
    if (r.bin->name == "op/ST") {
      EXPECT_EQ(r.first_cell, "b");
    }
  }
  EXPECT_NEAR(s.percent(), 300.0 / double(FunctionalBins().size()), 1e-9);
  const std::string json = CoverageJson(s);
  EXPECT_NE(json.find("\"hit\": 3"), std::string::npos) << json.substr(0, 300);
  EXPECT_NE(json.find("\"never_hit\": [\n  \"op/NOP\""), std::string::npos);
  const std::string md = CoverageMarkdown(s);
  EXPECT_NE(md.find("3 of 143 bins hit"), std::string::npos) << md.substr(0, 200);
  EXPECT_NE(md.find("- `op/HALT`"), std::string::npos);
  EXPECT_EQ(md.find("- `op/LD`"), std::string::npos);
}

TEST(MergeCoverage, RoundTripsThroughTheCellResult) {
  CellResult r = WithBins("x/sim/ideal/sim/s0", {"op/LD", "hazard/RAW.TMEM.d1"});
  r.verdicts = ErrorResult("x", 0, "y").verdicts;
  StatusOr<CellResult> back = ParseCellResult(CellResultJson(r), "cell.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(back->has_coverage);
  EXPECT_EQ(back->coverage, r.coverage);
  r.has_coverage = false;
  StatusOr<CellResult> bad = ParseCellResult(
      CellResultJson(r).insert(1, "\"coverage\": 3,"), "cell.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("coverage: expected an array"), std::string::npos);
}

}  // namespace
}  // namespace otpu::regress
