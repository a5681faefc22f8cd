// The host runtime (Card) over XdmaBoard over otpu-xdma-emu: a real program written by DMA,
// loaded and run through the register file, its DRAM equal to the ISA simulator's; a run that
// never halts times out naming STATUS; a map-1 card probes as one.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "host/card.h"
#include "host/xdma/xdma_board.h"
#include "host/xdma_emu/test_emulator.h"
#include "sim/isa/isa_sim.h"
#include "workloads/isa/instr.h"
#include "workloads/isa/program.h"
#include "workloads/list.h"

namespace otpu::host {
namespace {

using xdma_emu::testing::Emulator;

constexpr uint64_t kProgAddr = 0;
// The board model runs far slower than a card; a run of mlp-small takes seconds.
constexpr std::chrono::milliseconds kRunTimeout{300000};

std::unique_ptr<XdmaBoard> Open(const Emulator& emu) {
  StatusOr<std::unique_ptr<XdmaBoard>> board = XdmaBoard::Create(emu.prefix());
  EXPECT_TRUE(board.ok()) << board.status().message();
  return board.ok() ? std::move(board).value() : nullptr;
}

// What a run of mlp-small on an emulator left: the last step's cycles, where the card's DRAM
// first differs from the ISA simulator's (-1: nowhere) and the workload's check.
struct MlpOutcome {
  int64_t cycles = 0;
  int64_t first_difference = 0;
  workloads::CheckReport check;
};

// Writes mlp-small's image and program by DMA and runs every step through Card over
// XdmaBoard over the emulator, with the ISA simulator alongside.
StatusOr<MlpOutcome> RunMlpSmall(const Emulator& emu) {
  ASSIGN_OR_RETURN(std::unique_ptr<XdmaBoard> board, XdmaBoard::Create(emu.prefix()));
  ASSIGN_OR_RETURN(std::unique_ptr<Card> card, Card::Probe(board.get()));
  ASSIGN_OR_RETURN(workloads::WorkloadRun run,
                   workloads::MakeWorkload("mlp-small", card->config()));
  SparseMemory want = run.image;
  sim::IsaSim isa(run.config, &want);
  RETURN_IF_ERROR(isa.LoadProgram(run.program));
  RETURN_IF_ERROR(card->WriteImage(run.image));
  RETURN_IF_ERROR(card->WriteProgram(run.program, kProgAddr));
  MlpOutcome outcome;
  for (const workloads::Step& step : run.steps) {
    for (const workloads::DramWrite& w : step.writes) {
      want.Write(w.addr, w.bytes.data(), w.bytes.size());
      RETURN_IF_ERROR(card->WriteDram(w.addr, w.bytes.data(), w.bytes.size()));
    }
    sim::IsaRunOptions isa_opts;
    isa_opts.args = step.args;
    RETURN_IF_ERROR(isa.Run(isa_opts).status());
    RunOptions opts;
    opts.args = step.args;
    opts.timeout = kRunTimeout;
    ASSIGN_OR_RETURN(RunResult result, card->Run(opts));
    outcome.cycles = result.counters.cycles;
  }
  SparseMemory got(want.size());
  std::vector<uint8_t> page(SparseMemory::kPageBytes);
  for (const auto& [index, bytes] : want.pages()) {
    const uint64_t addr = index * SparseMemory::kPageBytes;
    RETURN_IF_ERROR(card->ReadDram(addr, page.data(), page.size()));
    got.Write(addr, page.data(), page.size());
  }
  outcome.first_difference = got.FirstDifference(want);
  outcome.check = run.check(got);
  return outcome;
}

// Writes mlp-small's image and program to `card`, then its first step's DRAM writes: the step,
// ready to run.
StatusOr<workloads::Step> LoadMlpSmallFirstStep(Card* card) {
  ASSIGN_OR_RETURN(workloads::WorkloadRun run,
                   workloads::MakeWorkload("mlp-small", card->config()));
  RETURN_IF_ERROR(card->WriteImage(run.image));
  RETURN_IF_ERROR(card->WriteProgram(run.program, kProgAddr));
  workloads::Step step = run.steps.front();
  for (const workloads::DramWrite& w : step.writes) {
    RETURN_IF_ERROR(card->WriteDram(w.addr, w.bytes.data(), w.bytes.size()));
  }
  return step;
}

TEST(XdmaCard, MlpSmallLeavesTheIsaSimulatorsDram) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  StatusOr<MlpOutcome> outcome = RunMlpSmall(emu);
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  EXPECT_GT(outcome->cycles, 0);
  EXPECT_EQ(outcome->first_difference, -1);
  EXPECT_TRUE(outcome->check.ok()) << outcome->check.detail;
}

TEST(XdmaCard, StallingDramSlowsTheRunButLeavesTheSameBytes) {
  Emulator plain;
  ASSERT_TRUE(plain.ready()) << plain.startup_output();
  StatusOr<MlpOutcome> fast = RunMlpSmall(plain);
  ASSERT_TRUE(fast.ok()) << fast.status().message();
  Emulator stalling({"--stall", "30"});
  ASSERT_TRUE(stalling.ready()) << stalling.startup_output();
  StatusOr<MlpOutcome> slow = RunMlpSmall(stalling);
  ASSERT_TRUE(slow.ok()) << slow.status().message();
  EXPECT_EQ(slow->first_difference, -1);
  EXPECT_GT(slow->cycles, fast->cycles);
}

TEST(XdmaCard, TraceDrainedThroughTheDmaWindowMatchesTheRegisters) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  StatusOr<std::unique_ptr<Card>> card = Card::Probe(board.get());
  ASSERT_TRUE(card.ok()) << card.status().message();
  ASSERT_TRUE((*card)->info().has_trace_window());
  StatusOr<workloads::Step> step = LoadMlpSmallFirstStep(card->get());
  ASSERT_TRUE(step.ok()) << step.status().message();
  RunOptions opts;
  opts.args = step->args;
  opts.timeout = kRunTimeout;
  opts.trace.enable = true;
  StatusOr<RunResult> result = (*card)->Run(opts);
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_TRUE(result->trace.has_value());
  const TraceDrain& drain = *result->trace;
  EXPECT_TRUE(drain.via_window);
  EXPECT_FALSE(drain.wrapped);
  ASSERT_GT(drain.records.size(), 0u);
  ASSERT_EQ(static_cast<int64_t>(drain.records.size()), std::min(drain.count, drain.depth));
  // The same records through TRACE_ADDR/LO/HI (a register read costs the board model a
  // simulated microsecond, so compare a slice at each end of the buffer's used part).
  const int64_t n = static_cast<int64_t>(drain.records.size());
  const int64_t slice = std::min<int64_t>(n, 32);
  for (int64_t first : {int64_t{0}, n - slice}) {
    ASSERT_TRUE(board->WriteReg(static_cast<uint32_t>(isa::Reg::kTRACE_ADDR),
                                static_cast<uint32_t>(first))
                    .ok());
    for (int64_t i = first; i < first + slice; ++i) {
      StatusOr<uint32_t> lo = board->ReadReg(static_cast<uint32_t>(isa::Reg::kTRACE_LO));
      StatusOr<uint32_t> hi = board->ReadReg(static_cast<uint32_t>(isa::Reg::kTRACE_HI));
      ASSERT_TRUE(lo.ok() && hi.ok());
      EXPECT_EQ((uint64_t{*hi} << 32) | *lo, drain.records[static_cast<size_t>(i)])
          << "record " << i;
    }
  }
}

TEST(XdmaCard, RunThatNeverHaltsTimesOutNamingStatus) {
  Emulator emu({"--fault", "hang"});
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  StatusOr<std::unique_ptr<Card>> card = Card::Probe(board.get());
  ASSERT_TRUE(card.ok()) << card.status().message();
  isa::Program halt_only;
  halt_only.code.push_back(isa::EncodeHalt());
  halt_only.source.push_back(-1);
  halt_only.comment.push_back("");
  ASSERT_TRUE((*card)->WriteProgram(halt_only, kProgAddr).ok());
  RunOptions opts;
  opts.timeout = std::chrono::milliseconds(1500);
  StatusOr<RunResult> result = (*card)->Run(opts);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_NE(result.status().message().find("STATUS"), std::string::npos)
      << result.status().message();
  EXPECT_NE(result.status().message().find("RUNNING"), std::string::npos)
      << result.status().message();
}

// --timeout is card time (host/card.cc): the emulator's board model runs about a thousand
// times slower than its 100 MHz clock, so a run that takes longer than the timeout in wall
// time but far less in card cycles goes on while RUNNING moves, and completes.
TEST(XdmaCard, RunLongerThanTheTimeoutInWallTimeButNotInCardTimeCompletes) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  StatusOr<std::unique_ptr<Card>> card = Card::Probe(board.get());
  ASSERT_TRUE(card.ok()) << card.status().message();
  StatusOr<workloads::Step> step = LoadMlpSmallFirstStep(card->get());
  ASSERT_TRUE(step.ok()) << step.status().message();
  RunOptions opts;
  opts.args = step->args;
  opts.timeout = std::chrono::milliseconds(5);  // 500 000 cycles of card time
  const auto start = std::chrono::steady_clock::now();
  StatusOr<RunResult> result = (*card)->Run(opts);
  const auto wall = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_LT(result->counters.cycles, 500000);
  EXPECT_GT(wall, opts.timeout) << "the run must outlast the timeout for the test to mean it";
}

TEST(XdmaCard, MapOneEmulatorProbesAsAMapOneCard) {
  Emulator emu({"--regmap", "1"});
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  StatusOr<std::unique_ptr<Card>> card = Card::Probe(board.get());
  ASSERT_TRUE(card.ok()) << card.status().message();
  EXPECT_EQ((*card)->info().regmap, 1);
  EXPECT_FALSE((*card)->info().has_trace());
  EXPECT_FALSE((*card)->info().has_counters());
}

// ---- Streaming through XDMA ----

// `n` VOP copies of 256 words: 7 records and 32 cycles each, plus the windows.
isa::Program Copies(uint32_t n) {
  isa::ProgramBuilder b;
  b.Loop(n, [&] {
    b.Vop({.fn = isa::VopFn::kCOPY, .dst = isa::At(4096), .a = isa::At(0), .b = {}, .n = 256});
  });
  return b.Finish();
}

// One streamed run of Copies(12000) (about 180k records, almost three buffers) on `emu`:
// the drain and the records the sink got.
struct StreamOutcome {
  TraceDrain drain;
  std::vector<uint64_t> records;
};

StatusOr<StreamOutcome> StreamCopies(const Emulator& emu) {
  ASSIGN_OR_RETURN(std::unique_ptr<XdmaBoard> board, XdmaBoard::Create(emu.prefix()));
  ASSIGN_OR_RETURN(std::unique_ptr<Card> card, Card::Probe(board.get()));
  if (!card->info().has_trace_stream()) return Internal("the emulated card cannot stream");
  RETURN_IF_ERROR(card->WriteProgram(Copies(12000), kProgAddr));
  StreamOutcome out;
  RunOptions opts;
  opts.timeout = kRunTimeout;
  opts.trace.enable = true;
  opts.trace.stream = true;
  opts.trace.sink = [&out](const uint64_t* r, size_t n) {
    out.records.insert(out.records.end(), r, r + n);
    return OkStatus();
  };
  ASSIGN_OR_RETURN(RunResult result, card->Run(opts));
  out.drain = *result.trace;
  return out;
}

// The card keeps up through XDMA: the whole run, nothing dropped. With `--fault slow:c2h:5`
// every DMA read waits 5 ms while the card runs 500k cycles: the ring fills, the unit drops
// whole bundles, and DROP is exactly the lines the host did not get.
TEST(XdmaCard, SlowHostStreamDropsWholeBundlesCountedExactly) {
  Emulator plain;
  ASSERT_TRUE(plain.ready()) << plain.startup_output();
  StatusOr<StreamOutcome> fast = StreamCopies(plain);
  ASSERT_TRUE(fast.ok()) << fast.status().message();
  EXPECT_EQ(fast->drain.drop, 0);
  EXPECT_EQ(fast->drain.drained, fast->drain.count);
  ASSERT_EQ(static_cast<int64_t>(fast->records.size()), fast->drain.count);
  EXPECT_GT(fast->drain.count, 2 * fast->drain.depth);

  Emulator slow_emu({"--fault", "slow:c2h:5"});
  ASSERT_TRUE(slow_emu.ready()) << slow_emu.startup_output();
  StatusOr<StreamOutcome> slow = StreamCopies(slow_emu);
  ASSERT_TRUE(slow.ok()) << slow.status().message();
  const std::vector<uint64_t>& all = fast->records;
  EXPECT_GT(slow->drain.drop, 0);
  EXPECT_EQ(slow->drain.drained, slow->drain.count);
  EXPECT_EQ(slow->drain.count + slow->drain.drop, static_cast<int64_t>(all.size()));
  size_t at = 0;
  for (uint64_t r : slow->records) {
    while (at < all.size() && all[at] != r) ++at;
    ASSERT_LT(at, all.size()) << "a drained record that the run did not make";
    ++at;
  }
}

}  // namespace
}  // namespace otpu::host
