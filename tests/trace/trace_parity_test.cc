// The trace unit model on the Verilated core running mlp-small and a small attention (ideal and
// stalling memory) and a qwen-tiny decode step: the decoded records equal the event
// collector's stream, the hw profile equals the rtl profile, the default queue and buffer lose
// nothing, and the loss modes (tiny queue, keep first, ring) lose exactly what they say.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "lens/build_hw_profile.h"
#include "lens/profile_json.h"
#include "lens/rtl_step_runner.h"
#include "sim/rtl/rtl_harness.h"
#include "sim/rtl/trace/trace_unit_model.h"
#include "workloads/isa/program.h"
#include "tests/workloads/kernel_test_util.h"
#include "workloads/list.h"

namespace otpu::rtl {
namespace {

namespace tr = trace;
namespace dec = lens::decode;

constexpr int64_t kSmallDepth = 600;

// A program to run: a workload of workloads/list.h or a small attention built here.
struct Case {
  const char* name;
  int stall;  // memory stall percent
};

// One run of a case with several trace units watching, shared by the tests of that case.
struct SharedRun {
  isa::Config cfg = BuiltConfig();
  isa::Program program;
  RtlRunOptions opts;
  RtlRun run;
  std::unique_ptr<TraceUnitModel> lossless, defaults, tiny, first, ring;
};

std::unique_ptr<TraceUnitModel> Model(TraceUnitOptions o) {
  auto m = TraceUnitModel::Create(o);
  OTPU_CHECK(m.ok());
  return std::move(m.value());
}

const SharedRun& Shared(const Case& c) {
  static std::map<std::string, std::unique_ptr<SharedRun>> runs;
  std::unique_ptr<SharedRun>& r = runs[std::string(c.name) + "/" + std::to_string(c.stall)];
  if (r != nullptr) return *r;
  r = std::make_unique<SharedRun>();
  SparseMemory dram(r->cfg.DRAM_BYTES);
  std::vector<workloads::Step> steps = {workloads::Step{.traced = true}};
  if (std::string(c.name) == "attn-small") {
    r->program = kernels::WriteSmallAttn(r->cfg, &dram).program;
  } else {
    StatusOr<workloads::WorkloadRun> w = workloads::MakeWorkload(c.name, r->cfg);
    OTPU_CHECK(w.ok());
    r->program = w->program;
    dram = w->image;
    steps = w->steps;
  }
  // Multi-step workloads (qwen-tiny) run up to their traced step; every run restarts the
  // trace units, so they end up holding the traced one.
  const auto traced = std::find_if(steps.begin(), steps.end(),
                                   [](const workloads::Step& st) { return st.traced; });
  OTPU_CHECK(traced != steps.end());
  steps.erase(traced + 1, steps.end());
  r->lossless = Model({.queue_depth = 1 << 16, .depth = 1 << 22});
  r->defaults = Model({});
  r->tiny = Model({.queue_depth = 6, .depth = 1 << 22});
  r->first = Model({.depth = kSmallDepth});
  r->ring = Model({.depth = kSmallDepth, .keep_last = true});
  auto h = RtlHarness::Create(r->cfg);
  OTPU_CHECK(h.ok());
  for (TraceUnitModel* m :
       {r->lossless.get(), r->defaults.get(), r->tiny.get(), r->first.get(), r->ring.get()}) {
    (*h)->AddHook(m);
  }
  OTPU_CHECK((*h)->LoadProgram(r->program).ok());
  r->opts.mem.stall_percent = c.stall;
  for (const workloads::Step& step : steps) {
    for (const workloads::DramWrite& w : step.writes) {
      dram.Write(w.addr, w.bytes.data(), w.bytes.size());
    }
    r->opts.args = step.args;
    StatusOr<RtlRun> run = (*h)->Run(&dram, r->opts);
    OTPU_CHECK(run.ok());
    OTPU_CHECK(run->stop == Stop::kHalt);
    r->run = std::move(run.value());
  }
  return *r;
}

dec::TraceRun FromHarness(const RtlRun& run) {
  return lens::ToTraceRun(run.events, run.windows, run.ports, /*halted=*/true);
}

lens::TraceRegisters Registers(const TraceUnitModel& m) {
  return {m.count(), m.drop(), m.options().depth, m.options().keep_last};
}

StatusOr<lens::Profile> Hw(const SharedRun& s, const TraceUnitModel& m) {
  const std::vector<Record> records = m.Records();
  return lens::BuildHwProfile("hw", s.cfg, s.program, records, Registers(m),
                              int(s.opts.window), s.opts.mem.Name());
}

std::string Json(lens::Profile p) {
  p.kind = lens::ProfileKind::kRtl;
  p.name = "x";
  p.hwtrace.reset();
  lens::ProfileFile f;
  f.profiles.push_back(std::move(p));
  StatusOr<std::string> j = lens::ProfileFileToJson(f);
  OTPU_CHECK(j.ok());
  return *j;
}

class TraceParityTest : public ::testing::TestWithParam<Case> {};

// The loss tests share the stalling mlp-small run.
constexpr Case kLossCase{"mlp-small", 20};

bool HasNote(const lens::Profile& p, const std::string& text) {
  return std::any_of(p.notes.begin(), p.notes.end(), [&](const lens::Note& n) {
    return n.text.find(text) != std::string::npos;
  });
}

// The default queue (64 lines, docs/trace.md: SPEC 5's 32 lose the last bundle) and buffer
// (65536 records) keep every record of these runs.
TEST_P(TraceParityTest, DefaultsLoseNothing) {
  const SharedRun& s = Shared(GetParam());
  const std::vector<Record> full = s.lossless->Records();
  EXPECT_EQ(s.lossless->drop(), 0u);
  EXPECT_EQ(s.defaults->drop(), 0u);
  EXPECT_EQ(s.defaults->Records(), full);
  std::printf("%s (%s): %lld cycles, %zu records, default queue dropped %u lines\n",
              GetParam().name, s.opts.mem.Name().c_str(),
              static_cast<long long>(s.run.events.cycles), full.size(), s.defaults->drop());
}

TEST_P(TraceParityTest, DecodedRecordsEqualTheEventStream) {
  const SharedRun& s = Shared(GetParam());
  StatusOr<dec::Tokens> t = dec::Tokenize(s.lossless->Records());
  ASSERT_TRUE(t.ok()) << t.status().message();
  StatusOr<dec::Decoded> d = dec::Decode(*t, s.program, s.cfg);
  ASSERT_TRUE(d.ok()) << d.status().message();
  const dec::TraceRun want = FromHarness(s.run);
  EXPECT_EQ(d->run.events.cycles, want.events.cycles);
  ASSERT_EQ(d->run.events.instrs.size(), want.events.instrs.size());
  for (size_t i = 0; i < want.events.instrs.size(); ++i) {
    const trace::InstrEvent &a = d->run.events.instrs[i], &b = want.events.instrs[i];
    ASSERT_TRUE(a.pc == b.pc && a.resolved == b.resolved && a.dispatch == b.dispatch &&
                a.ready == b.ready && a.release == b.release && a.start == b.start &&
                a.end == b.end && a.counters == b.counters && a.work == b.work)
        << "instruction " << i << " (pc " << b.pc << ")";
  }
  EXPECT_EQ(d->run.windows, want.windows);
  EXPECT_EQ(d->run.ports, want.ports);
  EXPECT_EQ(d->stats.orphans, 0);
  EXPECT_EQ(d->stats.open_at_end, 0);
}

void ExpectHwEqualsRtl(const SharedRun& s) {
  StatusOr<lens::Profile> rtl =
      lens::BuildRtlProfile("rtl", s.cfg, s.program, FromHarness(s.run),
                            int(s.opts.window), s.opts.mem.Name());
  ASSERT_TRUE(rtl.ok()) << rtl.status().message();
  StatusOr<lens::Profile> hw = Hw(s, *s.lossless);
  ASSERT_TRUE(hw.ok()) << hw.status().message();
  ASSERT_TRUE(hw->hwtrace.has_value());
  EXPECT_TRUE(hw->hwtrace->complete);
  EXPECT_EQ(hw->hwtrace->records, s.lossless->count());
  EXPECT_EQ(Json(*hw), Json(*rtl));
}

// The records fed in chunks, as a drain loop delivers them: fixed sizes that split D + 2 O, the
// P/Q windows' value runs and every other group at each offset, then seeded random sizes.
void ExpectChunkedEqualsWhole(const SharedRun& s, const TraceUnitModel& m) {
  const std::vector<Record> records = m.Records();
  const lens::TraceRegisters regs = Registers(m);
  StatusOr<lens::Profile> whole = lens::BuildHwProfile("hw", s.cfg, s.program, records, regs,
                                                       int(s.opts.window), s.opts.mem.Name());
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  std::vector<std::vector<size_t>> splits;
  for (size_t chunk : {1, 2, 3, 5, 7, 9, 10, 11, 13, 64, 4093}) {
    splits.push_back(std::vector<size_t>(records.size() / chunk + 1, chunk));
  }
  std::mt19937 rng(23);
  for (int i = 0; i < 3; ++i) {
    std::vector<size_t>& sizes = splits.emplace_back();
    for (size_t n = 0; n < records.size();) n += sizes.emplace_back(rng() % 40);
  }
  for (const std::vector<size_t>& sizes : splits) {
    lens::HwProfileBuilder b(s.cfg, s.program, regs.cycles);
    size_t at = 0;
    for (size_t n : sizes) {
      n = std::min(n, records.size() - at);
      ASSERT_TRUE(b.Feed(records.data() + at, n).ok());
      at += n;
    }
    ASSERT_EQ(at, records.size());
    StatusOr<lens::Profile> chunked = b.Finish("hw", regs, int(s.opts.window), s.opts.mem.Name());
    ASSERT_TRUE(chunked.ok()) << chunked.status().message();
    EXPECT_TRUE(*chunked == *whole) << "chunks of " << sizes[0] << ", " << sizes[1] << "...";
  }
}

TEST_P(TraceParityTest, ChunkedRecordsGiveTheWholeBuffersHwProfile) {
  const SharedRun& s = Shared(GetParam());
  ExpectChunkedEqualsWhole(s, *s.lossless);
}

// Cut buffers too: keep first (a group cut at the end), the ring (cut at the start) and a tiny
// queue's drops.
TEST(TraceLossTest, ChunkedCutBuffersGiveTheWholeBuffersHwProfile) {
  const SharedRun& s = Shared(kLossCase);
  ExpectChunkedEqualsWhole(s, *s.first);
  ExpectChunkedEqualsWhole(s, *s.ring);
  ExpectChunkedEqualsWhole(s, *s.tiny);
}

TEST_P(TraceParityTest, HwProfileEqualsRtlProfile) { ExpectHwEqualsRtl(Shared(GetParam())); }

// A traced qwen-tiny decode step (positions 0..3 run, the last one traced), ideal and with
// stalls: the biggest runs here (about 4 s each). The defaults lose nothing.
class TraceQwenTinyTest : public ::testing::TestWithParam<int> {};

TEST_P(TraceQwenTinyTest, HwProfileEqualsRtlProfileAndDefaultsLoseNothing) {
  const SharedRun& s = Shared({"qwen-tiny", GetParam()});
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(Hw(s, *s.lossless).ok());
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("qwen-tiny (%s): %lld cycles, %u records, default queue dropped %u lines; "
              "hw profile built at %.2f M records/s\n",
              s.opts.mem.Name().c_str(), static_cast<long long>(s.run.events.cycles),
              s.lossless->count(), s.defaults->drop(), s.lossless->count() / secs / 1e6);
  EXPECT_EQ(s.defaults->drop(), 0u);
  EXPECT_LE(int64_t(s.defaults->count()), s.defaults->options().depth);
  EXPECT_EQ(s.defaults->Records(), s.lossless->Records());
  ExpectHwEqualsRtl(s);
}

TEST_P(TraceQwenTinyTest, ChunkedRecordsGiveTheWholeBuffersHwProfile) {
  const SharedRun& s = Shared({"qwen-tiny", GetParam()});
  ExpectChunkedEqualsWhole(s, *s.lossless);
}

INSTANTIATE_TEST_SUITE_P(Stalls, TraceQwenTinyTest, ::testing::Values(0, 20),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return "stall" + std::to_string(i.param);
                         });

TEST_P(TraceParityTest, RtlProfileLossesMatchTheCoresTotals) {
  const SharedRun& s = Shared(GetParam());
  StatusOr<lens::Profile> rtl =
      lens::BuildRtlProfile("rtl", s.cfg, s.program, FromHarness(s.run),
                            int(s.opts.window), s.opts.mem.Name());
  ASSERT_TRUE(rtl.ok());
  for (int u = 1; u < kCoreUnits; ++u) {
    EXPECT_EQ(rtl->slices[0].lose[size_t(u)], s.run.lose[size_t(u)]) << "unit " << u;
  }
}

TEST(TraceLossTest, TinyQueueLosesExactlyTraceDropLinesAndKeepsOrder) {
  const SharedRun& s = Shared(kLossCase);
  const std::vector<Record> full = s.lossless->Records(), got = s.tiny->Records();
  ASSERT_GT(s.tiny->drop(), 0u);
  EXPECT_EQ(full.size() - got.size(), s.tiny->drop());
  // In order: `got` is a subsequence of `full`.
  size_t j = 0;
  for (size_t i = 0; i < full.size() && j < got.size(); ++i) j += full[i] == got[j];
  EXPECT_EQ(j, got.size());
  StatusOr<lens::Profile> hw = Hw(s, *s.tiny);
  ASSERT_TRUE(hw.ok()) << hw.status().message();
  EXPECT_FALSE(hw->hwtrace->complete);
  EXPECT_TRUE(HasNote(*hw, "capture queue dropped " + std::to_string(s.tiny->drop()) +
                               " events (TRACE_DROP)"));
}

TEST(TraceLossTest, KeepFirstKeepsAPrefixAndCountsTheLost) {
  const SharedRun& s = Shared(kLossCase);
  const std::vector<Record> full = s.lossless->Records(), got = s.first->Records();
  ASSERT_GT(full.size(), size_t(kSmallDepth));
  EXPECT_EQ(got, std::vector<Record>(full.begin(), full.begin() + kSmallDepth));
  StatusOr<lens::Profile> hw = Hw(s, *s.first);
  ASSERT_TRUE(hw.ok()) << hw.status().message();
  EXPECT_EQ(hw->hwtrace->lost, int64_t(s.first->count()) - kSmallDepth);
  EXPECT_EQ(hw->hwtrace->lost, int64_t(full.size()) - kSmallDepth);
  EXPECT_TRUE(HasNote(*hw, std::to_string(hw->hwtrace->lost) + " of " +
                               std::to_string(s.first->count()) +
                               " records did not fit the buffer: the run after cycle " +
                               std::to_string(hw->hwtrace->traced_to) + " is missing"));
}

TEST(TraceLossTest, RingKeepsASuffix) {
  const SharedRun& s = Shared(kLossCase);
  const std::vector<Record> full = s.lossless->Records(), got = s.ring->Records();
  EXPECT_TRUE(s.ring->wrapped());
  EXPECT_EQ(got, std::vector<Record>(full.end() - kSmallDepth, full.end()));
  StatusOr<lens::Profile> hw = Hw(s, *s.ring);
  ASSERT_TRUE(hw.ok()) << hw.status().message();
  EXPECT_TRUE(hw->hwtrace->wrapped);
  EXPECT_EQ(hw->cycles, s.run.events.cycles);  // the halt is in the suffix
  EXPECT_TRUE(HasNote(*hw, "the ring kept the last ones"));
}

INSTANTIATE_TEST_SUITE_P(Runs, TraceParityTest,
                         ::testing::Values(Case{"mlp-small", 0}, Case{"mlp-small", 20},
                                           Case{"attn-small", 0}, Case{"attn-small", 20}),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           std::string n = std::string(i.param.name) + "_stall" +
                                           std::to_string(i.param.stall);
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
}  // namespace otpu::rtl
