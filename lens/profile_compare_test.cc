// The rtl-vs-hw comparison of one run: the first divergence names the instruction, the field
// and both values.
#include "lens/profile_compare.h"

#include <gtest/gtest.h>

#include "lens/synthetic.h"

namespace otpu::lens {
namespace {

TEST(Parity, FirstDivergenceNamesInstructionFieldAndValues) {
  const Profile rtl = SyntheticProfile(ProfileKind::kRtl, 50);
  Profile hw = rtl;
  EXPECT_EQ(FirstDivergence(rtl, hw), "");
  hw.instrs[12].end += 3;
  const std::string d = FirstDivergence(rtl, hw);
  EXPECT_EQ(d, "instruction 12 (pc " + std::to_string(rtl.instrs[12].pc) + " " + rtl.instrs[12].name +
                   "): end " + std::to_string(rtl.instrs[12].end) + " (rtl) vs " +
                   std::to_string(rtl.instrs[12].end + 3) + " (hw)");
}

TEST(ProfileCompare, SameTimesAndCountersSeesEachTimeAndTheCounters) {
  const Profile p = SyntheticProfile(ProfileKind::kRtl, 5);
  const InstrRow& a = p.instrs[1];
  EXPECT_TRUE(SameTimesAndCounters(a, a));
  for (const auto& [name, field] : kInstrTimes) {
    InstrRow b = a;
    b.*field += 1;
    EXPECT_FALSE(SameTimesAndCounters(a, b)) << name;
  }
  InstrRow b = a;
  b.counters.push_back({"starve", 1});
  EXPECT_FALSE(SameTimesAndCounters(a, b));
}

// The board's counters as the rtl profile's events give them.
CounterSet AgreeingCounters(const Profile& rtl) {
  int64_t lose = 0, starve = 0, requests = 0;
  for (const Slice& s : rtl.slices) {
    for (int64_t v : s.lose) lose += v;
    for (size_t w = 0; w < s.buckets.size(); ++w) {
      starve += s.buckets.ms[w];
      requests += s.buckets.bm[w] + s.buckets.bd[w] + s.buckets.am[w] + s.buckets.aq[w];
    }
  }
  auto busy = [&](int u) { return rtl.slices[0].busy[size_t(u)]; };
  return {{"CYCLES", rtl.cycles}, {"UPTIME", rtl.cycles + 1000}, {"RUNNING", rtl.cycles},
          {"DMA_BUSY", busy(0)}, {"MXU_BUSY", busy(1)}, {"QNT_BUSY", busy(2)},
          {"VPU_BUSY", busy(3)}, {"TMEM_DENY", lose}, {"MXU_STARVE", starve},
          {"DRAM_RD", requests - 7}, {"DRAM_WR", 7}};
}

TEST(Parity, BoardCountersMustAgreeWithTheCoresEvents) {
  Profile rtl = SyntheticProfile(ProfileKind::kRtl, 50);
  rtl.slices[0].lose = {1, 2, 3, 4};
  Profile hw = rtl;
  EXPECT_EQ(BoardCounterDivergence(rtl, hw), "") << "no board counters: nothing to compare";
  hw.board = AgreeingCounters(rtl);
  EXPECT_EQ(BoardCounterDivergence(rtl, hw), "");
  for (const char* name : {"RUNNING", "DMA_BUSY", "MXU_BUSY", "QNT_BUSY", "VPU_BUSY",
                           "TMEM_DENY", "MXU_STARVE", "DRAM_RD"}) {
    Profile bad = hw;
    for (CounterValue& c : *bad.board) c.value -= c.name == name;
    const std::string d = BoardCounterDivergence(rtl, bad);
    EXPECT_NE(d.find(name), std::string::npos) << name << ": " << d;
  }
  Profile uptime = hw;  // counters the core's events say nothing about are not compared
  (*uptime.board)[1].value += 5;
  EXPECT_EQ(BoardCounterDivergence(rtl, uptime), "");
  Profile map1 = hw;  // register map 1: port counters only
  map1.board = CounterSet{{"CYCLES", rtl.cycles}, {"ICOUNT", 3}};
  EXPECT_EQ(BoardCounterDivergence(rtl, map1), "");
}

}  // namespace
}  // namespace otpu::lens
