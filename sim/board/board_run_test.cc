// Runs on the Verilated board by register accesses only (SPEC 4 run protocol): the program
// loader, a run of mlp-small against the ISA simulator (DRAM) and the RTL harness (counters,
// events), the trace read back through TRACE_LO/HI and the DMA window, and ARGs on map 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/board/board_model.h"
#include "sim/isa/isa_sim.h"
#include "sim/rtl/event_collector.h"
#include "sim/rtl/rtl_harness.h"
#include "sim/rtl/trace/trace_unit_model.h"
#include "base/sparse_memory.h"
#include "workloads/isa/defs.h"
#include "workloads/isa/program.h"
#include "workloads/list.h"

namespace otpu::board {
namespace {

using isa::Reg;

constexpr uint32_t Off(Reg r) { return static_cast<uint32_t>(r); }
constexpr uint32_t kProgAddr = 0x400;  // below workloads::kImageBase, chunk aligned

std::unique_ptr<BoardModel> MakeModel(const isa::Config& cfg, rtl::DramModel* dram,
                                      int regmap = 2) {
  StatusOr<std::unique_ptr<BoardModel>> m = BoardModel::Create(cfg, dram, regmap);
  OTPU_CHECK(m.ok());
  return std::move(m).value();
}

// Polls STATUS (a read every 16 cycles) until the bits of `mask` equal `want`; the last value.
uint32_t PollStatus(BoardModel& m, uint32_t mask, uint32_t want) {
  uint32_t status = m.ReadReg(Off(Reg::kSTATUS));
  for (int i = 0; i < 1 << 20 && (status & mask) != want; ++i) {
    m.Cycles(15);
    status = m.ReadReg(Off(Reg::kSTATUS));
  }
  return status;
}

// What the host reads after a run.
struct BoardResult {
  uint32_t status = 0;
  uint64_t cycles = 0;
  uint32_t icount = 0, b_rd = 0, b_wr = 0, a_rd = 0, a_wr = 0, b_stall = 0;
  uint32_t trace_count = 0, trace_drop = 0;
};

// SPEC 4's run protocol on a program already in DRAM at kProgAddr.
BoardResult RunByRegisters(BoardModel& m, uint32_t prog_n, const std::array<uint32_t, 8>& args,
                           bool trace) {
  m.WriteReg(Off(Reg::kCTRL), 0);
  m.WriteReg(Off(Reg::kPROG_ADDR), kProgAddr);
  m.WriteReg(Off(Reg::kPROG_N), prog_n);
  m.WriteReg(Off(Reg::kCTRL), isa::kCTRL_LOAD);
  EXPECT_EQ(PollStatus(m, isa::kSTATUS_LOADING, 0) & isa::kSTATUS_LOADING, 0u);
  if (trace) {
    m.WriteReg(Off(Reg::kTRACE_CTRL), isa::kTRACE_CTRL_CLEAR);
    m.WriteReg(Off(Reg::kTRACE_CTRL),
               isa::kTRACE_CTRL_ENABLE | isa::kTRACE_CTRL_STOP_WHEN_FULL);
  }
  for (uint32_t i = 0; i < 8; ++i) m.WriteReg(Off(Reg::kARG0) + 4 * i, args[i]);
  m.WriteReg(Off(Reg::kCTRL), isa::kCTRL_CLEAR);
  m.WriteReg(Off(Reg::kCTRL), isa::kCTRL_RUN);
  BoardResult r;
  r.status = PollStatus(m, isa::kSTATUS_HALTED, isa::kSTATUS_HALTED);
  if (trace) {
    for (int i = 0; i < 1 << 20 && m.ReadReg(Off(Reg::kTRACE_CTRL)) & isa::kTRACE_CTRL_BUSY;
         ++i) {
      m.Cycles(15);
    }
    r.trace_count = m.ReadReg(Off(Reg::kTRACE_COUNT));
    r.trace_drop = m.ReadReg(Off(Reg::kTRACE_DROP));
  }
  r.cycles = m.ReadReg(Off(Reg::kCYCLES_LO));
  r.cycles |= uint64_t(m.ReadReg(Off(Reg::kCYCLES_HI))) << 32;
  r.icount = m.ReadReg(Off(Reg::kICOUNT));
  r.b_rd = m.ReadReg(Off(Reg::kB_RD));
  r.b_wr = m.ReadReg(Off(Reg::kB_WR));
  r.a_rd = m.ReadReg(Off(Reg::kA_RD));
  r.a_wr = m.ReadReg(Off(Reg::kA_WR));
  r.b_stall = m.ReadReg(Off(Reg::kB_STALL));
  m.WriteReg(Off(Reg::kCTRL), 0);
  return r;
}

// mlp-small run three ways: on the ISA simulator, on the RTL harness and on the board (by
// registers, with the trace on and an event collector and the trace unit's model as hooks).
class MlpSmallOnBoard : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const isa::Config cfg = rtl::BuiltConfig();
    StatusOr<workloads::WorkloadRun> w = workloads::MakeWorkload("mlp-small", cfg);
    ASSERT_TRUE(w.ok()) << w.status().message();
    ASSERT_FALSE(w->steps.empty());
    s_ = new Shared;
    s_->image = w->image;
    const workloads::Step& step = w->steps[0];
    for (const workloads::DramWrite& dw : step.writes) {
      s_->image.Write(dw.addr, dw.bytes.data(), dw.bytes.size());
    }
    const std::vector<uint8_t> code = w->program.Bytes();
    s_->image.Write(kProgAddr, code.data(), code.size());

    s_->isa_dram = s_->image;
    sim::IsaSim isa(cfg, &s_->isa_dram);
    ASSERT_TRUE(isa.LoadProgram(w->program).ok());
    sim::IsaRunOptions isa_opts;
    isa_opts.args = step.args;
    ASSERT_TRUE(isa.Run(isa_opts).ok());

    SparseMemory rtl_dram = s_->image;
    StatusOr<std::unique_ptr<rtl::RtlHarness>> h = rtl::RtlHarness::Create(cfg);
    ASSERT_TRUE(h.ok());
    ASSERT_TRUE((*h)->LoadProgram(w->program).ok());
    rtl::RtlRunOptions opts;
    opts.args = step.args;
    StatusOr<rtl::RtlRun> run = (*h)->Run(&rtl_dram, opts);
    ASSERT_TRUE(run.ok()) << run.status().message();
    ASSERT_EQ(run->stop, rtl::Stop::kHalt) << run->error;
    s_->harness = std::move(*run);

    s_->board_dram = s_->image;
    rtl::DramModel dram(&s_->board_dram, cfg.D, rtl::DramOptions{});
    std::unique_ptr<BoardModel> owned = MakeModel(cfg, &dram);
    BoardModel& board = *owned;
    rtl::EventCollector collector(cfg);
    rtl::TraceUnitOptions topts;
    topts.queue_depth = BoardModel::TraceQueueDepth();
    topts.drain = BoardModel::TraceDrain();
    topts.depth = BoardModel::TraceDepth();
    StatusOr<std::unique_ptr<rtl::TraceUnitModel>> tm = rtl::TraceUnitModel::Create(topts);
    ASSERT_TRUE(tm.ok());
    board.AddHook(&collector);
    board.AddHook(tm->get());
    s_->board = RunByRegisters(board, uint32_t(w->program.size()), step.args, true);
    for (uint32_t k = 0; k < uint32_t(isa::kNumCounters); ++k) {
      const uint32_t lo = board.ReadReg(Off(Reg::kCOUNTERS) + 8 * k);
      s_->counters[k] = uint64_t(board.ReadReg(Off(Reg::kCOUNTERS) + 8 * k + 4)) << 32 | lo;
    }
    ASSERT_TRUE(dram.status().ok()) << dram.status().message();
    s_->events = collector.events();
    s_->windows = collector.windows();
    s_->model_records = (*tm)->Records();
    s_->model_count = (*tm)->count();
    s_->model_drop = (*tm)->drop();

    // The buffer through the registers (from index 0), then through the window.
    const uint32_t n =
        std::min<uint32_t>(s_->board.trace_count, uint32_t(BoardModel::TraceDepth()));
    board.WriteReg(Off(Reg::kTRACE_ADDR), 0);
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t lo = board.ReadReg(Off(Reg::kTRACE_LO));
      const uint64_t hi = board.ReadReg(Off(Reg::kTRACE_HI));
      s_->reg_records.push_back(hi << 32 | lo);
    }
    s_->window_records.resize(n);
    board.ReadTraceWindow(0, n, s_->window_records.data());
    // A window read that starts mid-beat and crosses beats.
    if (n > 13) {
      s_->window_tail.resize(n - 5);
      board.ReadTraceWindow(5, n - 5, s_->window_tail.data());
    }
  }
  static void TearDownTestSuite() {
    delete s_;
    s_ = nullptr;
  }

  struct Shared {
    SparseMemory image{1}, isa_dram{1}, board_dram{1};
    rtl::RtlRun harness;
    BoardResult board;
    trace::RunEvents events;
    std::vector<rtl::WindowRecord> windows;
    std::vector<uint64_t> model_records, reg_records, window_records, window_tail;
    uint32_t model_count = 0, model_drop = 0;
    std::array<uint64_t, isa::kNumCounters> counters{};  // free-running, after the run
  };
  static Shared* s_;
};

MlpSmallOnBoard::Shared* MlpSmallOnBoard::s_ = nullptr;

TEST_F(MlpSmallOnBoard, HaltsWithoutError) {
  EXPECT_EQ(s_->board.status & (isa::kSTATUS_HALTED | isa::kSTATUS_ERROR | isa::kSTATUS_AXI_ERR |
                                isa::kSTATUS_RUNNING | isa::kSTATUS_LOADING),
            isa::kSTATUS_HALTED);
}

TEST_F(MlpSmallOnBoard, LeavesTheIsaSimulatorsDram) {
  EXPECT_EQ(s_->board_dram.FirstDifference(s_->isa_dram), -1);
}

TEST_F(MlpSmallOnBoard, CountersEqualTheHarnessRun) {
  const rtl::RtlRun& h = s_->harness;
  EXPECT_EQ(int64_t(s_->board.cycles), h.events.cycles);
  EXPECT_EQ(int64_t(s_->board.icount), h.events.retired);
  EXPECT_EQ(int64_t(s_->board.b_rd), h.dram.b_reads);
  EXPECT_EQ(int64_t(s_->board.b_wr), h.dram.b_writes);
  EXPECT_EQ(int64_t(s_->board.a_rd), h.dram.a_reads);
  EXPECT_EQ(int64_t(s_->board.a_wr), h.dram.a_writes);
  EXPECT_EQ(int64_t(s_->board.b_stall), h.dram.b_wait);
  EXPECT_GT(s_->board.b_rd, 0u);
}

// The free-running counters against the harness's totals of the same run (the board ran
// nothing else since reset).
TEST_F(MlpSmallOnBoard, FreeRunningCountersSumTheRun) {
  using isa::Counter;
  const rtl::RtlRun& h = s_->harness;
  auto cnt = [](Counter c) { return int64_t(s_->counters[size_t(c)]); };
  int64_t mx = 0, ld = 0, ms = 0;
  for (const rtl::WindowRecord& w : h.windows) {
    mx += w.columns[4];   // bm bd am aq mx ...
    ms += w.columns[11];  // ... bs as ms
    ld += w.columns[14];
  }
  int64_t lose = 0;
  for (int64_t l : h.lose) lose += l;
  EXPECT_GT(cnt(Counter::kUPTIME), cnt(Counter::kRUNNING));
  EXPECT_EQ(cnt(Counter::kRUNNING), h.events.cycles);
  EXPECT_EQ(cnt(Counter::kINSTR), h.events.retired);
  EXPECT_EQ(cnt(Counter::kMXU_BUSY), mx);
  EXPECT_EQ(cnt(Counter::kDMA_BUSY), ld);
  EXPECT_EQ(cnt(Counter::kMXU_STARVE), ms);
  EXPECT_EQ(cnt(Counter::kTMEM_DENY), lose);
  EXPECT_EQ(cnt(Counter::kDRAM_RD), h.dram.b_reads + h.dram.a_reads);
  EXPECT_EQ(cnt(Counter::kDRAM_WR), h.dram.b_writes + h.dram.a_writes);
  EXPECT_GE(cnt(Counter::kDRAM_WAIT), std::max(h.dram.b_wait, h.dram.a_wait));
  EXPECT_LE(cnt(Counter::kDRAM_WAIT), h.dram.b_wait + h.dram.a_wait);
  EXPECT_GT(cnt(Counter::kVPU_BUSY), 0);
  EXPECT_GT(cnt(Counter::kQNT_BUSY), 0);
  EXPECT_GT(cnt(Counter::kMXU_MAC), 0);
  EXPECT_LE(cnt(Counter::kMXU_MAC), mx - ms);
}

TEST_F(MlpSmallOnBoard, HookSeesTheHarnessEvents) {
  const trace::RunEvents& want = s_->harness.events;
  const trace::RunEvents& got = s_->events;
  EXPECT_EQ(got.cycles, want.cycles);
  ASSERT_EQ(got.instrs.size(), want.instrs.size());
  for (size_t i = 0; i < got.instrs.size(); ++i) {
    const trace::InstrEvent& g = got.instrs[i];
    const trace::InstrEvent& w = want.instrs[i];
    SCOPED_TRACE("instruction " + std::to_string(i) + " pc " + std::to_string(w.pc));
    EXPECT_EQ(g.pc, w.pc);
    EXPECT_EQ(g.unit, w.unit);
    EXPECT_TRUE(g.resolved == w.resolved);
    EXPECT_EQ(g.dispatch, w.dispatch);
    EXPECT_EQ(g.ready, w.ready);
    EXPECT_EQ(g.release, w.release);
    EXPECT_EQ(g.start, w.start);
    EXPECT_EQ(g.end, w.end);
    EXPECT_EQ(g.counters, w.counters);
  }
  ASSERT_EQ(s_->windows.size(), s_->harness.windows.size());
  for (size_t i = 0; i < s_->windows.size(); ++i) {
    EXPECT_EQ(s_->windows[i].last, s_->harness.windows[i].last);
    EXPECT_EQ(s_->windows[i].columns, s_->harness.windows[i].columns);
  }
}

TEST_F(MlpSmallOnBoard, TraceMatchesTheTraceUnitModel) {
  EXPECT_EQ(s_->board.trace_count, s_->model_count);
  EXPECT_EQ(s_->board.trace_drop, s_->model_drop);
  EXPECT_GT(s_->board.trace_count, 0u);
  EXPECT_EQ(s_->reg_records, s_->model_records);
}

TEST_F(MlpSmallOnBoard, TraceWindowReturnsTheRegisterRecords) {
  EXPECT_EQ(s_->window_records, s_->reg_records);
  ASSERT_GT(s_->reg_records.size(), 13u);
  EXPECT_EQ(s_->window_tail,
            std::vector<uint64_t>(s_->reg_records.begin() + 5, s_->reg_records.end()));
}

// A program that stores 8 words filled with a constant at DRAM 0x20000 + ARG0.
isa::Program StoreAtArg0() {
  isa::ProgramBuilder b;
  isa::VopOp fill;
  fill.fn = isa::VopFn::kFILL;
  fill.bzero = true;
  fill.dst = isa::At(0);
  fill.n = 8;
  fill.c = 0x40490FDBu;
  b.Vop(fill);
  isa::DmaOp st;
  st.tmem = isa::At(0);
  st.dram = isa::At(uint8_t(isa::kFirstArgReg), 0x20000);
  st.n = 8;
  b.St(st);
  return b.Finish();
}

// The same program on the ISA simulator and on a board of map `regmap` given ARG0 = 0x100.
void ExpectStoreLikeIsa(int regmap, uint32_t isa_arg0) {
  const isa::Config cfg = rtl::BuiltConfig();
  const isa::Program prog = StoreAtArg0();
  SparseMemory image(cfg.DRAM_BYTES);
  const std::vector<uint8_t> code = prog.Bytes();
  image.Write(kProgAddr, code.data(), code.size());

  SparseMemory want = image;
  sim::IsaSim isa(cfg, &want);
  ASSERT_TRUE(isa.LoadProgram(prog).ok());
  sim::IsaRunOptions opts;
  opts.args[0] = isa_arg0;
  ASSERT_TRUE(isa.Run(opts).ok());

  SparseMemory got = image;
  rtl::DramModel dram(&got, cfg.D, rtl::DramOptions{});
  std::unique_ptr<BoardModel> owned = MakeModel(cfg, &dram, regmap);
  BoardModel& board = *owned;
  std::array<uint32_t, 8> args{};
  args[0] = 0x100;
  const BoardResult r = RunByRegisters(board, uint32_t(prog.size()), args, false);
  EXPECT_EQ(r.status & (isa::kSTATUS_HALTED | isa::kSTATUS_ERROR), isa::kSTATUS_HALTED);
  EXPECT_EQ(r.icount, 3u);
  EXPECT_EQ(got.FirstDifference(want), -1) << "map " << regmap;
}

TEST(BoardRun, MapTwoPassesArgs) { ExpectStoreLikeIsa(2, 0x100); }

TEST(BoardRun, MapOneRunsWithArgsZero) { ExpectStoreLikeIsa(1, 0); }

TEST(BoardRun, RunWrittenWhileLoadingStartsAfterTheLoad) {
  const isa::Config cfg = rtl::BuiltConfig();
  const isa::Program prog = StoreAtArg0();
  SparseMemory image(cfg.DRAM_BYTES);
  const std::vector<uint8_t> code = prog.Bytes();
  image.Write(kProgAddr, code.data(), code.size());
  SparseMemory want = image;
  sim::IsaSim isa(cfg, &want);
  ASSERT_TRUE(isa.LoadProgram(prog).ok());
  ASSERT_TRUE(isa.Run(sim::IsaRunOptions{}).ok());

  SparseMemory got = image;
  rtl::DramModel dram(&got, cfg.D, rtl::DramOptions{});
  std::unique_ptr<BoardModel> owned = MakeModel(cfg, &dram);
  BoardModel& board = *owned;
  board.WriteReg(Off(Reg::kPROG_ADDR), kProgAddr);
  board.WriteReg(Off(Reg::kPROG_N), uint32_t(prog.size()));
  board.WriteReg(Off(Reg::kCTRL), isa::kCTRL_LOAD);
  board.WriteReg(Off(Reg::kCTRL), isa::kCTRL_RUN);
  EXPECT_EQ(board.ReadReg(Off(Reg::kSTATUS)) & (isa::kSTATUS_LOADING | isa::kSTATUS_RUNNING),
            isa::kSTATUS_LOADING);
  const uint32_t status = PollStatus(board, isa::kSTATUS_HALTED, isa::kSTATUS_HALTED);
  EXPECT_EQ(status & (isa::kSTATUS_HALTED | isa::kSTATUS_ERROR), isa::kSTATUS_HALTED);
  EXPECT_EQ(got.FirstDifference(want), -1);
}

TEST(BoardRun, ProgramWithoutHaltStopsWithError) {
  const isa::Config cfg = rtl::BuiltConfig();
  SparseMemory mem(cfg.DRAM_BYTES);
  const isa::Instr nop = isa::EncodeNop();
  mem.Write(kProgAddr, nop.w.data(), isa::kInstrBytes);
  rtl::DramModel dram(&mem, cfg.D, rtl::DramOptions{});
  std::unique_ptr<BoardModel> owned = MakeModel(cfg, &dram);
  BoardModel& board = *owned;
  const BoardResult r = RunByRegisters(board, 1, {}, false);
  EXPECT_EQ(r.status & (isa::kSTATUS_HALTED | isa::kSTATUS_ERROR | isa::kSTATUS_RUNNING),
            isa::kSTATUS_HALTED | isa::kSTATUS_ERROR)
      << "STATUS 0x" << std::hex << r.status;
}

TEST(BoardRun, LoadIsIgnoredWithRun) {
  const isa::Config cfg = rtl::BuiltConfig();
  SparseMemory mem(cfg.DRAM_BYTES);
  rtl::DramModel dram(&mem, cfg.D, rtl::DramOptions{});
  std::unique_ptr<BoardModel> owned = MakeModel(cfg, &dram);
  BoardModel& board = *owned;
  board.WriteReg(Off(Reg::kPROG_N), 4);
  board.WriteReg(Off(Reg::kCTRL), isa::kCTRL_RUN | isa::kCTRL_LOAD);
  EXPECT_EQ(board.ReadReg(Off(Reg::kSTATUS)) & isa::kSTATUS_LOADING, 0u);
  EXPECT_EQ(dram.stats().b_reads, 0);
}

TEST(BoardRun, LoadSetsLoadingUntilTheProgramIsIn) {
  const isa::Config cfg = rtl::BuiltConfig();
  SparseMemory mem(cfg.DRAM_BYTES);
  rtl::DramModel dram(&mem, cfg.D, rtl::DramOptions{});
  std::unique_ptr<BoardModel> owned = MakeModel(cfg, &dram);
  BoardModel& board = *owned;
  const uint32_t n = 40;
  board.WriteReg(Off(Reg::kPROG_ADDR), kProgAddr);
  board.WriteReg(Off(Reg::kPROG_N), n);
  board.WriteReg(Off(Reg::kCTRL), isa::kCTRL_LOAD);
  EXPECT_NE(board.ReadReg(Off(Reg::kSTATUS)) & isa::kSTATUS_LOADING, 0u);
  PollStatus(board, isa::kSTATUS_LOADING, 0);
  EXPECT_EQ(dram.stats().b_reads, int64_t(n) * isa::kInstrBytes / cfg.D)
      << "one port-B read per chunk of the program";
}

}  // namespace
}  // namespace otpu::board
