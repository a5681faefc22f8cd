// The dependency verdict on hand-made profiles: a pair ordered against the hazard rule fails
// naming both instructions; the orders the rule allows pass.
#include "host/programs/regress/dependency.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace otpu::regress {
namespace {

isa::Instr Ld(uint32_t tmem, uint32_t dram) {
  isa::DmaOp op;
  op.tmem = isa::At(tmem);
  op.dram = isa::At(dram);
  op.n = 8;
  return isa::EncodeLd(op);
}

isa::Instr St(uint32_t tmem, uint32_t dram) {
  isa::DmaOp op;
  op.tmem = isa::At(tmem);
  op.dram = isa::At(dram);
  op.n = 8;
  return isa::EncodeSt(op);
}

isa::Instr Mm(uint32_t out, uint32_t w) {
  isa::MmOp op;
  op.out = isa::At(out);
  op.w = isa::At(w);
  op.unit = true;
  op.n = 2;
  op.k = 32;
  op.w_stride = 32;
  return isa::EncodeMm(op);
}

// Instructions `ins` at pcs 10, 11, ... and an rtl profile of them with the given
// (start, release, end) cycles; the first comes from kernel line mlp.cc:42.
struct Case {
  std::vector<DispatchedInstr> isa;
  lens::Profile profile;
  Case(const std::vector<isa::Instr>& ins, const std::vector<std::array<int64_t, 3>>& times,
       const std::vector<std::string>& names) {
    profile.kind = lens::ProfileKind::kRtl;
    profile.sources.push_back({"workloads/kernels/mlp.cc", 42, "Mlp", "ld(x)"});
    for (size_t i = 0; i < ins.size(); ++i) {
      isa.push_back({int64_t(i), uint32_t(10 + i), ins[i]});
      lens::InstrRow r;
      r.idx = int64_t(i);
      r.pc = int64_t(10 + i);
      r.name = names[i];
      r.source = i == 0 ? 0 : -1;
      r.dispatch = int64_t(i);
      r.start = times[i][0];
      r.release = times[i][1];
      r.end = times[i][2];
      profile.instrs.push_back(r);
    }
  }
  Verdict Judge() const { return Dependency(isa::Config::Sim(), isa, {&profile}); }
};

TEST(DependencyVerdict, AReadStartedBeforeItsWriterEndedFailsNamingBoth) {
  // The LD writes TMEM 0x100..0x108 and ends at 30 (its last cycle is 29); the ST reads 0x104..
  // and starts at 29.
  const Case c({Ld(0x100, 0x4000), St(0x104, 0x8000)}, {{{1, -1, 30}}, {{29, -1, 40}}}, {"LD", "ST"});
  const Verdict v = c.Judge();
  EXPECT_EQ(v.name, "dependency");
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(v.message,
            "rtl: pc 11 ST (#1, start 29, end 40) started before pc 10 LD at "
            "workloads/kernels/mlp.cc:42 (#0, start 1, end 30) ended (RAW on TMEM [0x100, 0x108) "
            "/ [0x104, 0x10c))");
}

TEST(DependencyVerdict, StartingInTheOldersEndCyclePasses) {
  // `end` is the first cycle after the older's last: the earliest the rule allows.
  const Case c({Ld(0x100, 0x4000), St(0x104, 0x8000)}, {{{1, -1, 30}}, {{30, -1, 40}}}, {"LD", "ST"});
  const Verdict v = c.Judge();
  EXPECT_EQ(v.outcome, Outcome::kPass) << v.message;
  EXPECT_NE(v.message.find("every conflicting pair of 2 instructions"), std::string::npos);
}

TEST(DependencyVerdict, AWriteOverAnOlderReadIsWarAndIsJudgedToo) {
  // ST reads TMEM 0x100..; the younger LD overwrites it while the ST still runs.
  const Case c({St(0x100, 0x8000), Ld(0x100, 0x4000)}, {{{1, -1, 30}}, {{5, -1, 40}}}, {"ST", "LD"});
  const Verdict v = c.Judge();
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_NE(v.message.find("WAR on TMEM"), std::string::npos) << v.message;
}

TEST(DependencyVerdict, UnrelatedInstructionsMayRunInAnyOrder) {
  const Case c({Ld(0x100, 0x4000), St(0x200, 0x8000)}, {{{10, -1, 30}}, {{1, -1, 5}}}, {"LD", "ST"});
  EXPECT_EQ(c.Judge().outcome, Outcome::kPass);
}

TEST(DependencyVerdict, AnMmStreamsBeforeATmemConflictEndsButIsReleasedOnlyAfter) {
  // The VOP-like older LD writes TMEM the MM also writes (WAW, not DRAM): the MM may start
  // streaming at once, but its release must come after the LD's end.
  Case ok({Ld(0x1000, 0x4000), Mm(0x1000, 0x10000)}, {{{1, -1, 30}}, {{2, 30, 60}}}, {"LD", "MM"});
  EXPECT_EQ(ok.Judge().outcome, Outcome::kPass) << ok.Judge().message;
  Case bad({Ld(0x1000, 0x4000), Mm(0x1000, 0x10000)}, {{{1, -1, 30}}, {{2, 29, 60}}}, {"LD", "MM"});
  const Verdict v = bad.Judge();
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_NE(v.message.find("pc 11 MM (#1, start 2, release 29, end 60) was released before pc 10 LD"),
            std::string::npos) << v.message;
}

TEST(DependencyVerdict, AnMmMustNotStreamWeightsAnOlderStStillWrites) {
  Case bad({St(0x100, 0x10000), Mm(0x1000, 0x10000)}, {{{1, -1, 30}}, {{20, 40, 60}}}, {"ST", "MM"});
  const Verdict v = bad.Judge();
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_NE(v.message.find("started before pc 10 ST"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("RAW on DRAM"), std::string::npos) << v.message;
}

TEST(DependencyVerdict, EveryViolationIsCountedAndTheFarOlderOnesAreFound) {
  // Many unrelated instructions between the writer and the reader, which the sweep must not
  // have dropped: the writer ends late.
  std::vector<isa::Instr> ins = {Ld(0x100, 0x4000)};
  std::vector<std::array<int64_t, 3>> times = {{{1, -1, 1000}}};
  std::vector<std::string> names = {"LD"};
  for (int i = 0; i < 50; ++i) {
    ins.push_back(Ld(0x1000 + 8 * uint32_t(i), 0x4000));
    times.push_back({{2 + i, -1, 3 + i}});
    names.push_back("LD");
  }
  ins.push_back(St(0x100, 0x8000));
  times.push_back({{500, -1, 510}});
  names.push_back("ST");
  ins.push_back(St(0x104, 0x9000));
  times.push_back({{600, -1, 610}});
  names.push_back("ST");
  const Case c(ins, times, names);
  const Verdict v = c.Judge();
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_NE(v.message.find("pc 61 ST"), std::string::npos) << v.message;
  EXPECT_NE(v.message.find("2 such pairs in all"), std::string::npos) << v.message;
}

TEST(DependencyVerdict, AProfileWhoseInstructionIsNotTheIsaSimulatorsFails) {
  Case c({Ld(0x100, 0x4000), St(0x104, 0x8000)}, {{{1, -1, 30}}, {{31, -1, 40}}}, {"LD", "ST"});
  c.profile.instrs[1].pc = 99;
  const Verdict v = c.Judge();
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_NE(v.message.find("is pc 99 ST, the ISA simulator's pc 11"), std::string::npos) << v.message;
}

TEST(DependencyVerdict, InstructionsACutTraceDidNotSeeAreNotJudged) {
  const Case c({Ld(0x100, 0x4000), St(0x104, 0x8000)}, {{{1, -1, -1}}, {{5, -1, 40}}}, {"LD", "ST"});
  EXPECT_EQ(c.Judge().outcome, Outcome::kPass);
}

}  // namespace
}  // namespace otpu::regress
