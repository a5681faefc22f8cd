#include "sim/rtl/rtl_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>

#include "workloads/isa/cost.h"

namespace otpu::rtl {
namespace {

using isa::Opcode;

class RtlHarnessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto h = RtlHarness::Create(cfg);
    ASSERT_TRUE(h.ok()) << h.status().message();
    harness = std::move(h.value());
  }

  // Loads `code` + HALT and runs it; the run must not fail.
  RtlRun Run(std::vector<isa::Instr> code, RtlRunOptions opts = {}) {
    code.push_back(isa::EncodeHalt());
    EXPECT_TRUE(harness->LoadProgram(code).ok());
    StatusOr<RtlRun> run = harness->Run(&dram, opts);
    EXPECT_TRUE(run.ok()) << run.status().message();
    return run.ok() ? std::move(run.value()) : RtlRun{};
  }

  isa::Config cfg = BuiltConfig();
  SparseMemory dram{BuiltConfig().DRAM_BYTES};
  std::unique_ptr<RtlHarness> harness;
};

isa::DmaOp Dma(uint32_t tmem, uint32_t dram_addr, uint32_t n, uint32_t rows = 1) {
  isa::DmaOp d;
  d.tmem = isa::At(tmem);
  d.dram = isa::At(dram_addr);
  d.n = n;
  d.rows = rows;
  d.tmem_stride = n;
  d.dram_stride = 4 * n;
  return d;
}

isa::VopOp Vop(isa::VopFn fn, uint32_t dst, uint32_t a, uint32_t n) {
  isa::VopOp v;
  v.fn = fn;
  v.dst = isa::At(dst);
  v.a = isa::At(a);
  v.b = isa::At(a);
  v.n = n;
  return v;
}

TEST_F(RtlHarnessTest, CreateRejectsAnotherConfiguration) {
  isa::Config other = cfg;
  other.D = cfg.D * 2;
  auto h = RtlHarness::Create(other);
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(h.status().message().find("D=" + std::to_string(other.D)), std::string::npos)
      << h.status().message();
  EXPECT_NE(h.status().message().find("D=" + std::to_string(cfg.D)), std::string::npos);
}

TEST_F(RtlHarnessTest, LoadProgramRejectsOneLongerThanImem) {
  std::vector<isa::Instr> code(cfg.IMEM_WORDS + 1, isa::EncodeNop());
  Status st = harness->LoadProgram(code);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("IMEM_WORDS=" + std::to_string(cfg.IMEM_WORDS)),
            std::string::npos)
      << st.message();
}

TEST_F(RtlHarnessTest, RunRejectsDramOfAnotherSize) {
  ASSERT_TRUE(harness->LoadProgram({isa::EncodeHalt()}).ok());
  SparseMemory small(1 << 20);
  StatusOr<RtlRun> run = harness->Run(&small, {});
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("DRAM_BYTES=" + std::to_string(cfg.DRAM_BYTES)),
            std::string::npos)
      << run.status().message();
}

TEST_F(RtlHarnessTest, RunRejectsMemoryLatencyOfZero) {
  ASSERT_TRUE(harness->LoadProgram({isa::EncodeHalt()}).ok());
  RtlRunOptions opts;
  opts.mem.latency = 0;
  StatusOr<RtlRun> run = harness->Run(&dram, opts);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("latency 0"), std::string::npos)
      << run.status().message();
}

TEST_F(RtlHarnessTest, RunRejectsAxiMemoryWithoutBandwidth) {
  ASSERT_TRUE(harness->LoadProgram({isa::EncodeHalt()}).ok());
  RtlRunOptions opts;
  opts.mem.axi = true;
  opts.mem.beats_per_cycle = 0;
  StatusOr<RtlRun> run = harness->Run(&dram, opts);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("axi memory with 0.000000 beats per cycle"),
            std::string::npos)
      << run.status().message();
}

TEST_F(RtlHarnessTest, HaltAloneEndsInItsOwnCycle) {
  RtlRun run = Run({});
  EXPECT_EQ(run.stop, Stop::kHalt);
  EXPECT_EQ(run.events.retired, 1);
  EXPECT_EQ(run.events.cycles, 1);
  EXPECT_TRUE(run.events.instrs.empty());
}

TEST_F(RtlHarnessTest, LdThenStCopiesRowsThroughTmem) {
  for (uint32_t i = 0; i < 40; ++i) dram.Write32(0x104 + 4 * i, 0x3F000000u + i);
  RtlRun run = Run({isa::EncodeLd(Dma(13, 0x104, 20, 2)), isa::EncodeSt(Dma(13, 0x2000, 20, 2))});
  ASSERT_EQ(run.stop, Stop::kHalt);
  for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(dram.Read32(0x2000 + 4 * i), 0x3F000000u + i) << i;
  EXPECT_EQ(dram.Read32(0x2000 + 160), 0u);
  const std::vector<uint32_t> t = harness->ReadTmem(13, 40);
  for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(t[i], 0x3F000000u + i) << i;
}

TEST_F(RtlHarnessTest, ArgRegistersAddressOperands) {
  RtlRunOptions opts;
  opts.args[0] = 0x1000;
  isa::DmaOp d = Dma(0, 0, 4);
  d.dram = isa::At(8, 0x40);  // R8 = ARG0
  RtlRun run = Run({isa::EncodeLd(d)}, opts);
  ASSERT_EQ(run.events.instrs.size(), 1u);
  EXPECT_EQ(run.events.instrs[0].resolved.w[2], 0x1040u);
  EXPECT_EQ(run.events.instrs[0].resolved.rb(), 0);
}

TEST_F(RtlHarnessTest, IllegalInstructionStopsWithItsPcAndCause) {
  RtlRun run = Run({isa::EncodeNop(), isa::EncodeLd(Dma(0, 0, 8)), isa::EncodeLd(Dma(0, 0, 0))});
  EXPECT_EQ(run.stop, Stop::kError);
  EXPECT_EQ(run.error_pc, 2u);
  EXPECT_NE(run.error.find("pc 2 (LD)"), std::string::npos) << run.error;
  EXPECT_NE(run.error.find("shape field is 0"), std::string::npos) << run.error;
  EXPECT_EQ(run.events.instrs.size(), 1u);  // the legal LD before it ran
  EXPECT_GE(run.events.instrs[0].end, 0);
}

TEST_F(RtlHarnessTest, RunningPastTheProgramIsAnError) {
  ASSERT_TRUE(harness->LoadProgram({isa::EncodeNop(), isa::EncodeNop()}).ok());
  StatusOr<RtlRun> run = harness->Run(&dram, {});
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->stop, Stop::kError);
  EXPECT_EQ(run->error_pc, 2u);
  EXPECT_NE(run->error.find("ran past the end"), std::string::npos) << run->error;
}

TEST_F(RtlHarnessTest, CycleLimitStopsTheRunAndTheNextRunStartsClean) {
  RtlRunOptions opts;
  opts.max_cycles = 500;
  RtlRun run = Run({isa::EncodeLoop({isa::At(1000000), 1}), isa::EncodeNop()}, opts);
  EXPECT_EQ(run.stop, Stop::kCycleLimit);
  EXPECT_EQ(run.events.cycles, 500);
  RtlRun again = Run({isa::EncodeLd(Dma(0, 0, 4))});
  EXPECT_EQ(again.stop, Stop::kHalt);
  EXPECT_EQ(again.events.instrs.size(), 1u);
}

TEST_F(RtlHarnessTest, DependentInstructionWaitsForTheEndOfItsDependency) {
  RtlRun run = Run({isa::EncodeLd(Dma(0, 0, 64)),
                    isa::EncodeVop(Vop(isa::VopFn::kCOPY, 1000, 8, 8)),    // reads the LD's words
                    isa::EncodeVop(Vop(isa::VopFn::kCOPY, 2000, 3000, 8))});  // independent
  ASSERT_EQ(run.events.instrs.size(), 3u);
  const trace::InstrEvent& ld = run.events.instrs[0];
  const trace::InstrEvent& dep = run.events.instrs[1];
  const trace::InstrEvent& free = run.events.instrs[2];
  EXPECT_EQ(dep.ready, ld.end);
  EXPECT_GE(dep.start, ld.end);
  EXPECT_LT(free.ready, ld.end);
}

TEST_F(RtlHarnessTest, InstructionsThatOnlyReadTheSameWordsDoNotWait) {
  RtlRun run = Run({isa::EncodeLd(Dma(0, 0, 64)),
                    isa::EncodeSt(Dma(1000, 0x8000, 256)),                   // reads t1000..
                    isa::EncodeVop(Vop(isa::VopFn::kCOPY, 2000, 1000, 64))});  // reads t1000..
  ASSERT_EQ(run.events.instrs.size(), 3u);
  const trace::InstrEvent& st = run.events.instrs[1];
  const trace::InstrEvent& vop = run.events.instrs[2];
  EXPECT_EQ(vop.ready, vop.dispatch);
  EXPECT_LT(vop.start, st.end);
}

TEST_F(RtlHarnessTest, MmStreamsWeightsBeforeItsTmemDependencyEnds) {
  isa::VopOp slow = Vop(isa::VopFn::kEXP2, 0, 4096, 256);  // writes t0..t255, CL lanes
  isa::MmOp mm;
  mm.out = isa::At(0);  // overwrites what the VOP writes: waits for it to consume
  mm.w = isa::At(0x10000);
  mm.scales = isa::At(0x20000);
  mm.n = 4;
  mm.k = uint32_t(cfg.D);
  mm.w_stride = uint32_t(cfg.D);
  RtlRun run = Run({isa::EncodeVop(slow), isa::EncodeMm(mm)});
  ASSERT_EQ(run.events.instrs.size(), 2u);
  const trace::InstrEvent& vop = run.events.instrs[0];
  const trace::InstrEvent& m = run.events.instrs[1];
  EXPECT_EQ(m.ready, m.dispatch);  // no DRAM dependency
  EXPECT_LT(m.start, vop.end);
  EXPECT_GE(m.release, vop.end);
  EXPECT_LT(m.release, m.end);
}

TEST_F(RtlHarnessTest, EveryInstructionIsDispatchedReadyStartedAndEndedInOrder) {
  for (uint32_t i = 0; i < 256; ++i) dram.Write32(4 * i, std::bit_cast<uint32_t>(float(i) / 7));
  std::vector<isa::Instr> code = {isa::EncodeLd(Dma(0, 0, 64, 4))};
  code.push_back(isa::EncodeLoop({isa::At(3), 2}));
  code.push_back(isa::EncodeVop(Vop(isa::VopFn::kEXP2, 512, 0, 64)));
  code.push_back(isa::EncodeSt(Dma(512, 0x4000, 64)));
  RtlRun run = Run(code);
  ASSERT_EQ(run.events.instrs.size(), 7u);
  for (const trace::InstrEvent& e : run.events.instrs) {
    EXPECT_LE(e.dispatch, e.ready);
    EXPECT_LE(e.ready, e.start);
    EXPECT_LT(e.start, e.end);
    EXPECT_LE(e.end, run.events.cycles);
    EXPECT_EQ(e.release, -1);
  }
}

TEST_F(RtlHarnessTest, WindowsCoverTheRunAndSumToThePortTotals) {
  std::vector<isa::Instr> code;
  for (uint32_t r = 0; r < 6; ++r) {
    code.push_back(isa::EncodeLd(Dma(64 * r, 0x400 * r, 40, 2)));
    code.push_back(isa::EncodeSt(Dma(64 * r, 0x10000 + 0x400 * r, 40, 2)));
  }
  RtlRunOptions opts;
  opts.window = 16;
  RtlRun run = Run(code, opts);
  ASSERT_FALSE(run.windows.empty());
  int64_t cycles = 0, bd = 0, ld = 0;
  for (const WindowRecord& w : run.windows) {
    EXPECT_LE(w.n, 16);
    cycles += w.n;
    bd += w.columns[1];
    ld += w.columns[14];
  }
  EXPECT_EQ(cycles, run.events.cycles);
  EXPECT_EQ(run.windows.back().last, run.events.cycles - 1);
  EXPECT_EQ(bd, run.ports[1]);
  int64_t port_b = 0, busy = 0;
  for (const trace::InstrEvent& e : run.events.instrs) {
    port_b += e.port_b;
    busy += e.end - e.start;  // one DMA instruction at a time: no overlap
  }
  EXPECT_EQ(run.ports[1], port_b);
  EXPECT_EQ(ld, busy);
}

TEST_F(RtlHarnessTest, StallingMemoryTakesLongerAndMovesTheSameBytes) {
  for (uint32_t i = 0; i < 512; ++i) dram.Write32(4 * i, i * 2654435761u);
  const std::vector<isa::Instr> code = {isa::EncodeLd(Dma(0, 0, 512)),
                                        isa::EncodeSt(Dma(0, 0x8000, 512))};
  RtlRun ideal = Run(code);
  RtlRunOptions opts;
  opts.mem.stall_percent = 50;
  RtlRun stalled = Run(code, opts);
  EXPECT_GT(stalled.events.cycles, ideal.events.cycles);
  EXPECT_GT(stalled.dram.b_wait, 0);
  EXPECT_EQ(stalled.dram.b_reads, ideal.dram.b_reads);
  for (uint32_t i = 0; i < 512; ++i) ASSERT_EQ(dram.Read32(0x8000 + 4 * i), i * 2654435761u);
}

TEST_F(RtlHarnessTest, WithoutEventsARunTakesTheSameCyclesAndMovesTheSameBytes) {
  for (uint32_t i = 0; i < 256; ++i) dram.Write32(4 * i, i + 1);
  const std::vector<isa::Instr> code = {isa::EncodeLd(Dma(0, 0, 256)),
                                        isa::EncodeSt(Dma(0, 0x4000, 256))};
  RtlRun with = Run(code);
  RtlRunOptions opts;
  opts.record_events = false;
  dram.Write32(0x4000, 0);
  RtlRun without = Run(code, opts);
  EXPECT_EQ(without.events.cycles, with.events.cycles);
  EXPECT_EQ(without.ports, with.ports);
  EXPECT_TRUE(without.events.instrs.empty());
  EXPECT_EQ(dram.Read32(0x4000), 1u);
}

// Counts what a hook sees.
class CountingHook : public ClockHook {
 public:
  void OnRunStart() override { ++starts; }
  void OnClock(const CoreCycle& c) override {
    EXPECT_EQ(c.cycle, clocks);
    ++clocks;
  }
  void OnRunEnd() override { ++ends; }
  int starts = 0, ends = 0;
  int64_t clocks = 0;
};

TEST_F(RtlHarnessTest, HooksSeeEveryCycleOfTheRun) {
  CountingHook hook;
  harness->AddHook(&hook);
  RtlRun run = Run({isa::EncodeLd(Dma(0, 0, 100))});
  EXPECT_EQ(hook.starts, 1);
  EXPECT_EQ(hook.ends, 1);
  EXPECT_EQ(hook.clocks, run.events.cycles);
}

TEST_F(RtlHarnessTest, TmemWritesReadBack) {
  std::vector<uint32_t> words(37);
  for (uint32_t i = 0; i < words.size(); ++i) words[i] = 0xC0DE0000u + i;
  harness->WriteTmem(5, words);
  EXPECT_EQ(harness->ReadTmem(5, 37), words);
  EXPECT_EQ(harness->ReadTmem(4, 1)[0], 0u);
  EXPECT_EQ(harness->ReadTmem(42, 1)[0], 0u);
}

TEST_F(RtlHarnessTest, ActRamWritesReadBack) {
  sim::ActRam act(cfg);
  act.Block(3, 5)[7] = -100;
  act.Scale(3, 5) = 0.25f;
  act.Block(15, 127)[0] = 127;
  harness->WriteActRam(act);
  sim::ActRam back(cfg);
  harness->ReadActRam(&back);
  EXPECT_EQ(back.Block(3, 5)[7], -100);
  EXPECT_EQ(back.Scale(3, 5), 0.25f);
  EXPECT_EQ(back.Block(15, 127)[0], 127);
  EXPECT_EQ(back.Block(0, 0)[0], 0);
}

}  // namespace
}  // namespace otpu::rtl
