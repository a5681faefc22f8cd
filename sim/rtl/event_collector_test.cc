#include "sim/rtl/event_collector.h"

#include <gtest/gtest.h>

namespace otpu::rtl {
namespace {

CoreCycle At(int64_t cycle) {
  CoreCycle c;
  c.cycle = cycle;
  c.any = true;
  return c;
}

CoreCycle Dispatch(int64_t cycle, int slot, uint32_t pc) {
  CoreCycle c = At(cycle);
  c.dispatch.valid = true;
  c.dispatch.slot = slot;
  c.dispatch.pc = pc;
  isa::MmOp mm;
  mm.n = 2;
  mm.k = 32;
  mm.w_stride = 32;
  c.dispatch.instr = isa::EncodeMm(mm);
  return c;
}

TEST(EventCollector, BuildsAnInstructionFromItsEvents) {
  EventCollector col(isa::Config::Sim());
  col.OnRunStart();
  col.OnClock(Dispatch(3, 5, 17));
  CoreCycle s = At(9);
  s.start[1] = {true, 5, 7};
  col.OnClock(s);
  CoreCycle r = At(12);
  r.release = {true, 5};
  col.OnClock(r);
  CoreCycle e = At(20);
  e.end[1].valid = true;
  e.end[1].slot = 5;
  e.end[1].counters = {1, 2, 3, 4};
  col.OnClock(e);
  CoreCycle h = At(21);
  h.halt.valid = true;
  h.halt.ports = {2, 0, 2, 0};
  col.OnClock(h);
  ASSERT_TRUE(col.status().ok()) << col.status().message();
  ASSERT_EQ(col.events().instrs.size(), 1u);
  const trace::InstrEvent& i = col.events().instrs[0];
  EXPECT_EQ(i.pc, 17u);
  EXPECT_EQ(i.unit, isa::Unit::kMXU);
  EXPECT_EQ(i.dispatch, 3);
  EXPECT_EQ(i.ready, 7);
  EXPECT_EQ(i.start, 9);
  EXPECT_EQ(i.release, 12);
  EXPECT_EQ(i.end, 21);
  EXPECT_EQ(i.counters.at("starve"), 1);
  EXPECT_EQ(i.counters.at("deny"), 4);
  EXPECT_EQ(i.port_b, 2);  // the cost model's: 2 W rows of one chunk
  EXPECT_EQ(col.events().cycles, 22);
  EXPECT_EQ(col.ports()[2], 2);
}

TEST(EventCollector, ReadyCycleBeyond32BitsIsRecovered) {
  EventCollector col(isa::Config::Sim());
  col.OnRunStart();
  const int64_t start = (int64_t{1} << 32) + 10;
  col.OnClock(Dispatch(start - 30, 0, 0));
  CoreCycle s = At(start);
  s.start[1] = {true, 0, uint32_t(start - 20)};
  col.OnClock(s);
  EXPECT_EQ(col.events().instrs[0].ready, start - 20);
}

TEST(EventCollector, StartForAnEmptySlotIsReportedWithCycleAndSlot) {
  EventCollector col(isa::Config::Sim());
  col.OnRunStart();
  CoreCycle s = At(40);
  s.start[0] = {true, 9, 40};
  col.OnClock(s);
  ASSERT_FALSE(col.status().ok());
  EXPECT_NE(col.status().message().find("cycle 40: start event for slot 9"), std::string::npos)
      << col.status().message();
}

TEST(EventCollector, EndBeforeStartIsReported) {
  EventCollector col(isa::Config::Sim());
  col.OnRunStart();
  col.OnClock(Dispatch(1, 2, 0));
  CoreCycle e = At(4);
  e.end[1].valid = true;
  e.end[1].slot = 2;
  col.OnClock(e);
  ASSERT_FALSE(col.status().ok());
  EXPECT_NE(col.status().message().find("slot 2 ended before it started"), std::string::npos)
      << col.status().message();
}

}  // namespace
}  // namespace otpu::rtl
