// Whole runs on SimBoard through Card (host/card.h), the host's one run protocol: mlp-small
// against the ISA simulator's DRAM, the event tap, the trace window, and temporal decoupling
// unchanged for the host. Card's poll observer shows every STATUS value the host read.
// SystemC has one kernel per process: gtest_discover_tests runs each case in its own process,
// and the quantum test makes each of its two boards in a child process.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "host/card.h"
#include "sim/board/board_model.h"
#include "sim/board/child_process.h"
#include "sim/board/sim_board_testing.h"
#include "sim/board/sim_board.h"
#include "sim/isa/isa_sim.h"
#include "sim/rtl/rtl_harness.h"
#include "workloads/isa/defs.h"
#include "workloads/list.h"

namespace otpu::board {
namespace {

using board_testing::MakeBoard;
using board_testing::Off;
using board_testing::Read;

// mlp-small as the recorder builds it, and DRAM as the ISA simulator leaves it after every
// step.
struct Mlp {
  workloads::WorkloadRun run;
  SparseMemory want{1};
};

Mlp MakeMlp() {
  StatusOr<workloads::WorkloadRun> run = workloads::MakeWorkload("mlp-small", rtl::BuiltConfig());
  OTPU_CHECK(run.ok());
  Mlp m{std::move(run).value(), SparseMemory(1)};
  m.want = m.run.image;
  sim::IsaSim isa(m.run.config, &m.want);
  OTPU_CHECK(isa.LoadProgram(m.run.program).ok());
  for (const workloads::Step& step : m.run.steps) {
    for (const workloads::DramWrite& w : step.writes) {
      m.want.Write(w.addr, w.bytes.data(), w.bytes.size());
    }
    sim::IsaRunOptions opts;
    opts.args = step.args;
    OTPU_CHECK(isa.Run(opts).ok());
  }
  return m;
}

// What the host saw of one run through Card: every STATUS value it polled while loading and
// while running (Card's poll observer), and the run's result.
struct HostRun {
  std::vector<uint32_t> load_polls;
  std::vector<uint32_t> run_polls;
  host::RunResult result;
};

// Writes the image and program through Card, then runs every step; the last run.
StatusOr<HostRun> RunMlp(SimBoard* board, const Mlp& m, bool trace = false) {
  ASSIGN_OR_RETURN(std::unique_ptr<host::Card> card, host::Card::Probe(board, m.run.config));
  HostRun last;
  card->set_poll_observer([&last](host::PollWait wait, uint32_t status) {
    if (wait == host::PollWait::kLoad) last.load_polls.push_back(status);
    if (wait == host::PollWait::kHalt) last.run_polls.push_back(status);
  });
  RETURN_IF_ERROR(card->WriteImage(m.run.image));
  RETURN_IF_ERROR(card->WriteProgram(m.run.program, /*prog_addr=*/0));
  for (const workloads::Step& step : m.run.steps) {
    for (const workloads::DramWrite& w : step.writes) {
      RETURN_IF_ERROR(card->WriteDram(w.addr, w.bytes.data(), w.bytes.size()));
    }
    host::RunOptions opts;
    opts.args = step.args;
    opts.trace.enable = trace;
    opts.timeout = std::chrono::hours(1);  // the model's speed is not under test
    last.load_polls.clear();
    last.run_polls.clear();
    ASSIGN_OR_RETURN(last.result, card->Run(opts));
  }
  return last;
}

// The board's DRAM over the pages the ISA simulator's holds, and where the two first differ
// (-1: nowhere).
int64_t FirstDramDifference(SimBoard* board, const Mlp& m) {
  SparseMemory got(m.want.size());
  std::vector<uint8_t> buf(SparseMemory::kPageBytes);
  for (const auto& [page, bytes] : m.want.pages()) {
    const uint64_t addr = page * SparseMemory::kPageBytes;
    const uint64_t len = std::min<uint64_t>(SparseMemory::kPageBytes, got.size() - addr);
    const Status read = board->ReadDma(addr, buf.data(), len);
    EXPECT_TRUE(read.ok()) << read.message();
    got.Write(addr, buf.data(), len);
  }
  return got.FirstDifference(m.want);
}

TEST(SimBoardRun, MlpSmallThroughRegistersLeavesTheIsaSimulatorsDram) {
  const Mlp m = MakeMlp();
  auto board = MakeBoard();
  StatusOr<HostRun> run = RunMlp(board.get(), m);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_GT(run->result.counters.cycles, 0);
  EXPECT_EQ(run->run_polls.back() & isa::kSTATUS_HALTED, isa::kSTATUS_HALTED);
  EXPECT_EQ(FirstDramDifference(board.get(), m), -1);

  // Again on a memory that withholds ready 20% of the cycles: same bytes, more cycles.
  rtl::DramOptions stall = SimBoardOptions::DefaultMemory();
  stall.stall_percent = 20;
  board->SetMemory(stall);
  StatusOr<HostRun> stalled = RunMlp(board.get(), m);
  ASSERT_TRUE(stalled.ok()) << stalled.status().message();
  EXPECT_EQ(FirstDramDifference(board.get(), m), -1);
  EXPECT_GT(stalled->result.counters.cycles, run->result.counters.cycles);
  std::printf("mlp-small on the board model: %llu cycles (axi), %llu (axi stall 20)\n",
              (unsigned long long)run->result.counters.cycles,
              (unsigned long long)stalled->result.counters.cycles);
}

// Counts the run's cycles through the lossless tap.
class CycleCounter : public rtl::ClockHook {
 public:
  void OnRunStart() override { ++runs; }
  void OnClock(const rtl::CoreCycle&) override { ++cycles; }
  int runs = 0;
  int64_t cycles = 0;
};

TEST(SimBoardRun, HooksSeeEveryCycleOfARun) {
  const Mlp m = MakeMlp();
  auto board = MakeBoard();
  CycleCounter counter;
  board->AddHook(&counter);
  StatusOr<HostRun> run = RunMlp(board.get(), m);
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(counter.runs, int(m.run.steps.size()));
  EXPECT_EQ(counter.cycles, run->result.counters.cycles);
}

TEST(SimBoardRun, TraceWindowHoldsTheRecordsTheTraceRegistersRead) {
  const Mlp m = MakeMlp();
  auto board = MakeBoard();
  StatusOr<HostRun> run = RunMlp(board.get(), m, /*trace=*/true);
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_TRUE(run->result.trace.has_value());
  ASSERT_GT(run->result.trace->count, 0);
  const size_t n = std::min<size_t>(size_t(run->result.trace->count),
                                    size_t(BoardModel::TraceDepth()));

  ASSERT_TRUE(board->WriteReg(Off(isa::Reg::kTRACE_ADDR), 0).ok());
  std::vector<uint64_t> by_regs(n);
  for (uint64_t& r : by_regs) {
    const uint32_t lo = Read(*board, Off(isa::Reg::kTRACE_LO));
    const uint32_t hi = Read(*board, Off(isa::Reg::kTRACE_HI));
    r = uint64_t{hi} << 32 | lo;
  }
  std::vector<uint64_t> by_dma(n);
  ASSERT_TRUE(board->ReadDma(host::kTraceWindowBase, by_dma.data(), 8 * n).ok());
  EXPECT_EQ(by_dma, by_regs);
  EXPECT_EQ(by_regs[0] >> 60, uint64_t(isa::RecordType::kDISPATCH));  // a real record

  // Any alignment: bytes 3 .. 3 + 8·5 + 2 of the window.
  ASSERT_GE(n, 6u);
  std::vector<uint8_t> part(8 * 5 + 2);
  ASSERT_TRUE(board->ReadDma(host::kTraceWindowBase + 3, part.data(), part.size()).ok());
  EXPECT_EQ(0, std::memcmp(part.data(), reinterpret_cast<const uint8_t*>(by_regs.data()) + 3,
                           part.size()));
}

// What the host saw of mlp-small on a board with `quantum_cycles`, one line per fact; run
// in a forked child (a process has one SystemC kernel).
std::string HostView(int quantum_cycles) {
  const Mlp m = MakeMlp();
  SimBoardOptions opts;
  opts.quantum_cycles = quantum_cycles;
  StatusOr<std::unique_ptr<SimBoard>> board = SimBoard::Create(opts);
  if (!board.ok()) return "error " + board.status().message();
  StatusOr<HostRun> run = RunMlp(board->get(), m);
  if (!run.ok()) return "error " + run.status().message();
  std::ostringstream out;
  const host::RunCounters& c = run->result.counters;
  out << "cycles " << c.cycles << "\nrun counters " << c.icount << ' ' << c.b_rd << ' ' << c.b_wr
      << ' ' << c.a_rd << ' ' << c.a_wr << ' ' << c.b_stall;
  out << "\nfree-running counters over the run";
  if (!c.free_running) return "error: Card read no free-running counters";
  for (int64_t v : *c.free_running) out << ' ' << v;
  out << "\nload polls";
  for (uint32_t s : run->load_polls) out << ' ' << s;
  out << "\nrun polls";
  for (uint32_t s : run->run_polls) out << ' ' << s;
  out << "\nboard cycles " << (*board)->cycles();
  out << "\nfirst DRAM difference from the ISA simulator "
      << FirstDramDifference(board->get(), m) << "\n";
  return out.str();
}

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> lines;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(SimBoardRunQuantum, TemporalDecouplingDoesNotChangeWhatTheHostSees) {
  StatusOr<std::string> one_text = RunInChild([] { return HostView(1); });
  StatusOr<std::string> big_text = RunInChild([] { return HostView(1024); });
  ASSERT_TRUE(one_text.ok()) << one_text.status().message();
  ASSERT_TRUE(big_text.ok()) << big_text.status().message();
  const std::vector<std::string> one = Lines(*one_text);
  const std::vector<std::string> big = Lines(*big_text);
  ASSERT_EQ(one.size(), 7u) << (one.empty() ? "" : one[0]);
  ASSERT_EQ(big.size(), one.size()) << (big.empty() ? "" : big[0]);
  for (size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i], big[i]);
  EXPECT_EQ(one.back(), "first DRAM difference from the ISA simulator -1");
  // The host polled STATUS through the run many times, so the sequences say something.
  EXPECT_GT(std::count(one[4].begin(), one[4].end(), ' '), 10) << one[4];
}

}  // namespace
}  // namespace otpu::board
