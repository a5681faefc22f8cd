// The RTL trace unit (rtl/board/otpu_trace.sv) against its golden model (TraceUnitModel):
// both watch the same cycles, of real runs on the Verilated core (mlp-small, a small
// attention, random programs; ideal and stalling memory) and of hand-driven event streams
// (long start delays, a halt with a full queue, CLEAR in the middle), and must hold the same
// records (read through both read ports), COUNT, DROP and drain cycles. Four builds: the
// defaults (QD 64, DRAIN 2, DEPTH 65536), small (QD 24, DRAIN 3, DEPTH 512), tiny (QD 6,
// DRAIN 1, DEPTH 16) and one (QD 64, DRAIN 1, DEPTH 4096: the queue before it drained two
// lines a cycle).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "Votpu_trace.h"
#include "Votpu_trace_one.h"
#include "Votpu_trace_small.h"
#include "Votpu_trace_tiny.h"
#include "workloads/random_program.h"
#include "sim/rtl/rtl_harness.h"
#include "sim/rtl/trace/trace_unit_model.h"
#include "tests/rtl/trace/rtl_trace_unit.h"
#include "workloads/isa/program.h"
#include "tests/workloads/kernel_test_util.h"
#include "workloads/list.h"

namespace otpu::rtl {
namespace {

namespace tr = trace;
using workloads::FillRandomDram;
using workloads::InjectFault;
using workloads::Listing;
using workloads::MakeRandomProgram;
using workloads::RandomProgram;
using workloads::RandomProgramOptions;

// The Verilated builds (tests/rtl/trace/CMakeLists.txt).
struct Build {
  int qd;
  int64_t depth;
  int drain;
};
constexpr Build kDefault{64, 65536, 2}, kSmall{24, 512, 3}, kTiny{6, 16, 1}, kOne{64, 4096, 1};

std::unique_ptr<TraceUnitModel> Model(const Build& b, bool keep_last, bool enable = true,
                                      bool stream = false) {
  auto m = TraceUnitModel::Create({.queue_depth = b.qd, .drain = b.drain, .depth = b.depth,
                                   .keep_last = keep_last,
                                   .enable = enable, .stream = stream});
  OTPU_CHECK(m.ok());
  return std::move(m.value());
}

// One RTL unit and its model, watching the same cycles.
struct Pair {
  std::string name;
  std::unique_ptr<TraceUnitModel> model;
  std::unique_ptr<ClockHook> rtl;
  // Calls into the RTL unit without knowing its Verilated type.
  std::function<uint32_t()> count, drop;
  std::function<int64_t()> drain_cycles;
  std::function<std::vector<tr::Record>(ReadPort)> records;
  std::function<void(const CoreCycle&)> clock_with_clear;
  std::function<uint32_t()> widx;
  // Streaming pairs: the host draining each side (the same policy).
  std::unique_ptr<StreamHost> model_host, rtl_host;
};

// `host_every` > 0: a streaming unit drained by a StreamHost reading a beat every that many
// cycles.
template <typename V>
Pair MakePair(std::string name, const Build& b, bool keep_last, bool enable = true,
              int host_every = 0) {
  Pair p;
  if (host_every > 0) {
    p.model_host = std::make_unique<StreamHost>(host_every);
    p.rtl_host = std::make_unique<StreamHost>(host_every);
  }
  auto rtl = std::make_unique<RtlTraceUnit<V>>(b.depth, keep_last, enable, p.rtl_host.get());
  RtlTraceUnit<V>* u = rtl.get();
  p.name = std::move(name);
  p.model = Model(b, keep_last, enable, host_every > 0);
  p.model->set_reader(p.model_host.get());
  p.widx = [u] { return u->widx(); };
  p.count = [u] { return u->count(); };
  p.drop = [u] { return u->drop(); };
  p.drain_cycles = [u] { return u->drain_cycles(); };
  p.records = [u](ReadPort port) { return u->Records(port); };
  p.clock_with_clear = [u](const CoreCycle& c) { u->ClockWithClear(c); };
  p.rtl = std::move(rtl);
  return p;
}

// Every pair the tests use: the defaults, both keep modes on small and tiny buffers (the tiny
// queue drops), and a disabled unit.
std::vector<Pair> AllPairs() {
  std::vector<Pair> p;
  p.push_back(MakePair<Votpu_trace>("default", kDefault, false));
  p.push_back(MakePair<Votpu_trace_small>("small keep-first", kSmall, false));
  p.push_back(MakePair<Votpu_trace_small>("small ring", kSmall, true));
  p.push_back(MakePair<Votpu_trace_tiny>("tiny keep-first", kTiny, false));
  p.push_back(MakePair<Votpu_trace_tiny>("tiny ring", kTiny, true));
  p.push_back(MakePair<Votpu_trace_small>("disabled", kSmall, false, false));
  // Streaming: a host that keeps up (a beat every cycle) and one that falls behind (a beat
  // every 64 cycles: 1/8 record a cycle).
  p.push_back(MakePair<Votpu_trace>("default stream", kDefault, false, true, 1));
  p.push_back(MakePair<Votpu_trace_small>("small stream slow", kSmall, false, true, 64));
  return p;
}

void ExpectSame(Pair& p) {
  SCOPED_TRACE(p.name);
  const TraceUnitModel& m = *p.model;
  EXPECT_EQ(p.count(), m.count());
  EXPECT_EQ(p.drop(), m.drop());
  EXPECT_EQ(p.drain_cycles(), m.drain_cycles());
  EXPECT_EQ(p.widx(), m.write_index());
  if (p.model_host) {
    // What each host drained while the unit ran, record for record.
    const std::vector<tr::Record>& want = p.model_host->got();
    const std::vector<tr::Record>& got = p.rtl_host->got();
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << "drained record " << i;
  }
  const std::vector<tr::Record> want = m.Records();
  for (ReadPort port : {ReadPort::kRecord, ReadPort::kWindow}) {
    const std::vector<tr::Record> got = p.records(port);
    ASSERT_EQ(got.size(), want.size()) << "port " << int(port);
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(got[i], want[i]) << "record " << i << " of " << want.size() << " (port "
                                 << int(port) << ", type " << tr::RecordLetter(tr::TypeOf(want[i]))
                                 << ")";
    }
  }
}

Pair* Find(std::vector<Pair>& pairs, const std::string& name) {
  for (Pair& p : pairs) {
    if (p.name == name) return &p;
  }
  OTPU_CHECK(false);
  return nullptr;
}

// ---- Real runs on the Verilated core ----

// Runs `code` on the core with every pair watching.
void RunOnCore(const std::vector<isa::Instr>& code, const std::array<uint32_t, 8>& args,
               SparseMemory* dram, int stall, std::vector<Pair>* pairs) {
  auto h = RtlHarness::Create(BuiltConfig());
  ASSERT_TRUE(h.ok()) << h.status().message();
  for (Pair& p : *pairs) {
    (*h)->AddHook(p.model.get());
    (*h)->AddHook(p.rtl.get());
  }
  ASSERT_TRUE((*h)->LoadProgram(code).ok());
  RtlRunOptions opts;
  opts.args = args;
  opts.mem.stall_percent = stall;
  opts.max_cycles = 2000000;
  StatusOr<RtlRun> run = (*h)->Run(dram, opts);
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->stop, Stop::kHalt) << run->error;
}

void ExpectAllSame(std::vector<Pair>& pairs) {
  for (Pair& p : pairs) ExpectSame(p);
  // What each configuration is there to exercise.
  EXPECT_GT(Find(pairs, "default")->count(), 0u);
  EXPECT_GT(Find(pairs, "tiny keep-first")->drop(), 0u);
  EXPECT_GT(Find(pairs, "tiny ring")->count(), uint32_t(kTiny.depth));
  EXPECT_EQ(Find(pairs, "disabled")->count(), 0u);
  EXPECT_EQ(Find(pairs, "disabled")->drop(), 0u);
}

// On a real run (the default queue drops nothing): streaming with a host that keeps up drains
// exactly the records keep-first buffered, and a slow host's drops are exactly the lines it
// did not get.
// What a streaming pair's host read, then what was still unread in the ring at the end.
std::vector<tr::Record> Drained(const Pair& p) {
  std::vector<tr::Record> out = p.model_host->got();
  for (uint32_t i = p.model_host->rptr(); i != p.model->write_index(); ++i) {
    out.push_back(p.model->RingAt(int64_t(i)));
  }
  return out;
}

void ExpectStreamAccounting(std::vector<Pair>& pairs) {
  Pair& def = *Find(pairs, "default");
  ASSERT_EQ(def.drop(), 0u);
  const std::vector<tr::Record> all = def.model->Records();
  Pair& fast = *Find(pairs, "default stream");
  EXPECT_EQ(fast.drop(), 0u);
  EXPECT_EQ(Drained(fast), all);
  // The slow host made the unit drop whole bundles, and every line is either written or
  // counted as dropped.
  Pair& slow = *Find(pairs, "small stream slow");
  EXPECT_GT(slow.drop(), 0u);
  EXPECT_GT(slow.count(), uint32_t(kSmall.depth));
  EXPECT_EQ(int64_t(slow.count()) + int64_t(slow.drop()), int64_t(all.size()));
  // What it drained is a subsequence of the run's records (whole bundles missing).
  const std::vector<tr::Record> got = Drained(slow);
  EXPECT_EQ(got.size(), slow.count());
  size_t at = 0;
  for (tr::Record r : got) {
    while (at < all.size() && all[at] != r) ++at;
    ASSERT_LT(at, all.size()) << "a drained record that is not in the run";
    ++at;
  }
}

struct CoreCase {
  const char* name;
  int stall;
};

class TraceRtlCoreTest : public ::testing::TestWithParam<CoreCase> {};

TEST_P(TraceRtlCoreTest, RtlUnitEqualsTheModel) {
  const CoreCase& c = GetParam();
  const isa::Config cfg = BuiltConfig();
  SparseMemory dram(cfg.DRAM_BYTES);
  isa::Program program;
  if (std::string(c.name) == "attn-small") {
    program = kernels::WriteSmallAttn(cfg, &dram).program;
  } else {
    StatusOr<workloads::WorkloadRun> w = workloads::MakeWorkload(c.name, cfg);
    ASSERT_TRUE(w.ok()) << w.status().message();
    ASSERT_EQ(w->steps.size(), 1u);
    program = w->program;
    dram = w->image;
    for (const workloads::DramWrite& wr : w->steps[0].writes) {
      dram.Write(wr.addr, wr.bytes.data(), wr.bytes.size());
    }
  }
  std::vector<Pair> pairs = AllPairs();
  RunOnCore(program.code, {}, &dram, c.stall, &pairs);
  ExpectAllSame(pairs);
  // The default queue keeps every line of a real workload (random programs, denser, may drop).
  EXPECT_EQ(Find(pairs, "default")->drop(), 0u);
  // The small buffer fills: keep first keeps a prefix, the ring wraps.
  EXPECT_GT(Find(pairs, "small ring")->count(), uint32_t(kSmall.depth));
  ExpectStreamAccounting(pairs);
}

INSTANTIATE_TEST_SUITE_P(Runs, TraceRtlCoreTest,
                         ::testing::Values(CoreCase{"mlp-small", 0}, CoreCase{"mlp-small", 20},
                                           CoreCase{"attn-small", 0},
                                           CoreCase{"attn-small", 20}),
                         [](const ::testing::TestParamInfo<CoreCase>& i) {
                           std::string n = std::string(i.param.name) + "_stall" +
                                           std::to_string(i.param.stall);
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

TEST(TraceRtlRandomProgramTest, RtlUnitEqualsTheModel) {
  const isa::Config cfg = BuiltConfig();
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomProgramOptions gen;
    gen.seed = seed;
    gen.segments = 24;
    gen.kinds = {isa::Opcode::kLD, isa::Opcode::kST, isa::Opcode::kVOP, isa::Opcode::kQACT,
                 isa::Opcode::kQST, isa::Opcode::kMM};
    const RandomProgram p = MakeRandomProgram(cfg, gen);
    SparseMemory dram(cfg.DRAM_BYTES);
    FillRandomDram(seed, gen.dram_bytes, &dram);
    std::vector<Pair> pairs = AllPairs();
    RunOnCore(p.code, p.args, &dram, seed % 2 ? 20 : 0, &pairs);
    ExpectAllSame(pairs);
  }
}

// ---- Hand-driven event streams ----

// A random cycle: any mix of events, start ready cycles up to 2^20 back (delays of 0xFFFF and
// more need an R record; the values around it come often), windows with n past the 24-bit
// field.
CoreCycle RandomCycle(std::mt19937_64& rng, int64_t now, int density) {
  auto chance = [&](int percent) { return int(rng() % 100) < percent; };
  auto word = [&] { return uint32_t(rng()); };
  CoreCycle c;
  c.cycle = now;
  c.dispatch.valid = chance(density);
  c.dispatch.slot = int(rng() % 16);
  c.dispatch.pc = uint32_t(rng() % 65536);
  for (uint32_t& w : c.dispatch.instr.w) w = word();
  for (int u = 0; u < kCoreUnits; ++u) {
    CoreCycle::Start& s = c.start[size_t(u)];
    s.valid = chance(density / 2);
    s.slot = int(rng() % 16);
    static constexpr uint32_t kEdges[] = {0xFFFE, 0xFFFF, 0x10000};  // around saturation
    const uint32_t delay = chance(10)   ? kEdges[rng() % 3]
                           : chance(30) ? uint32_t(rng() % (1u << 20))
                                        : uint32_t(rng() % 8);
    s.ready = uint32_t(now) - delay;
    CoreCycle::End& e = c.end[size_t(u)];
    e.valid = chance(density / 2);
    e.slot = int(rng() % 16);
    for (uint32_t& v : e.counters) v = word();
  }
  c.release = {chance(density / 2), int(rng() % 16)};
  c.window.valid = chance(density / 4);
  c.window.n = chance(50) ? word() : uint32_t(rng() % 4096);
  for (uint32_t& v : c.window.columns) v = word();
  c.halt.valid = chance(2);
  for (uint32_t& v : c.halt.ports) v = word();
  c.any = c.dispatch.valid || c.release.valid || c.window.valid || c.halt.valid;
  for (int u = 0; u < kCoreUnits; ++u) c.any |= c.start[size_t(u)].valid || c.end[size_t(u)].valid;
  return c;
}

// Cycles of varying density (so queues fill, drain and hold halt bundles), with CLEAR at
// `clear_at` (-1: none), then a run end when `end_run`; each pair sees the same cycles.
void DriveRandom(uint64_t seed, int64_t cycles, int64_t clear_at, bool end_run,
                 std::vector<Pair>* pairs) {
  std::mt19937_64 rng(seed);
  for (Pair& p : *pairs) {
    p.model->OnRunStart();
    p.rtl->OnRunStart();
  }
  for (int64_t now = 0; now < cycles; ++now) {
    const int density = (now / 200) % 3 == 0 ? 80 : (now / 200) % 3 == 1 ? 25 : 5;
    const CoreCycle c = RandomCycle(rng, now, density);
    for (Pair& p : *pairs) {
      if (now == clear_at) {
        p.model->OnRunStart();
        p.clock_with_clear(c);
      } else {
        p.model->OnClock(c);
        p.rtl->OnClock(c);
      }
    }
  }
  if (!end_run) return;
  for (Pair& p : *pairs) {
    p.model->OnRunEnd();
    p.rtl->OnRunEnd();
  }
}

TEST(TraceRtlStreamTest, RandomEventsWithClearInTheMiddle) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::vector<Pair> pairs = AllPairs();
    DriveRandom(seed, 3000, 1234, true, &pairs);
    for (Pair& p : pairs) ExpectSame(p);
    Pair& def = *Find(pairs, "default");
    // The stream exercised long delays (R records), drops and the ring.
    const std::vector<tr::Record> recs = def.model->Records();
    EXPECT_TRUE(std::any_of(recs.begin(), recs.end(), [](tr::Record r) {
      return tr::TypeOf(r) == uint8_t(isa::RecordType::kREADY);
    }));
    EXPECT_GT(def.drop(), 0u);
    EXPECT_GT(Find(pairs, "small ring")->count(), uint32_t(kSmall.depth));
    EXPECT_GT(Find(pairs, "small stream slow")->drop(), def.drop());  // the ring filled too
  }
}

TEST(TraceRtlStreamTest, ClearEmptiesTheQueueAndZeroesTheRegisters) {
  std::vector<Pair> pairs = AllPairs();
  DriveRandom(7, 150, -1, false, &pairs);  // dense: the queues are full
  for (const char* name : {"default", "small keep-first", "small ring"}) {
    ASSERT_TRUE(Find(pairs, name)->model->busy()) << name;
  }
  std::mt19937_64 rng(8);
  for (Pair& p : pairs) {
    SCOPED_TRACE(p.name);
    p.model->OnRunStart();
    p.clock_with_clear(RandomCycle(rng, 0, 80));  // its events are ignored
    EXPECT_EQ(p.count(), 0u);
    EXPECT_EQ(p.drop(), 0u);
    p.model->OnRunEnd();
    p.rtl->OnRunEnd();
    EXPECT_EQ(p.drain_cycles(), 0);
    ExpectSame(p);
  }
}

// The halt bundle of a dense cycle finds the queue nearly full: it is held, BUSY stays up and
// it reaches the buffer whole.
TEST(TraceRtlStreamTest, HaltBundleIsHeldUntilItFits) {
  std::vector<Pair> pairs;
  pairs.push_back(MakePair<Votpu_trace>("default", kDefault, false));
  pairs.push_back(MakePair<Votpu_trace_small>("small keep-first", kSmall, false));
  const Build builds[] = {kDefault, kSmall};
  for (size_t i = 0; i < pairs.size(); ++i) {
    Pair& p = pairs[i];
    const Build& b = builds[i];
    std::mt19937_64 rng(11);
    p.model->OnRunStart();
    p.rtl->OnRunStart();
    // Dense cycles until the queue, after this cycle's drain, has no room for 22 lines.
    int64_t now = 0;
    for (; now < 200 && p.model->queued() - b.drain + 22 <= b.qd; ++now) {
      CoreCycle c = RandomCycle(rng, now, 100);
      c.halt.valid = false;
      c.window.valid = true;
      c.any = true;
      p.model->OnClock(c);
      p.rtl->OnClock(c);
    }
    CoreCycle last;  // the run's last cycle: its window and the halt (22 lines)
    last.cycle = now;
    last.any = true;
    last.window.valid = true;
    last.window.n = 64;
    last.halt = {true, {1, 2, 3, 4}};
    p.model->OnClock(last);
    p.rtl->OnClock(last);
  }
  for (Pair& p : pairs) {
    EXPECT_TRUE(p.model->holding()) << p.name;  // the queue was full when the halt bundle came
    p.model->OnRunEnd();
    p.rtl->OnRunEnd();
    ExpectSame(p);  // the same drain cycles: the RTL held it as long
    EXPECT_EQ(p.drop(), 0u) << p.name;  // nothing came after it
    const std::vector<tr::Record> recs = p.model->Records();
    ASSERT_GE(recs.size(), 5u);
    EXPECT_EQ(tr::TypeOf(recs[recs.size() - 5]), uint8_t(isa::RecordType::kHALT)) << p.name;
  }
}

// ---- More than one line a cycle ----

// A stream the old queue (one line a cycle) cannot keep: 1.75 lines a cycle (D+O+O, R, D+O+O,
// nothing) and, every 256 cycles, a cycle with every event but the halt (42 lines); 1.92 lines
// a cycle in all. A run of 5000 cycles, then the halt.
std::vector<CoreCycle> DenseStream() {
  std::vector<CoreCycle> out;
  const int64_t kCycles = 5000;
  for (int64_t now = 0; now <= kCycles; ++now) {
    CoreCycle c;
    c.cycle = now;
    c.dispatch.slot = int(now % 16);
    c.dispatch.pc = uint32_t(now % 4096);
    c.dispatch.instr.w[0] = uint32_t(isa::Opcode::kVOP);
    c.dispatch.instr.w[1] = uint32_t(now);
    c.dispatch.valid = now % 2 == 0;
    c.release = {now % 4 == 1, int(now % 16)};
    if (now % 256 == 100) {  // everything at once
      c.dispatch.valid = true;
      c.release.valid = true;
      for (int u = 0; u < kCoreUnits; ++u) {
        c.start[size_t(u)] = {true, u, uint32_t(now) - 0x20000u};  // saturated: S and R
        c.end[size_t(u)].valid = true;
        c.end[size_t(u)].slot = u + 4;
        for (int k = 0; k < 4; ++k) c.end[size_t(u)].counters[size_t(k)] = uint32_t(now * 4 + k);
      }
      c.window.valid = true;
      c.window.n = 64;
      for (size_t k = 0; k < c.window.columns.size(); ++k) c.window.columns[k] = uint32_t(k + now);
    }
    if (now == kCycles) {
      c = CoreCycle{};
      c.cycle = now;
      c.halt = {true, {1, 2, 3, 4}};
    }
    c.any = c.dispatch.valid || c.release.valid || c.window.valid || c.halt.valid;
    for (int u = 0; u < kCoreUnits; ++u) {
      c.any |= c.start[size_t(u)].valid || c.end[size_t(u)].valid;
    }
    out.push_back(c);
  }
  return out;
}

void Drive(const std::vector<CoreCycle>& cycles, std::vector<Pair>* pairs) {
  for (Pair& p : *pairs) {
    p.model->OnRunStart();
    p.rtl->OnRunStart();
  }
  for (const CoreCycle& c : cycles) {
    for (Pair& p : *pairs) {
      p.model->OnClock(c);
      p.rtl->OnClock(c);
    }
  }
  for (Pair& p : *pairs) {
    p.model->OnRunEnd();
    p.rtl->OnRunEnd();
  }
}

TEST(TraceRtlDrainTest, DenserThanOneLineACycleLosesNothing) {
  const std::vector<CoreCycle> cycles = DenseStream();
  std::vector<tr::Record> all;
  for (const CoreCycle& c : cycles) {
    for (tr::Record r : TraceUnitModel::Bundle(c)) all.push_back(r);
  }
  ASSERT_GT(all.size(), size_t(1.9 * double(cycles.size())));  // past one line a cycle
  std::vector<Pair> pairs;
  pairs.push_back(MakePair<Votpu_trace>("default", kDefault, false));
  pairs.push_back(MakePair<Votpu_trace>("default stream", kDefault, false, true, 1));
  pairs.push_back(MakePair<Votpu_trace_one>("one", kOne, false));
  Drive(cycles, &pairs);
  for (Pair& p : pairs) ExpectSame(p);
  Pair& def = *Find(pairs, "default");
  EXPECT_EQ(def.drop(), 0u);
  EXPECT_EQ(def.model->Records(), all);
  Pair& stream = *Find(pairs, "default stream");
  EXPECT_EQ(stream.drop(), 0u);
  EXPECT_EQ(Drained(stream), all);
  // The same stream through a queue that drains one line a cycle loses most of it, counted.
  Pair& one = *Find(pairs, "one");
  EXPECT_GT(one.drop(), uint32_t(all.size() / 3));
  EXPECT_EQ(int64_t(one.count()) + int64_t(one.drop()), int64_t(all.size()));
}

// A host that falls behind the dense stream: the ring fills, whole bundles are lost, and
// COUNT + DROP is every line (RTL and model alike, record for record). (The 42-line bundles
// never fit these queues of 24 and 6 lines: they are lost whatever the host does.)
TEST(TraceRtlDrainTest, SlowHostDropsAreCountedExactly) {
  const std::vector<CoreCycle> cycles = DenseStream();
  std::vector<std::vector<tr::Record>> bundles;
  size_t lines = 0;
  for (const CoreCycle& c : cycles) {
    bundles.push_back(TraceUnitModel::Bundle(c));
    lines += bundles.back().size();
  }
  for (int every : {2, 16, 64}) {
    SCOPED_TRACE("a beat every " + std::to_string(every) + " cycles");
    std::vector<Pair> pairs;
    pairs.push_back(MakePair<Votpu_trace_small>("small stream", kSmall, false, true, every));
    pairs.push_back(MakePair<Votpu_trace_tiny>("tiny stream", kTiny, false, true, every));
    Drive(cycles, &pairs);
    for (Pair& p : pairs) {
      SCOPED_TRACE(p.name);
      ExpectSame(p);
      EXPECT_GT(p.drop(), 0u);
      EXPECT_EQ(uint64_t(p.count()) + p.drop(), lines);
      // What the host got is whole bundles, in order, and the ones missing hold DROP lines.
      const std::vector<tr::Record> got = Drained(p);
      ASSERT_EQ(got.size(), p.count());
      size_t at = 0, missing = 0;
      for (const std::vector<tr::Record>& b : bundles) {
        if (b.empty()) continue;
        if (at < got.size() && std::equal(b.begin(), b.end(), got.begin() + ptrdiff_t(at),
                                          got.begin() + ptrdiff_t(std::min(got.size(),
                                                                           at + b.size())))) {
          at += b.size();
        } else {
          missing += b.size();
        }
      }
      EXPECT_EQ(at, got.size());
      EXPECT_EQ(missing, p.drop());
      // The halt bundle is never lost.
      ASSERT_GE(got.size(), 5u);
      EXPECT_EQ(tr::TypeOf(got[got.size() - 5]), uint8_t(isa::RecordType::kHALT));
    }
  }
}

}  // namespace
}  // namespace otpu::rtl
