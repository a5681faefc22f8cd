// The trace unit model on hand-made cycles: bundle order, the capture queue, the keep modes,
// ENABLE, and a start delay that needs an R record, each decoded and compared with the event
// collector fed the same cycles.
#include "sim/rtl/trace/trace_unit_model.h"

#include <gtest/gtest.h>

#include "lens/trace/decoder.h"
#include "sim/rtl/event_collector.h"
#include "workloads/isa/instr.h"

namespace otpu::rtl {
namespace {

namespace tr = trace;
namespace dec = lens::decode;
using tr::RecordType;

isa::Config Cfg() { return isa::Config{}; }

isa::Program Program() {
  isa::DmaOp d;
  d.tmem = isa::At(0);
  d.dram = isa::At(4096);
  d.n = 8;
  d.rows = 1;
  d.tmem_stride = 8;
  d.dram_stride = 32;
  isa::VopOp v;
  v.fn = isa::VopFn::kADD;
  v.dst = isa::At(64);
  v.a = isa::At(0);
  v.b = isa::At(0);
  v.n = 8;
  isa::Program p;
  p.code = {isa::EncodeLd(d), isa::EncodeVop(v), isa::EncodeHalt()};
  return p;
}

// LD dispatched at 0, started at 1; VOP dispatched at 2, ready at 2, started `delay` later;
// both end together; the run halts the next cycle with its only window.
std::vector<CoreCycle> Cycles(int64_t delay) {
  const isa::Program p = Program();
  std::vector<CoreCycle> out;
  auto at = [&](int64_t cycle) -> CoreCycle& {
    out.push_back(CoreCycle{});
    out.back().cycle = cycle;
    out.back().any = true;
    return out.back();
  };
  CoreCycle& d0 = at(0);
  d0.dispatch = {true, 0, 0, p.code[0]};
  at(1).start[0] = {true, 0, 0};
  CoreCycle& d1 = at(2);
  d1.dispatch = {true, 1, 1, p.code[1]};
  at(2 + delay).start[3] = {true, 1, 2};
  CoreCycle& e = at(3 + delay);
  e.end[0] = {true, 0, {}};
  e.end[3] = {true, 1, {7, 0, 0, 0}};
  CoreCycle& h = at(4 + delay);
  h.window.valid = true;
  h.window.n = uint32_t(5 + delay);
  for (int i = 0; i < kWindowColumns; ++i) h.window.columns[size_t(i)] = uint32_t(10 + i);
  h.halt = {true, {0, 1, 0, 0}};
  return out;
}

std::unique_ptr<TraceUnitModel> Model(TraceUnitOptions opts = {}) {
  auto m = TraceUnitModel::Create(opts);
  OTPU_CHECK(m.ok());
  return std::move(m.value());
}

// Runs every cycle up to the last of `cycles` through `hooks` (idle ones in between), as the
// harness does.
void Feed(const std::vector<CoreCycle>& cycles, std::vector<ClockHook*> hooks) {
  for (ClockHook* h : hooks) h->OnRunStart();
  size_t next = 0;
  for (int64_t now = 0; next < cycles.size(); ++now) {
    CoreCycle idle;
    idle.cycle = now;
    const CoreCycle& c = cycles[next].cycle == now ? cycles[next++] : idle;
    for (ClockHook* h : hooks) h->OnClock(c);
  }
  for (ClockHook* h : hooks) h->OnRunEnd();
}

dec::Decoded Decode(const std::vector<Record>& records) {
  StatusOr<dec::Tokens> t = dec::Tokenize(records);
  OTPU_CHECK(t.ok());
  StatusOr<dec::Decoded> d = dec::Decode(*t, Program(), Cfg());
  OTPU_CHECK(d.ok());
  return std::move(d.value());
}

void ExpectSameInstrs(const trace::RunEvents& got, const trace::RunEvents& want) {
  EXPECT_EQ(got.cycles, want.cycles);
  ASSERT_EQ(got.instrs.size(), want.instrs.size());
  for (size_t i = 0; i < got.instrs.size(); ++i) {
    const trace::InstrEvent &a = got.instrs[i], &b = want.instrs[i];
    EXPECT_EQ(a.idx, b.idx);
    EXPECT_EQ(a.pc, b.pc);
    EXPECT_EQ(a.unit, b.unit);
    EXPECT_EQ(a.resolved, b.resolved) << "instr " << i;
    EXPECT_EQ(a.dispatch, b.dispatch);
    EXPECT_EQ(a.ready, b.ready) << "instr " << i;
    EXPECT_EQ(a.release, b.release);
    EXPECT_EQ(a.start, b.start);
    EXPECT_EQ(a.end, b.end);
    EXPECT_EQ(a.work, b.work);
    EXPECT_EQ(a.port_b, b.port_b);
    EXPECT_EQ(a.port_a, b.port_a);
    EXPECT_EQ(a.counters, b.counters) << "instr " << i;
  }
}

TEST(TraceUnitModelTest, CreateRejectsAnEmptyQueueNamingTheOption) {
  auto m = TraceUnitModel::Create({.queue_depth = 0});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("queue_depth 0"), std::string::npos);
}

TEST(TraceUnitModelTest, CreateRejectsAnEmptyBufferNamingTheOption) {
  auto m = TraceUnitModel::Create({.depth = 0});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("depth 0"), std::string::npos);
}

TEST(TraceUnitModelTest, BundleFollowsTheDocumentedOrder) {
  const std::vector<CoreCycle> c = Cycles(3);
  std::vector<uint8_t> types;
  for (Record r : TraceUnitModel::Bundle(c[4])) types.push_back(tr::TypeOf(r));
  // E (DMA, no counters), E + U + V (VPU)
  EXPECT_EQ(types, (std::vector<uint8_t>{4, 4, 5, 11}));
  types.clear();
  for (Record r : TraceUnitModel::Bundle(c[5])) types.push_back(tr::TypeOf(r));
  EXPECT_EQ(types.size(), 1u + 9 + 1 + 6 + 1 + 4);  // P+V×9, Q+V×6, H+V×4
  EXPECT_EQ(types.front(), uint8_t(RecordType::kWINDOW_P));
  EXPECT_EQ(types[10], uint8_t(RecordType::kWINDOW_Q));
  EXPECT_EQ(types[17], uint8_t(RecordType::kHALT));
}

TEST(TraceUnitModelTest, DecodesToTheCollectorsEvents) {
  const std::vector<CoreCycle> cycles = Cycles(3);
  EventCollector collector(Cfg());
  auto model = Model();
  Feed(cycles, {&collector, model.get()});
  ASSERT_TRUE(collector.status().ok()) << collector.status().message();
  const dec::Decoded d = Decode(model->Records());
  ExpectSameInstrs(d.run.events, collector.events());
  ASSERT_EQ(d.run.windows.size(), 1u);
  EXPECT_EQ(d.run.windows[0].columns[14], collector.windows()[0].columns[14]);
  EXPECT_EQ(d.run.ports[1], 1);
  EXPECT_EQ(model->count(), model->Records().size());
  EXPECT_EQ(model->drop(), 0u);
}

TEST(TraceUnitModelTest, LongStartDelayWritesAReadyRecordAndDecodesExactly) {
  const std::vector<CoreCycle> cycles = Cycles(0x12345);
  EventCollector collector(Cfg());
  auto model = Model();
  Feed(cycles, {&collector, model.get()});
  int ready_records = 0;
  for (Record r : model->Records()) ready_records += tr::TypeOf(r) == uint8_t(RecordType::kREADY);
  EXPECT_EQ(ready_records, 1);
  const dec::Decoded d = Decode(model->Records());
  ExpectSameInstrs(d.run.events, collector.events());
  EXPECT_EQ(d.run.events.instrs[1].ready, 2);
}

TEST(TraceUnitModelTest, ShortStartDelayNeedsNoReadyRecord) {
  auto model = Model();
  Feed(Cycles(0xFFFE), {model.get()});
  for (Record r : model->Records()) EXPECT_NE(tr::TypeOf(r), uint8_t(RecordType::kREADY));
}

TEST(TraceUnitModelTest, DefaultsHoldTheLargestBundleAndALongRun) {
  auto model = Model();
  EXPECT_EQ(model->options().queue_depth, 64);
  EXPECT_GE(model->options().queue_depth, TraceUnitModel::kMaxBundle);
  EXPECT_EQ(model->options().depth, 65536);
}

TEST(TraceUnitModelTest, FullQueueLosesTheWholeCycleAndCountsItsLines) {
  // A 2-line queue has no room for the 3-line dispatch bundles.
  auto model = Model({.queue_depth = 2});
  Feed(Cycles(3), {model.get()});
  // Lost: D+O+O twice, E+E+U+V, and the 22-line halt bundle (it can never fit 2 lines).
  EXPECT_EQ(model->drop(), 3u + 3 + 4 + 22);
  const std::vector<Record> got = model->Records();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(tr::TypeOf(got[0]), uint8_t(RecordType::kSTART));
  EXPECT_EQ(tr::TypeOf(got[1]), uint8_t(RecordType::kSTART));
}

TEST(TraceUnitModelTest, HaltBundleIsHeldUntilTheQueueTakesItWhole) {
  // A 24-line queue draining one line a cycle holds 5 lines when the 22-line halt bundle
  // comes: it waits three drains. Draining two a cycle, the queue has room for
  // it at once (2 lines left after the cycle's drain): the 24 lines leave in 12 cycles.
  auto all = Model();
  auto held = Model({.queue_depth = 24, .drain = 1});
  auto held2 = Model({.queue_depth = 24, .drain = 2});
  Feed(Cycles(3), {all.get(), held.get(), held2.get()});
  EXPECT_EQ(held->drop(), 0u);
  EXPECT_EQ(held->Records(), all->Records());
  EXPECT_EQ(held->drain_cycles(), 3 + 24);
  EXPECT_FALSE(held->busy());
  EXPECT_EQ(held2->drop(), 0u);
  EXPECT_EQ(held2->Records(), all->Records());
  EXPECT_EQ(held2->drain_cycles(), 12);
  EXPECT_FALSE(held2->busy());
}

TEST(TraceUnitModelTest, BundleArrivingWhileTheHaltBundleIsHeldIsLost) {
  auto model = Model({.queue_depth = 24, .drain = 1});
  std::vector<CoreCycle> cycles = Cycles(3);
  CoreCycle late;  // no core does this: an event after the halt
  late.cycle = cycles.back().cycle + 1;
  late.any = true;
  late.release = {true, 2};
  cycles.push_back(late);
  Feed(cycles, {model.get()});
  EXPECT_EQ(model->drop(), 1u);
  EXPECT_EQ(model->count(), 34u);
  EXPECT_EQ(tr::TypeOf(model->Records().back()), uint8_t(RecordType::kVALUE));
}

TEST(TraceUnitModelTest, HaltBundleLargerThanTheQueueIsLost) {
  // A 20-line queue takes the first four bundles (12 lines); the 22-line last one is lost.
  auto model = Model({.queue_depth = 20});
  Feed(Cycles(3), {model.get()});
  EXPECT_EQ(model->drop(), 22u);
  const std::vector<Record> got = model->Records();
  ASSERT_EQ(got.size(), 3u + 1 + 3 + 1 + 4);
  EXPECT_EQ(tr::TypeOf(got.back()), uint8_t(RecordType::kVALUE));
}

TEST(TraceUnitModelTest, KeepFirstStopsWhenFullButCounts) {
  auto all = Model();
  auto first = Model({.depth = 5});
  Feed(Cycles(3), {all.get(), first.get()});
  const std::vector<Record> full = all->Records();
  EXPECT_EQ(first->count(), full.size());
  EXPECT_EQ(first->Records(), std::vector<Record>(full.begin(), full.begin() + 5));
  EXPECT_FALSE(first->wrapped());
}

TEST(TraceUnitModelTest, RingKeepsTheLastRecordsOldestFirst) {
  auto all = Model();
  auto ring = Model({.depth = 5, .keep_last = true});
  Feed(Cycles(3), {all.get(), ring.get()});
  const std::vector<Record> full = all->Records();
  EXPECT_TRUE(ring->wrapped());
  EXPECT_EQ(ring->Records(), std::vector<Record>(full.end() - 5, full.end()));
}

TEST(TraceUnitModelTest, DisabledUnitCountsNothing) {
  auto model = Model({.enable = false});
  Feed(Cycles(3), {model.get()});
  EXPECT_EQ(model->count(), 0u);
  EXPECT_EQ(model->drop(), 0u);
  EXPECT_TRUE(model->Records().empty());
}

TEST(TraceUnitModelTest, QueueDrainsAfterTheRun) {
  // The only bundle (P, Q, H and their values) enters the queue in the run's last cycle; it
  // leaves DRAIN lines a cycle.
  for (int drain : {1, 2, 3, 8}) {
    SCOPED_TRACE("drain " + std::to_string(drain));
    auto model = Model({.drain = drain});
    std::vector<CoreCycle> last = {Cycles(3).back()};
    last[0].cycle = 0;
    Feed(last, {model.get()});
    EXPECT_EQ(model->drain_cycles(), (22 + drain - 1) / drain);
    EXPECT_EQ(model->count(), 22u);
  }
}

TEST(TraceUnitModelTest, DrainOutsideOneToEightIsRefused) {
  for (int drain : {0, 9}) {
    auto m = TraceUnitModel::Create({.drain = drain});
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.status().message().find("drain " + std::to_string(drain)), std::string::npos);
  }
}

}  // namespace
}  // namespace otpu::rtl
