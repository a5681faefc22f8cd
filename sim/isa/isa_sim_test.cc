// Sequencer behaviour: registers, ARG registers, hardware loops, retirement, analytic timing
// and state that persists between runs.
#include "sim/isa/isa_sim.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <random>

#include "sim/isa/test_util.h"
#include "workloads/isa/cost.h"

namespace otpu::sim {
namespace {

using isa::At;
using isa::VopFn;

// FILL of one word at TMEM R[reg] + imm with the scalar B at TMEM 0: marks where a register
// pointed (its event's resolved w1 shows the effective address).
isa::Instr Mark(int reg, uint32_t imm) {
  isa::VopOp op = Vop(VopFn::kFILL, 0, 0, 0, 1);
  op.dst = At(uint8_t(reg), imm);
  op.bmode = isa::BMode::kSCALAR;
  return isa::EncodeVop(op);
}

TEST_F(IsaSimTest, HaltAloneRetiresOneInstructionInOneCycle) {
  auto r = RunCode({});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->retired, 1);
  EXPECT_EQ(r->cycles, 1);
  EXPECT_TRUE(r->instrs.empty());
}

TEST_F(IsaSimTest, LiSetsARegisterAndR0StaysZero) {
  auto r = RunCode({Li(1, 100), Li(0, 7), Mark(1, 5), Mark(0, 3)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->instrs.size(), 2u);
  EXPECT_EQ(r->instrs[0].resolved.w[1], 105u);
  EXPECT_EQ(r->instrs[1].resolved.w[1], 3u);
}

TEST_F(IsaSimTest, AddiAddsToARegisterWithWrapAround) {
  auto r = RunCode({Li(2, 0xFFFFFFF0u), Addi(3, 2, 0x20), Addi(0, 2, 5), Mark(3, 0), Mark(0, 9)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->instrs[0].resolved.w[1], 0x10u);
  EXPECT_EQ(r->instrs[1].resolved.w[1], 9u);
}

TEST_F(IsaSimTest, ArgsLoadR8ToR15) {
  IsaRunOptions opts;
  for (int i = 0; i < 8; ++i) opts.args[i] = 1000 + 10 * uint32_t(i);
  std::vector<isa::Instr> code;
  for (int reg = 8; reg < 16; ++reg) code.push_back(Mark(reg, 1));
  auto r = RunCode(code, opts);
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(r->instrs[i].resolved.w[1], 1001u + 10 * i);
}

TEST_F(IsaSimTest, GeneralRegistersStartAtZeroInEveryRun) {
  ASSERT_TRUE(RunCode({Li(1, 500), Li(7, 600)}).ok());
  auto r = RunCode({Mark(1, 2), Mark(7, 4)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->instrs[0].resolved.w[1], 2u);
  EXPECT_EQ(r->instrs[1].resolved.w[1], 4u);
}

TEST_F(IsaSimTest, LoopRepeatsItsBodyAndAddiAdvancesPerIteration) {
  auto r = RunCode({Loop(4, 2), Mark(1, 100), Addi(1, 1, 3)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->instrs.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(r->instrs[i].resolved.w[1], 100u + 3 * i);
  EXPECT_EQ(r->retired, 1 + 4 * 2 + 1);
}

TEST_F(IsaSimTest, LoopCountAddsTheRegister) {
  auto r = RunCode({Li(2, 3), Loop(2, 1, 2), Mark(0, 1)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->instrs.size(), 5u);
}

TEST_F(IsaSimTest, LoopCountZeroSkipsTheBody) {
  auto r = RunCode({Loop(0, 2), Mark(0, 1), Mark(0, 2), Mark(0, 3)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->instrs.size(), 1u);
  EXPECT_EQ(r->instrs[0].resolved.w[1], 3u);
  EXPECT_EQ(r->retired, 3);  // LOOP, the mark after the body, HALT
}

TEST_F(IsaSimTest, NestedLoopsRunTheInnerBodyPerOuterIteration) {
  // for i < 3: { for j < 2: { mark(R1); R1 += 1 }; R1 += 8 }
  auto r = RunCode({Loop(3, 4), Loop(2, 2), Mark(1, 0), Addi(1, 1, 1), Addi(1, 1, 8)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::vector<uint32_t> got;
  for (const auto& e : r->instrs) got.push_back(e.resolved.w[1]);
  EXPECT_EQ(got, (std::vector<uint32_t>{0, 1, 10, 11, 20, 21}));
}

TEST_F(IsaSimTest, NestedBodiesMayEndTogether) {
  auto r = RunCode({Loop(2, 3), Mark(1, 0), Loop(3, 1), Addi(1, 1, 1), Mark(0, 50)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::vector<uint32_t> got;
  for (const auto& e : r->instrs) got.push_back(e.resolved.w[1]);
  EXPECT_EQ(got, (std::vector<uint32_t>{0, 3, 50}));
}

TEST_F(IsaSimTest, FourNestedLoopsAreLegal) {
  auto r = RunCode({Loop(2, 4), Loop(2, 3), Loop(2, 2), Loop(2, 1), Mark(0, 1)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->instrs.size(), 16u);
}

TEST_F(IsaSimTest, HaltInsideALoopStopsTheRun) {
  auto r = RunRaw({Loop(5, 2), Mark(0, 1), isa::EncodeHalt()});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->instrs.size(), 1u);
  EXPECT_EQ(r->retired, 3);
}

TEST_F(IsaSimTest, NopRetiresWithoutTime) {
  auto r = RunCode({isa::EncodeNop(), isa::EncodeNop()});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->retired, 3);
  EXPECT_EQ(r->cycles, 1);
}

// --- Analytic timing -------------------------------------------------------------------------

std::vector<isa::Instr> MixedProgram() {
  isa::DmaOp ld;
  ld.tmem = At(3, 64);  // R3 + 64
  ld.dram = At(0x1010);
  ld.n = 16;
  ld.rows = 2;
  ld.dram_stride = 256;
  ld.tmem_stride = 16;
  isa::MmOp mm;
  mm.out = At(512);
  mm.w = At(0x4000);
  mm.scales = At(0x8000);
  mm.n = 4;
  mm.k = 64;
  mm.m = 9;  // two passes of MCOLS = 8
  mm.w_stride = 64;
  mm.out_stride = 4;
  isa::VopOp exp = Vop(VopFn::kEXP2, 1024, 64, 0, 13, 2);
  exp.bzero = true;
  return {Li(3, 8), isa::EncodeLd(ld), Li(4, 1), isa::EncodeMm(mm), Loop(2, 1), isa::EncodeVop(exp)};
}

TEST_F(IsaSimTest, UnitInstructionsRunBackToBackForTheirNominalWork) {
  auto r = RunCode(MixedProgram());
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->instrs.size(), 4u);
  // LD: rows at 0x1010 and 0x1110, 64 bytes each, touch 3 chunks of 32 each.
  // MM: 2 passes * 4 rows * 2 chunks = 16 on port B, 2 * 4 * 2 scales on port A.
  // VOP.EXP2: 2 rows * ceil(13 / CL=2).
  const int64_t work[] = {6, 16, 14, 14};
  int64_t t = 0;
  for (size_t i = 0; i < 4; ++i) {
    const trace::InstrEvent& e = r->instrs[i];
    EXPECT_EQ(e.idx, int64_t(i));
    EXPECT_EQ(e.dispatch, t);
    EXPECT_EQ(e.ready, t);
    EXPECT_EQ(e.start, t);
    EXPECT_EQ(e.work, work[i]) << i;
    EXPECT_EQ(e.end, t + work[i]);
    EXPECT_EQ(e.release, i == 1 ? t : -1);
    t += work[i];
  }
  EXPECT_EQ(r->instrs[0].port_b, 6);
  EXPECT_EQ(r->instrs[1].port_b, 16);
  EXPECT_EQ(r->instrs[1].port_a, 16);
  EXPECT_EQ(r->cycles, t);
  EXPECT_EQ(r->retired, 8);
}

TEST_F(IsaSimTest, EventsCarryPcUnitAndTheResolvedInstruction) {
  std::vector<isa::Instr> code = MixedProgram();
  auto r = RunCode(code);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const trace::InstrEvent& ld = r->instrs[0];
  EXPECT_EQ(ld.pc, 1u);
  EXPECT_EQ(ld.unit, isa::Unit::kDMA);
  EXPECT_EQ(ld.resolved.w[1], 72u);  // R3 + 64
  EXPECT_EQ(ld.resolved.ra(), 0);
  EXPECT_EQ(ld.resolved.opcode(), code[1].opcode());
  for (int w = 4; w < 8; ++w) EXPECT_EQ(ld.resolved.w[w], code[1].w[w]);
  EXPECT_EQ(r->instrs[1].unit, isa::Unit::kMXU);
  EXPECT_EQ(r->instrs[2].unit, isa::Unit::kVPU);
  EXPECT_EQ(r->instrs[2].pc, 5u);
  EXPECT_EQ(r->instrs[3].pc, 5u);
}

TEST_F(IsaSimTest, WorkMatchesTheSharedCostModel) {
  std::vector<isa::Instr> code = MixedProgram();
  auto r = RunCode(code);
  ASSERT_TRUE(r.ok()) << r.status().message();
  uint32_t regs[16] = {};
  regs[3] = 8;
  isa::Cost c = isa::CostOf(code[1], regs, cfg);
  EXPECT_EQ(r->instrs[0].work, c.work);
  EXPECT_EQ(r->instrs[0].port_b, c.port_b);
}

TEST_F(IsaSimTest, WithoutEventRecordingCyclesStayTheSame) {
  auto full = RunCode(MixedProgram());
  IsaRunOptions opts;
  opts.record_events = false;
  auto bare = RunCode(MixedProgram(), opts);
  ASSERT_TRUE(full.ok() && bare.ok());
  EXPECT_TRUE(bare->instrs.empty());
  EXPECT_EQ(bare->cycles, full->cycles);
  EXPECT_EQ(bare->retired, full->retired);
}

// --- State between runs ----------------------------------------------------------------------

TEST_F(IsaSimTest, TmemActRamAndDramPersistBetweenRuns) {
  SetT(10, 2.5f);
  isa::QactOp q;
  q.src = At(0);
  q.k = 32;
  ASSERT_TRUE(RunCode({isa::EncodeQact(q)}).ok());
  isa::DmaOp st;
  st.tmem = At(10);
  st.dram = At(0x100);
  st.n = 1;
  ASSERT_TRUE(RunCode({isa::EncodeSt(st)}).ok());
  EXPECT_EQ(T(10), 2.5f);
  EXPECT_EQ(DramF(0x100), 2.5f);
  EXPECT_EQ(sim.act_ram().Block(0, 0)[10], 127);
  ASSERT_TRUE(RunCode({}).ok());
  EXPECT_EQ(T(10), 2.5f);
  EXPECT_EQ(DramF(0x100), 2.5f);
  EXPECT_EQ(sim.act_ram().Block(0, 0)[10], 127);
}

TEST_F(IsaSimTest, ReloadingAProgramReplacesTheOldOne) {
  ASSERT_TRUE(RunCode({Mark(0, 1), Mark(0, 2)}).ok());
  auto r = RunCode({Mark(0, 3)});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->instrs.size(), 1u);
  EXPECT_EQ(r->instrs[0].resolved.w[1], 3u);
}

// --- Speed -----------------------------------------------------------------------------------

TEST_F(IsaSimTest, MlpSizedMatmulsRunWellUnderASecond) {
  // The matmuls of the `mlp` workload (H = 1024, F = 4096, M = 1): ~12.6M MACs.
  const uint32_t h = 1024, f = 4096;
  std::vector<uint8_t> w(uint64_t{f} * h);
  std::mt19937 rng(3);
  for (auto& b : w) b = uint8_t(rng());
  const uint32_t wg = 0, wu = wg + uint32_t(w.size()), wd = wu + uint32_t(w.size());
  const uint32_t sc = wd + uint32_t(w.size());
  dram.Write(wg, w.data(), w.size());
  dram.Write(wu, w.data(), w.size());
  dram.Write(wd, w.data(), w.size());
  std::vector<float> scales(f * h / 32, 1.0f / 64);
  dram.Write(sc, scales.data(), scales.size() * 4);
  for (uint32_t i = 0; i < h; ++i) SetT(i, std::sin(float(i)));
  isa::QactOp qx;
  qx.k = h;
  isa::MmOp gate;
  gate.out = At(h);
  gate.w = At(wg);
  gate.scales = At(sc);
  gate.n = f;
  gate.k = h;
  gate.w_stride = h;
  isa::MmOp up = gate;
  up.out = At(h + f);
  up.w = At(wu);
  isa::QactOp qg;
  qg.src = At(h);
  qg.k = f;
  isa::MmOp down = gate;
  down.out = At(h + 2 * f);
  down.w = At(wd);
  down.n = h;
  down.k = f;
  down.w_stride = f;
  std::vector<isa::Instr> code = {isa::EncodeQact(qx), isa::EncodeMm(gate), isa::EncodeMm(up),
                                  isa::EncodeQact(qg), isa::EncodeMm(down)};
  auto t0 = std::chrono::steady_clock::now();
  auto r = RunCode(code);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_LT(seconds, 1.0);
  EXPECT_EQ(r->cycles, 2 * int64_t{f} * (h / 32) + int64_t{h} * (f / 32) + (h + f) / 8);
  EXPECT_NE(T(h + 2 * f), 0.0f);
  RecordProperty("seconds", std::to_string(seconds));
}

}  // namespace
}  // namespace otpu::sim
