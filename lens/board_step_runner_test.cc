// BoardStepRunner on the board model: a map-1 bitstream's counters-only profiles, a trace
// longer than the buffer, and the errors. One SimBoard per process: ctest runs each case alone.
#include "lens/board_step_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>

#include "lens/board_record.h"
#include "lens/build_hw_profile.h"
#include "sim/board/sim_board.h"
#include "base/strings.h"
#include "workloads/list.h"

namespace otpu::lens {
namespace {

struct OnBoard {
  std::unique_ptr<board::SimBoard> board;
  std::unique_ptr<host::Card> card;
};

OnBoard Make(int regmap = 2) {
  board::SimBoardOptions o;
  o.regmap = regmap;
  auto b = board::SimBoard::Create(o);
  OTPU_CHECK(b.ok());
  auto c = host::Card::Probe(b->get());
  OTPU_CHECK(c.ok());
  return {std::move(b).value(), std::move(c).value()};
}

workloads::WorkloadRun MlpSmall(const isa::Config& cfg) {
  auto run = workloads::MakeWorkload("mlp-small", cfg);
  OTPU_CHECK(run.ok());
  return std::move(run).value();
}

TEST(BoardStepRunner, MapOneCardGivesACheckedCountersOnlyProfile) {
  OnBoard b = Make(/*regmap=*/1);
  BoardStepRunner runner(b.card.get(), {});
  EXPECT_EQ(runner.kind(), ProfileKind::kBoard);
  auto rec = Record(MlpSmall(b.card->config()), runner);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  ASSERT_EQ(rec->profiles.size(), 1u);
  const Profile& p = rec->profiles[0];
  EXPECT_EQ(p.kind, ProfileKind::kBoard);
  EXPECT_FALSE(p.hwtrace.has_value());
  EXPECT_EQ(p.cycles, runner.last().counters.cycles);
  EXPECT_GT(p.roofline.bound, 0);
  EXPECT_TRUE(p.instrs.empty());
  ASSERT_TRUE(p.board.has_value());
  EXPECT_EQ(p.board->size(), 7u);                     // no free-running counters on map 1
  EXPECT_TRUE(rec->check.ok()) << rec->check.detail;  // the outputs came back from the card
}

TEST(BoardStepRunner, HwProfileCarriesTheCardsCounters) {
  OnBoard b = Make();
  BoardStepRunner runner(b.card.get(), {.mem = "axi"});
  RecordOptions ro;
  ro.bucket_cycles = int(b.card->info().counter_window());
  auto rec = Record(MlpSmall(b.card->config()), runner, ro);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  const Profile& p = rec->profiles[0];
  EXPECT_EQ(p.kind, ProfileKind::kHw);
  EXPECT_EQ(p.config.MEM, "axi");
  ASSERT_TRUE(p.board.has_value());
  EXPECT_EQ(p.board->size(), 7u + isa::kNumCounters);
  EXPECT_EQ((*p.board)[0], (CounterValue{"CYCLES", p.cycles}));
  EXPECT_TRUE(p.hwtrace->complete);
}

// More records than the buffer holds, keep first: a prefix, lost = COUNT - DEPTH, the note.
TEST(BoardStepRunner, TraceLongerThanTheBufferKeepsThePrefixAndSaysWhatIsLost) {
  OnBoard b = Make();
  const int64_t depth = b.card->info().trace_depth();
  workloads::WorkloadRun run;
  run.name = "copies";
  run.config = b.card->config();
  run.image = SparseMemory(run.config.DRAM_BYTES);
  isa::ProgramBuilder pb;
  pb.Loop(uint32_t(depth / 12), [&] {
    pb.Vop({.fn = isa::VopFn::kCOPY, .dst = isa::At(4096), .a = isa::At(0), .b = {}, .n = 256});
  });
  run.program = pb.Finish();
  run.steps = {workloads::Step{.traced = true}};
  BoardStepRunner runner(b.card.get(),
                         {.keep = TraceKeep::kFirst, .timeout = std::chrono::minutes(5)});
  RecordOptions ro;
  ro.bucket_cycles = int(b.card->info().counter_window());
  auto rec = Record(run, runner, ro);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  const HwTrace& t = *rec->profiles[0].hwtrace;
  EXPECT_EQ(t.keep, "first");
  EXPECT_GT(t.count, depth);
  EXPECT_EQ(t.records, depth);
  EXPECT_EQ(t.lost, t.count - depth);
  EXPECT_FALSE(t.complete);
  // The halt is past the buffer: cycles and the roofline come from the card's counters.
  EXPECT_EQ(rec->profiles[0].cycles, runner.last().counters.cycles);
  EXPECT_LT(t.traced_to, rec->profiles[0].cycles);
  const std::vector<Note>& notes = rec->profiles[0].notes;
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [&](const Note& n) {
    return n.text.find(std::to_string(t.lost) + " of " + std::to_string(t.count) +
                       " records did not fit the buffer") != std::string::npos;
  }));
  EXPECT_NE(notes.back().text.find("the trace lost the halt"), std::string::npos);
  EXPECT_NE(notes[0].text.find(std::to_string(runner.last().counters.cycles) + " cycles"),
            std::string::npos)
      << notes[0].text;
}

// The board model without CAPS bit2, as a card whose bitstream cannot stream.
class NoStreamBoard : public host::BoardIface {
 public:
  explicit NoStreamBoard(host::BoardIface* inner) : inner_(inner) {}
  StatusOr<uint32_t> ReadReg(uint32_t offset) override {
    ASSIGN_OR_RETURN(uint32_t v, inner_->ReadReg(offset));
    return offset == uint32_t(isa::Reg::kCAPS) ? v & ~isa::kCAPS_TRACE_STREAM : v;
  }
  Status WriteReg(uint32_t offset, uint32_t value) override {
    return inner_->WriteReg(offset, value);
  }
  Status WriteDma(uint64_t a, const void* d, size_t n) override {
    return inner_->WriteDma(a, d, n);
  }
  Status ReadDma(uint64_t a, void* d, size_t n) override { return inner_->ReadDma(a, d, n); }
  std::string Describe() const override { return inner_->Describe(); }

 private:
  host::BoardIface* inner_;
};

// The same run as above with --keep auto: streamed on the board model, the whole run (lost 0,
// the halt in the trace); on a card without streaming, keep first.
TEST(BoardStepRunner, AutoStreamsTheWholeRunAndKeepsFirstWithoutTheCapability) {
  OnBoard b = Make();
  const int64_t depth = b.card->info().trace_depth();
  workloads::WorkloadRun run;
  run.name = "copies";
  run.config = b.card->config();
  run.image = SparseMemory(run.config.DRAM_BYTES);
  isa::ProgramBuilder pb;
  pb.Loop(uint32_t(depth / 12), [&] {
    pb.Vop({.fn = isa::VopFn::kCOPY, .dst = isa::At(4096), .a = isa::At(0), .b = {}, .n = 256});
  });
  run.program = pb.Finish();
  run.steps = {workloads::Step{.traced = true}};
  RecordOptions ro;
  ro.bucket_cycles = int(b.card->info().counter_window());
  {
    BoardStepRunner runner(b.card.get(), {.timeout = std::chrono::minutes(5)});
    auto rec = Record(run, runner, ro);
    ASSERT_TRUE(rec.ok()) << rec.status().message();
    const HwTrace& t = *rec->profiles[0].hwtrace;
    EXPECT_EQ(t.keep, "stream");
    EXPECT_GT(t.count, depth);
    EXPECT_EQ(t.records, t.count);
    EXPECT_EQ(t.lost, 0);
    EXPECT_EQ(t.drop, 0);
    EXPECT_TRUE(t.complete);
    EXPECT_EQ(rec->profiles[0].cycles, runner.last().counters.cycles);
  }
  NoStreamBoard old(b.board.get());
  auto card = host::Card::Probe(&old);
  ASSERT_TRUE(card.ok()) << card.status().message();
  BoardStepRunner runner(card->get(), {.timeout = std::chrono::minutes(5)});
  auto rec = Record(run, runner, ro);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  const HwTrace& t = *rec->profiles[0].hwtrace;
  EXPECT_EQ(t.keep, "first");
  EXPECT_EQ(t.records, depth);
  EXPECT_EQ(t.lost, t.count - depth);
  // Asking for streaming there is the card's error.
  BoardStepRunner streamer(card->get(), {.keep = TraceKeep::kStream});
  auto refused = Record(run, streamer, ro);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("CAPS bit2"), std::string::npos)
      << refused.status().message();
}

// A board that hands every trace-window read to `tap` as well. The tests that feed the tapped
// records themselves keep the trace first (no streaming, so Card's own sink feeds nothing).
class TapBoard : public host::BoardIface {
 public:
  explicit TapBoard(host::BoardIface* board) : board_(board) {}
  std::function<void(const uint64_t*, size_t)> tap;
  StatusOr<uint32_t> ReadReg(uint32_t offset) override { return board_->ReadReg(offset); }
  Status WriteReg(uint32_t offset, uint32_t value) override {
    return board_->WriteReg(offset, value);
  }
  Status WriteDma(uint64_t addr, const void* data, size_t len) override {
    return board_->WriteDma(addr, data, len);
  }
  Status ReadDma(uint64_t addr, void* data, size_t len) override {
    RETURN_IF_ERROR(board_->ReadDma(addr, data, len));
    if (addr >= host::kTraceWindowBase && tap) tap(static_cast<const uint64_t*>(data), len / 8);
    return OkStatus();
  }
  std::string Describe() const override { return board_->Describe(); }

 private:
  host::BoardIface* board_;
};

// What BuildHwProfile makes of the whole buffer `records` of the runner's last run.
Profile WholeBufferProfile(const BoardStepRunner& runner, const host::Card& card,
                           const workloads::WorkloadRun& run,
                           const std::vector<uint64_t>& records, int bucket_cycles) {
  const host::TraceDrain& t = *runner.last().trace;
  TraceRegisters regs{.count = t.count, .drop = t.drop, .depth = t.depth, .keep_last = t.keep_last,
                      .stream = t.stream, .cycles = runner.last().counters.cycles};
  auto p = BuildHwProfile("x", card.config(), run.program, records, regs, bucket_cycles, "card");
  OTPU_CHECK(p.ok());
  return std::move(p).value();
}

// Two runs on the board model may differ by a few cycles: each comparison is of one run, its
// profile as recorded against the whole buffer of the records it drained.
void ExpectSameAsWholeBuffer(const Profile& got, const Profile& want) {
  EXPECT_TRUE(got.hwtrace->complete);
  EXPECT_EQ(got.cycles, want.cycles);
  EXPECT_TRUE(got.instrs == want.instrs);
  EXPECT_TRUE(got.slices == want.slices);
  EXPECT_TRUE(got.notes == want.notes);
  EXPECT_TRUE(got.mxu_gaps == want.mxu_gaps);
  EXPECT_TRUE(got.hwtrace == want.hwtrace);
  EXPECT_TRUE(got.roofline == want.roofline);
}

TEST(BoardStepRunner, RecordsFedAsTheyAreDrainedGiveTheWholeBuffersProfileAndAreNotHeld) {
  auto sim = board::SimBoard::Create({});
  ASSERT_TRUE(sim.ok());
  TapBoard tap(sim->get());
  auto card = host::Card::Probe(&tap);
  ASSERT_TRUE(card.ok()) << card.status().message();
  ASSERT_TRUE((*card)->info().has_trace());
  RecordOptions ro;
  ro.bucket_cycles = int((*card)->info().counter_window());
  const workloads::WorkloadRun run = MlpSmall((*card)->config());
  BoardStepRunner fed(card->get(), {.keep = TraceKeep::kFirst});
  size_t chunks = 0;
  std::vector<uint64_t> seen;
  tap.tap = [&](const uint64_t* records, size_t n) {
    seen.insert(seen.end(), records, records + n);
    // Chunks of 1, 2, ... 13 records: groups split at every offset.
    for (size_t at = 0, k = 1; at < n; at += k, k = k % 13 + 1) {
      ASSERT_TRUE(fed.FeedRecords(records + at, std::min(k, n - at)).ok());
      ++chunks;
    }
  };
  auto streamed = Record(run, fed, ro);
  ASSERT_TRUE(streamed.ok()) << streamed.status().message();
  EXPECT_GT(chunks, 100u);
  EXPECT_TRUE(fed.last().trace->records.empty());  // decoded as they came, then not kept
  ASSERT_EQ(streamed->profiles.size(), 1u);
  EXPECT_EQ(streamed->profiles[0].hwtrace->records, int64_t(seen.size()));
  ExpectSameAsWholeBuffer(streamed->profiles[0],
                          WholeBufferProfile(fed, **card, run, seen, ro.bucket_cycles));
}

TEST(BoardStepRunner, DrainedRecordsAreKeptOnlyWhenAsked) {
  OnBoard b = Make();
  RecordOptions ro;
  ro.bucket_cycles = int(b.card->info().counter_window());
  const workloads::WorkloadRun run = MlpSmall(b.card->config());
  BoardStepRunner keep(b.card.get(), {.keep_records = true});
  auto kept = Record(run, keep, ro);
  ASSERT_TRUE(kept.ok()) << kept.status().message();
  ASSERT_FALSE(keep.records().empty());
  ExpectSameAsWholeBuffer(kept->profiles[0], WholeBufferProfile(keep, *b.card, run,
                                                                keep.records(),
                                                                ro.bucket_cycles));
  BoardStepRunner drop(b.card.get(), {});
  ASSERT_TRUE(Record(run, drop, ro).ok());
  EXPECT_TRUE(drop.records().empty());
  EXPECT_TRUE(drop.last().trace->records.empty());
  EXPECT_GT(drop.last().trace->count, 0);
}

TEST(BoardStepRunner, RecordsOutsideATracedRunAreRefused) {
  OnBoard b = Make();
  BoardStepRunner runner(b.card.get(), {});
  const uint64_t record = 0;
  const Status s = runner.FeedRecords(&record, 1);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(), "board runner: trace records outside a traced run");
}

TEST(BoardStepRunner, WorkloadForAnotherConfigurationIsRefused) {
  OnBoard b = Make();
  BoardStepRunner runner(b.card.get(), {});
  const isa::Config& cfg = b.card->config();
  const isa::Config other = cfg.name == "sim" ? isa::Config::Board() : isa::Config::Sim();
  Status s = runner.Load(MlpSmall(other));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "the workload was built for config " + other.name +
                             ", but board model has config " + cfg.name);
}

TEST(BoardStepRunner, ImageOverTheProgramAndWritesOutsideDramAreRefused) {
  OnBoard b = Make();
  BoardStepRunner runner(b.card.get(), {});
  EXPECT_EQ(runner.Run({}).status().message(), "board runner: Run before Load");
  workloads::WorkloadRun run = MlpSmall(b.card->config());
  run.image.Write32(64, 1);  // inside the program's bytes at DRAM 0
  EXPECT_NE(runner.Load(run).message().find("the image starts at DRAM 0x0, inside the program's"),
            std::string::npos)
      << runner.Load(run).message();
  ASSERT_TRUE(runner.Load(MlpSmall(b.card->config())).ok());
  const uint64_t end = b.card->config().DRAM_BYTES;
  EXPECT_EQ(runner.WriteDram(end - 2, {1, 2, 3, 4}).message(),
            "step write of 4 bytes at DRAM 0x" + StrFormat("%llx", (unsigned long long)(end - 2)) +
                " is outside DRAM");
}

TEST(BoardStepRunner, BucketOtherThanTheCardsWindowIsRefused) {
  OnBoard b = Make();
  BoardStepRunner runner(b.card.get(), {});
  RecordOptions ro;
  ro.bucket_cycles = int(b.card->info().counter_window()) + 1;
  auto rec = Record(MlpSmall(b.card->config()), runner, ro);
  ASSERT_FALSE(rec.ok());
  EXPECT_NE(rec.status().message().find("bucket of " + std::to_string(ro.bucket_cycles) +
                                        " cycles, but the card counts windows of"),
            std::string::npos)
      << rec.status().message();
}

}  // namespace
}  // namespace otpu::lens
