// Card on the board model (SimBoard): probe, the run protocol's errors, counters and the trace
// drain. SystemC allows one board per process: ctest runs every case as its own process (run
// the binary with --gtest_filter for one case).
#include "host/card.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <csignal>
#include <thread>

#include "host/stop_request.h"
#include "sim/board/board_model.h"
#include "sim/board/sim_board.h"
#include "sim/isa/isa_sim.h"
#include "sim/rtl/rtl_harness.h"
#include "sim/rtl/trace/trace_unit_model.h"
#include "base/strings.h"
#include "workloads/isa/program.h"

namespace otpu::host {
namespace {

using isa::Reg;

// The board model behind a tap that notes every register offset the host touches and can
// make a register read as something else (a card of another kind).
class TappedBoard : public BoardIface {
 public:
  explicit TappedBoard(BoardIface* inner) : inner_(inner) {}
  void Override(Reg reg, std::function<uint32_t(uint32_t)> f) { overrides_[uint32_t(reg)] = f; }
  const std::vector<uint32_t>& offsets() const { return offsets_; }

  StatusOr<uint32_t> ReadReg(uint32_t offset) override {
    offsets_.push_back(offset);
    ASSIGN_OR_RETURN(uint32_t v, inner_->ReadReg(offset));
    auto it = overrides_.find(offset);
    return it == overrides_.end() ? v : it->second(v);
  }
  Status WriteReg(uint32_t offset, uint32_t value) override {
    offsets_.push_back(offset);
    return inner_->WriteReg(offset, value);
  }
  Status WriteDma(uint64_t a, const void* d, size_t n) override {
    return inner_->WriteDma(a, d, n);
  }
  Status ReadDma(uint64_t a, void* d, size_t n) override { return inner_->ReadDma(a, d, n); }
  std::string Describe() const override { return inner_->Describe(); }

 private:
  BoardIface* inner_;
  std::map<uint32_t, std::function<uint32_t(uint32_t)>> overrides_;
  std::vector<uint32_t> offsets_;
};

std::unique_ptr<board::SimBoard> NewBoard(int regmap = 2, int dma_setup_ns = 2000) {
  board::SimBoardOptions o;
  o.regmap = regmap;
  o.dma_setup_ns = dma_setup_ns;
  auto b = board::SimBoard::Create(o);
  OTPU_CHECK(b.ok());
  return std::move(b).value();
}

std::unique_ptr<Card> Probe(BoardIface* board) {
  auto c = Card::Probe(board);
  OTPU_CHECK(c.ok());
  return std::move(c).value();
}

// `n` VOP copies of 256 words (32 cycles each at 8 lanes: slow enough for the trace queue).
isa::Program Copies(uint32_t n) {
  isa::ProgramBuilder b;
  b.Loop(n, [&] {
    b.Vop({.fn = isa::VopFn::kCOPY, .dst = isa::At(4096), .a = isa::At(0), .b = {}, .n = 256});
  });
  return b.Finish();
}

// Instructions the ISA simulator retires running `p` (what ICOUNT must say).
int64_t IsaRetired(const isa::Program& p) {
  SparseMemory dram(rtl::BuiltConfig().DRAM_BYTES);
  sim::IsaSim isa_sim(rtl::BuiltConfig(), &dram);
  OTPU_CHECK(isa_sim.LoadProgram(p).ok());
  auto events = isa_sim.Run({});
  OTPU_CHECK(events.ok());
  return events->retired;
}

TEST(CardProbe, ReadsTheBoardsConfigurationAndCaps) {
  auto board = NewBoard();
  auto card = Card::Probe(board.get());
  ASSERT_TRUE(card.ok()) << card.status().message();
  const CardInfo& info = (*card)->info();
  EXPECT_EQ(info.regmap, 2);
  EXPECT_EQ(info.config.name, rtl::BuiltConfig().name);
  EXPECT_EQ(info.version, rtl::BuiltConfig().Version());
  EXPECT_TRUE(info.has_trace());
  EXPECT_TRUE(info.has_trace_window());
  EXPECT_EQ(info.trace_depth(), board::BoardModel::TraceDepth());
  EXPECT_EQ(info.core_khz, 100000u);
  EXPECT_EQ(info.clock_mhz(), 100.0);
  EXPECT_GT(info.counter_window(), 0);
}

TEST(CardProbe, RefusesAnotherConfigurationNamingVersionAndBoth) {
  auto board = NewBoard();
  const isa::Config built = rtl::BuiltConfig();
  const isa::Config other = built.name == "sim" ? isa::Config::Board() : isa::Config::Sim();
  auto card = Card::Probe(board.get(), other);
  ASSERT_FALSE(card.ok());
  EXPECT_EQ(card.status().code(), StatusCode::kInvalidArgument);
  auto version = [](const isa::Config& c) {
    return StrFormat("VERSION 0x%08X (D %d, MCOLS %d, LANES %d)", c.Version(), c.D, c.MCOLS,
                     c.LANES);
  };
  EXPECT_EQ(card.status().message(),
            StrFormat("board model: VERSION reads 0x%08X (D %d, MCOLS %d, LANES %d) (config %s), "
                      "but the work was built for config %s, %s",
                      built.Version(), built.D, built.MCOLS, built.LANES, built.name.c_str(),
                      other.name.c_str(), version(other).c_str()));
}

TEST(CardProbe, RefusesABoardThatIsNotAnOpenTpu) {
  auto board = NewBoard();
  TappedBoard tap(board.get());
  tap.Override(Reg::kID, [](uint32_t) { return 0x12345678u; });
  auto card = Card::Probe(&tap);
  ASSERT_FALSE(card.ok());
  EXPECT_NE(card.status().message().find(
                "board model: ID reads 0x12345678, expected 0x4F545055 (\"OTPU\")"),
            std::string::npos)
      << card.status().message();
}

TEST(CardProbe, RefusesAnUnknownConfigurationAndAnUnknownMap) {
  auto board = NewBoard();
  TappedBoard tap(board.get());
  tap.Override(Reg::kVERSION, [](uint32_t) { return 0x00400408u; });
  auto card = Card::Probe(&tap);
  ASSERT_FALSE(card.ok());
  EXPECT_NE(card.status().message().find("VERSION reads 0x00400408 (D 64, MCOLS 4, LANES 8), "
                                         "which is no known configuration"),
            std::string::npos)
      << card.status().message();
  tap.Override(Reg::kREGMAP, [](uint32_t) { return 3u; });
  card = Card::Probe(&tap);
  ASSERT_FALSE(card.ok());
  EXPECT_NE(card.status().message().find("REGMAP reads 0x00000003"), std::string::npos)
      << card.status().message();
}

// A map-1 board: REGMAP is read first (it answers 0xDEADBEEF) and nothing above SCRATCH after.
TEST(CardProbe, MapOneCardIsNeverAskedForVersionTwoRegisters) {
  auto board = NewBoard(/*regmap=*/1);
  TappedBoard tap(board.get());
  auto card = Card::Probe(&tap);
  ASSERT_TRUE(card.ok()) << card.status().message();
  EXPECT_EQ((*card)->info().regmap, 1);
  EXPECT_FALSE((*card)->info().has_trace());
  ASSERT_TRUE((*card)->WriteProgram(Copies(4), 0).ok());
  auto run = (*card)->Run({});
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_GT(run->counters.cycles, 4 * 32);
  EXPECT_FALSE(run->counters.free_running.has_value());
  ASSERT_FALSE(tap.offsets().empty());
  EXPECT_EQ(tap.offsets()[0], uint32_t(Reg::kREGMAP));
  for (size_t i = 1; i < tap.offsets().size(); ++i) {
    EXPECT_LE(tap.offsets()[i], uint32_t(Reg::kSCRATCH)) << "access " << i;
  }
  RunOptions traced;
  traced.trace.enable = true;
  auto refused = (*card)->Run(traced);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(
      refused.status().message().find("needs a trace buffer, but the card has register map 1"),
      std::string::npos)
      << refused.status().message();
  RunOptions with_arg;
  with_arg.args[3] = 5;
  refused = (*card)->Run(with_arg);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            "board model: ARG3 = 0x5, but a register-map-1 card has no ARG registers");
}

TEST(CardRun, CountsTheRunOnBothCounterSets) {
  auto board = NewBoard();
  auto card = Probe(board.get());
  ASSERT_TRUE(card->WriteProgram(Copies(10), 0).ok());
  auto run = card->Run({});
  ASSERT_TRUE(run.ok()) << run.status().message();
  const RunCounters& c = run->counters;
  EXPECT_TRUE(run->status & isa::kSTATUS_HALTED);
  EXPECT_GE(c.cycles, 10 * 32);
  EXPECT_EQ(c.icount, IsaRetired(Copies(10)));
  EXPECT_EQ(c.b_rd + c.b_wr + c.a_rd + c.a_wr, 0);  // TMEM only
  ASSERT_TRUE(c.free_running.has_value());
  const auto& f = *c.free_running;
  EXPECT_GE(f[size_t(isa::Counter::kUPTIME)], c.cycles);
  EXPECT_GE(f[size_t(isa::Counter::kVPU_BUSY)], 10 * 32);
  EXPECT_EQ(f[size_t(isa::Counter::kMXU_BUSY)], 0);
  EXPECT_FALSE(run->trace.has_value());
}

TEST(CardRun, PollObserverSeesEveryPolledValueInOrder) {
  auto board = NewBoard();
  TappedBoard tap(board.get());
  auto card = Probe(&tap);
  std::vector<std::pair<PollWait, uint32_t>> seen;
  card->set_poll_observer([&seen](PollWait wait, uint32_t v) { seen.emplace_back(wait, v); });
  ASSERT_TRUE(card->WriteProgram(Copies(10), 0).ok());
  RunOptions opts;
  opts.trace.enable = true;
  const size_t reads_before = tap.offsets().size();
  auto run = card->Run(opts);
  ASSERT_TRUE(run.ok()) << run.status().message();
  // Loading, then the run, then the drain, each ending on the value that let Run go on.
  std::vector<PollWait> phases;
  for (const auto& [wait, v] : seen) {
    if (phases.empty() || phases.back() != wait) phases.push_back(wait);
  }
  EXPECT_EQ(phases,
            (std::vector<PollWait>{PollWait::kLoad, PollWait::kHalt, PollWait::kTraceDrain}));
  auto last_of = [&](PollWait w) {
    uint32_t last = 0;
    for (const auto& [wait, v] : seen) last = wait == w ? v : last;
    return last;
  };
  EXPECT_EQ(last_of(PollWait::kLoad) & isa::kSTATUS_LOADING, 0u);
  EXPECT_EQ(last_of(PollWait::kHalt), run->status);
  EXPECT_EQ(last_of(PollWait::kTraceDrain) & isa::kTRACE_CTRL_BUSY, 0u);
  // A run of 320+ cycles at 100 cycles a read: the host polled STATUS while it ran.
  EXPECT_GT(std::count_if(seen.begin(), seen.end(),
                          [](const auto& p) { return p.first == PollWait::kHalt; }),
            2);
  // Every value seen is a register read the board served: STATUS or TRACE_CTRL.
  const uint32_t kStatus = uint32_t(Reg::kSTATUS), kTraceCtrl = uint32_t(Reg::kTRACE_CTRL);
  const auto polled = std::count_if(tap.offsets().begin() + long(reads_before), tap.offsets().end(),
                                    [&](uint32_t o) { return o == kStatus || o == kTraceCtrl; });
  EXPECT_GE(polled, long(seen.size()));
}

TEST(CardRun, IllegalInstructionIsAnErrorNamingTheStatusBit) {
  auto board = NewBoard();
  auto card = Probe(board.get());
  isa::Program p = Copies(1);
  isa::Instr bad;
  bad.w[0] = 0xEE;  // no such opcode
  p.code.insert(p.code.begin() + 1, bad);
  p.source.insert(p.source.begin() + 1, -1);
  p.comment.insert(p.comment.begin() + 1, "");
  ASSERT_TRUE(card->WriteProgram(p, 0).ok());
  auto run = card->Run({});
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kInternal);
  EXPECT_NE(run.status().message().find("an illegal instruction (ERROR); STATUS"),
            std::string::npos)
      << run.status().message();
  EXPECT_NE(run.status().message().find("ERROR"), std::string::npos);
}

// The timeout names STATUS; CTRL=0 then aborts the run (RUN is a level: the board resets the
// core once its DRAM reads are answered), the message says so, and the card runs the next program.
TEST(CardRun, RunThatNeverHaltsTimesOutNamingStatusAndCtrlZeroStopsIt) {
  auto board = NewBoard();
  auto card = Probe(board.get());
  ASSERT_TRUE(card->WriteProgram(Copies(0xFFFFFFFFu), 0).ok());
  RunOptions opts;
  opts.timeout = std::chrono::milliseconds(300);
  auto run = card->Run(opts);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kDeadlineExceeded);
  const std::string& m = run.status().message();
  EXPECT_NE(m.find("board model: the run did not halt within 300 ms: STATUS reads"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("RUNNING); stopped the run (CTRL=0)"), std::string::npos) << m;
  auto status = board->ReadReg(uint32_t(Reg::kSTATUS));
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(*status & (isa::kSTATUS_RUNNING | isa::kSTATUS_HALTED), 0u);

  ASSERT_TRUE(card->WriteProgram(Copies(2), 0).ok());
  auto again = card->Run({});
  EXPECT_TRUE(again.ok()) << again.status().message();
}

// Regression: a recorder killed mid-run leaves the core running; the next holder of the lock
// stops it (RUN falling aborts the run), says so in one note and runs.
TEST(CardRun, EarlierRunStillRunningIsStoppedWithANote) {
  auto board = NewBoard();
  auto card = Probe(board.get());
  ASSERT_TRUE(card->WriteProgram(Copies(0xFFFFFFFFu), 0).ok());
  // What the killed recorder did: load and start, then nothing.
  ASSERT_TRUE(board->WriteReg(uint32_t(Reg::kPROG_ADDR), 0).ok());
  ASSERT_TRUE(board->WriteReg(uint32_t(Reg::kPROG_N), uint32_t(Copies(0xFFFFFFFFu).size())).ok());
  ASSERT_TRUE(board->WriteReg(uint32_t(Reg::kCTRL), isa::kCTRL_LOAD).ok());
  for (int i = 0; i < 1000 && (*board->ReadReg(uint32_t(Reg::kSTATUS)) & isa::kSTATUS_LOADING); ++i) {
  }
  ASSERT_TRUE(board->WriteReg(uint32_t(Reg::kCTRL), isa::kCTRL_RUN).ok());
  ASSERT_TRUE(*board->ReadReg(uint32_t(Reg::kSTATUS)) & isa::kSTATUS_RUNNING);

  std::vector<std::string> notes;
  card->set_note_sink([&](const std::string& n) { notes.push_back(n); });
  ASSERT_TRUE(card->WriteProgram(Copies(2), 0).ok());
  auto run = card->Run({});
  EXPECT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("board model: the core was still running an earlier run (STATUS"),
            std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("stopped it (CTRL=0)"), std::string::npos) << notes[0];
}

TEST(CardRun, StopRequestAbortsTheRunNamingTheSignal) {
  auto board = NewBoard();
  auto card = Probe(board.get());
  ASSERT_TRUE(card->WriteProgram(Copies(0xFFFFFFFFu), 0).ok());
  std::thread stopper([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    SetStopSignalForTest(SIGTERM);
  });
  RunOptions opts;
  opts.timeout = std::chrono::milliseconds(60000);
  auto run = card->Run(opts);
  stopper.join();
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("interrupted by SIGTERM; stopped the run (CTRL=0)"),
            std::string::npos) << run.status().message();
  auto status = board->ReadReg(uint32_t(Reg::kSTATUS));
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(*status & isa::kSTATUS_RUNNING, 0u);
  SetStopSignalForTest(0);
}

TEST(CardRun, ProgramErrorsNameTheLimit) {
  auto board = NewBoard();
  auto card = Probe(board.get());
  EXPECT_NE(card->Run({}).status().message().find("Run before a program was written"),
            std::string::npos);
  EXPECT_NE(card->WriteProgram(Copies(1), 4)
                .message()
                .find("PROG_ADDR 0x4 is not a 32-bit multiple of D"),
            std::string::npos);
  isa::Program big;
  big.code.resize(4097);
  EXPECT_NE(card->WriteProgram(big, 0).message().find("4097 instructions does not fit IMEM"),
            std::string::npos);
}

TEST(CardRun, ImageLargerThanDramAndTraceWithoutBufferAreRefused) {
  auto board = NewBoard(/*regmap=*/1);
  auto card = Probe(board.get());
  const uint64_t dram = card->config().DRAM_BYTES;
  EXPECT_EQ(card->WriteImage(SparseMemory(2 * dram)).message(),
            StrFormat("board model: an image of %llu bytes does not fit DRAM of %llu",
                      (unsigned long long)(2 * dram), (unsigned long long)dram));
  EXPECT_EQ(card->ReadTrace(false).status().message(),
            "board model: no trace buffer to read (register map 1)");
}

TEST(StatusBitNames, NamesEverySetBit) {
  EXPECT_EQ(StatusBitNames(0), "none");
  EXPECT_EQ(StatusBitNames(isa::kSTATUS_HALTED | isa::kSTATUS_ERROR), "HALTED ERROR");
  EXPECT_EQ(StatusBitNames(isa::kSTATUS_AXI_ERR | isa::kSTATUS_RUNNING), "AXI_ERR RUNNING");
}

// The same buffer through the DMA window and through TRACE_ADDR/LO/HI (a card whose CAPS lacks
// bit1, over the same board).
TEST(CardTrace, WindowAndRegistersReadTheSameRecords) {
  auto board = NewBoard();
  auto card = Probe(board.get());
  ASSERT_TRUE(card->WriteProgram(Copies(6), 0).ok());
  RunOptions opts;
  opts.trace.enable = true;
  auto run = card->Run(opts);
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_TRUE(run->trace.has_value());
  EXPECT_TRUE(run->trace->via_window);
  EXPECT_GT(run->trace->records.size(), 6u * 7);  // D O O S E U V per VOP, windows, halt
  EXPECT_EQ(int64_t(run->trace->records.size()), run->trace->count);

  TappedBoard tap(board.get());
  tap.Override(Reg::kCAPS, [](uint32_t caps) { return caps & ~isa::kCAPS_TRACE_DMA; });
  auto by_regs = Probe(&tap);
  auto drained = by_regs->ReadTrace(/*keep_last=*/false);
  ASSERT_TRUE(drained.ok()) << drained.status().message();
  EXPECT_FALSE(drained->via_window);
  EXPECT_EQ(drained->count, run->trace->count);
  EXPECT_EQ(drained->records, run->trace->records);
}

// An untraced run turns ENABLE off: the buffer keeps the traced run's records, none added.
TEST(CardTrace, UntracedRunRecordsNothing) {
  auto board = NewBoard();
  auto card = Probe(board.get());
  ASSERT_TRUE(card->WriteProgram(Copies(3), 0).ok());
  RunOptions opts;
  opts.trace.enable = true;
  auto traced = card->Run(opts);
  ASSERT_TRUE(traced.ok()) << traced.status().message();
  ASSERT_GT(traced->trace->count, 0);
  ASSERT_TRUE(card->Run({}).ok());
  auto ctrl = board->ReadReg(uint32_t(Reg::kTRACE_CTRL));
  auto count = board->ReadReg(uint32_t(Reg::kTRACE_COUNT));
  ASSERT_TRUE(ctrl.ok() && count.ok());
  EXPECT_EQ(*ctrl & isa::kTRACE_CTRL_ENABLE, 0u);
  EXPECT_EQ(int64_t(*count), traced->trace->count);
}

// A ring that wrapped, against a lossless golden trace unit on the core's own events: the
// drain is the last DEPTH records in order (the window read in two pieces).
TEST(CardTrace, WrappedRingDrainsInRingOrder) {
  auto board = NewBoard();
  auto golden = rtl::TraceUnitModel::Create({.queue_depth = 1 << 16, .depth = int64_t{1} << 22});
  ASSERT_TRUE(golden.ok());
  board->AddHook(golden->get());
  auto card = Probe(board.get());
  const int64_t depth = card->info().trace_depth();
  ASSERT_TRUE(card->WriteProgram(Copies(uint32_t(depth / 12)), 0).ok());
  RunOptions opts;
  opts.trace = {.enable = true, .keep_last = true};
  opts.timeout = std::chrono::minutes(5);
  auto run = card->Run(opts);
  ASSERT_TRUE(run.ok()) << run.status().message();
  const TraceDrain& t = *run->trace;
  ASSERT_EQ(t.drop, 0);
  ASSERT_TRUE(t.wrapped) << "count " << t.count << ", depth " << depth;
  const std::vector<uint64_t> all = (*golden)->Records();
  ASSERT_EQ(int64_t(all.size()), t.count);
  EXPECT_EQ(t.records, std::vector<uint64_t>(all.end() - depth, all.end()));
}

// ---- Streaming (TRACE_CTRL.STREAM) ----

// A lossless golden trace unit on the core's own events, and a run of `copies` VOPs streamed.
struct Streamed {
  std::unique_ptr<rtl::TraceUnitModel> golden;
  StatusOr<RunResult> run = Internal("not run");
  std::vector<size_t> chunks;  // the sink's chunk sizes
  std::vector<uint64_t> records;
};

Streamed Stream(board::SimBoard* board, uint32_t copies) {
  Streamed s;
  auto golden = rtl::TraceUnitModel::Create({.queue_depth = 1 << 16, .depth = int64_t{1} << 22});
  OTPU_CHECK(golden.ok());
  s.golden = std::move(golden).value();
  board->AddHook(s.golden.get());
  auto card = Probe(board);
  OTPU_CHECK(card->info().has_trace_stream());
  OTPU_CHECK(card->WriteProgram(Copies(copies), 0).ok());
  RunOptions opts;
  opts.trace.enable = true;
  opts.trace.stream = true;
  opts.trace.sink = [&s](const uint64_t* r, size_t n) {
    s.chunks.push_back(n);
    s.records.insert(s.records.end(), r, r + n);
    return OkStatus();
  };
  opts.timeout = std::chrono::minutes(5);
  s.run = card->Run(opts);
  return s;
}

// Twice the buffer's records, drained while the core runs: every record, in order, none
// dropped, many chunks; the run's CYCLES are what a run with no trace takes.
TEST(CardStream, DrainsTheWholeRunWhileItRuns) {
  auto board = NewBoard();
  const int64_t depth = board::BoardModel::TraceDepth();
  Streamed s = Stream(board.get(), uint32_t(depth / 6));
  ASSERT_TRUE(s.run.ok()) << s.run.status().message();
  const TraceDrain& t = *s.run->trace;
  EXPECT_TRUE(t.stream);
  EXPECT_EQ(t.drop, 0);
  EXPECT_GT(t.count, 2 * depth - depth / 4);
  EXPECT_EQ(t.drained, t.count);
  EXPECT_TRUE(t.records.empty()) << "the sink took them";
  EXPECT_EQ(s.records, s.golden->Records());
  EXPECT_GT(s.chunks.size(), 100u);
  EXPECT_EQ(int64_t(s.chunks.size()), t.drains);
  EXPECT_LT(*std::max_element(s.chunks.begin(), s.chunks.end()), size_t(depth));
}

// A host whose DMA reads take 5 ms (500k core cycles) falls behind: the unit drops whole
// bundles, DROP counts exactly the lines the host never got, and what it got is the run's
// records with whole bundles missing.
TEST(CardStream, SlowHostDropsWholeBundlesCountedExactly) {
  auto board = NewBoard(2, /*dma_setup_ns=*/5000000);
  const int64_t depth = board::BoardModel::TraceDepth();
  Streamed s = Stream(board.get(), uint32_t(depth / 6));
  ASSERT_TRUE(s.run.ok()) << s.run.status().message();
  const TraceDrain& t = *s.run->trace;
  const std::vector<uint64_t> all = s.golden->Records();
  EXPECT_GT(t.drop, 0);
  EXPECT_EQ(t.drained, t.count);
  EXPECT_EQ(t.count + t.drop, int64_t(all.size()));
  ASSERT_EQ(int64_t(s.records.size()), t.count);
  // Where: every dropped line is in a gap, each a range of the drained stream.
  int64_t gap_lines = 0;
  for (const TraceGap& g : t.gaps) {
    EXPECT_LE(g.from, g.to);
    EXPECT_EQ(g.to - g.from, depth);
    gap_lines += g.lines;
  }
  EXPECT_EQ(gap_lines, t.drop);
  ASSERT_FALSE(t.gaps.empty());
  size_t at = 0;
  for (uint64_t r : s.records) {
    while (at < all.size() && all[at] != r) ++at;
    ASSERT_LT(at, all.size()) << "a drained record that the run did not make";
    ++at;
  }
}

// Without a sink the records are kept in TraceDrain::records; keep first goes through the
// sink too.
TEST(CardStream, WithoutASinkTheDrainKeepsTheRecordsAndKeepFirstUsesTheSink) {
  auto board = NewBoard();
  auto card = Probe(board.get());
  ASSERT_TRUE(card->WriteProgram(Copies(40), 0).ok());
  RunOptions opts;
  opts.trace.enable = true;
  opts.trace.stream = true;
  auto streamed = card->Run(opts);
  ASSERT_TRUE(streamed.ok()) << streamed.status().message();
  EXPECT_EQ(int64_t(streamed->trace->records.size()), streamed->trace->count);
  std::vector<uint64_t> sunk;
  opts.trace.stream = false;
  opts.trace.sink = [&sunk](const uint64_t* r, size_t n) {
    sunk.insert(sunk.end(), r, r + n);
    return OkStatus();
  };
  auto first = card->Run(opts);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_FALSE(first->trace->stream);
  EXPECT_TRUE(first->trace->records.empty());
  EXPECT_EQ(sunk, streamed->trace->records);
}

TEST(CardStream, RefusedOnACardWithoutTheCapability) {
  auto board = NewBoard();
  TappedBoard tap(board.get());
  tap.Override(Reg::kCAPS, [](uint32_t caps) { return caps & ~isa::kCAPS_TRACE_STREAM; });
  auto card = Probe(&tap);
  EXPECT_FALSE(card->info().has_trace_stream());
  ASSERT_TRUE(card->WriteProgram(Copies(2), 0).ok());
  RunOptions opts;
  opts.trace.enable = true;
  opts.trace.stream = true;
  auto run = card->Run(opts);
  ASSERT_EQ(run.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(run.status().message().find("CAPS bit2 (streaming trace)"), std::string::npos)
      << run.status().message();
}

// The sink's error ends the run (CTRL=0) and is Run's error.
TEST(CardStream, SinkErrorStopsTheRun) {
  auto board = NewBoard();
  auto card = Probe(board.get());
  ASSERT_TRUE(card->WriteProgram(Copies(2000), 0).ok());
  RunOptions opts;
  opts.trace.enable = true;
  opts.trace.stream = true;
  opts.trace.sink = [](const uint64_t*, size_t) { return DataLoss("decoder: record 3 is bad"); };
  auto run = card->Run(opts);
  ASSERT_EQ(run.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(run.status().message(), "decoder: record 3 is bad");
  auto status = board->ReadReg(uint32_t(Reg::kSTATUS));
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(*status & isa::kSTATUS_RUNNING, 0u) << StatusBitNames(*status);
  auto ctrl = board->ReadReg(uint32_t(Reg::kCTRL));
  ASSERT_TRUE(ctrl.ok());
  EXPECT_EQ(*ctrl, 0u);
}

// A write index more than DEPTH records past the read pointer is a broken card: DataLoss
// naming both registers.
TEST(CardStream, WriteIndexPastTheRingIsDataLoss) {
  auto board = NewBoard();
  TappedBoard tap(board.get());
  auto card = Probe(&tap);
  const int64_t depth = card->info().trace_depth();
  tap.Override(Reg::kTRACE_WIDX, [depth](uint32_t w) { return w + uint32_t(depth) + 1; });
  ASSERT_TRUE(card->WriteProgram(Copies(2), 0).ok());
  RunOptions opts;
  opts.trace.enable = true;
  opts.trace.stream = true;
  auto run = card->Run(opts);
  ASSERT_EQ(run.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(run.status().message().find("TRACE_WIDX reads"), std::string::npos)
      << run.status().message();
  EXPECT_NE(run.status().message().find("TRACE_RPTR at 0"), std::string::npos)
      << run.status().message();
}

}  // namespace
}  // namespace otpu::host
