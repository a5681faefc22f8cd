#include "lens/attribution.h"

#include <gtest/gtest.h>

#include <numeric>

#include "lens/synthetic.h"

namespace otpu::lens {
namespace {

double Cause(const Analysis& a, const std::string& key) {
  for (int c = 0; c < kNumCauses; ++c) {
    if (key == Causes()[size_t(c)].key) return a.causes[size_t(c)];
  }
  ADD_FAILURE() << "no cause " << key;
  return -1;
}

// A profile of `cycles` cycles with one counter window per `n` entry, all columns zero.
Profile Windowed(int64_t cycles, std::vector<int64_t> n) {
  Profile p;
  p.cycles = cycles;
  Slice& s = p.slices.emplace_back();
  s.buckets.Resize(n.size());
  int64_t end = 0;
  for (size_t k = 0; k < n.size(); ++k) {
    end += n[k];
    s.buckets.n[k] = n[k];
    s.buckets.c[k] = end - 1;
  }
  return p;
}

InstrRow Instr(int unit, const char* name, int64_t dispatch, int64_t ready, int64_t start, int64_t end) {
  InstrRow r;
  r.unit = unit;
  r.name = name;
  r.dispatch = dispatch;
  r.ready = ready;
  r.start = start;
  r.end = end;
  r.work = end - start;
  return r;
}

TEST(Analyze, CausesAddUpToTheWindowsCycles) {
  Profile p = SyntheticProfile(ProfileKind::kRtl, 5000);
  Analysis a = Analyze(p);
  int64_t n = std::accumulate(p.slices[0].buckets.n.begin(), p.slices[0].buckets.n.end(), int64_t{0});
  EXPECT_DOUBLE_EQ(a.total, double(n));
  EXPECT_EQ(a.windows, int64_t(p.slices[0].buckets.size()));
}

TEST(Analyze, StreamingIsThePortBTransfers) {
  Profile p = Windowed(64, {64});
  p.slices[0].buckets.bm[0] = 20;
  p.slices[0].buckets.bd[0] = 4;
  EXPECT_DOUBLE_EQ(Cause(Analyze(p), "stream"), 24);
}

TEST(Analyze, IdleCyclesGoToTheFirstCauseWithCyclesLeft) {
  Profile p = Windowed(100, {100});
  Buckets& b = p.slices[0].buckets;
  b.bm[0] = 10;
  b.bs[0] = 30;  // DRAM not ready comes first
  b.ms[0] = 80;  // starved gets only what is left: 100 - 10 - 30
  b.mb[0] = 5;   // nothing left for it
  Analysis a = Analyze(p);
  EXPECT_DOUBLE_EQ(Cause(a, "dram"), 30);
  EXPECT_DOUBLE_EQ(Cause(a, "starved"), 60);
  EXPECT_DOUBLE_EQ(Cause(a, "notcons"), 0);
  EXPECT_DOUBLE_EQ(Cause(a, "none"), 0);
}

TEST(Analyze, VpuWorkExplainsIdleCyclesAndTheRestIsNothingInFlight) {
  Profile p = Windowed(64, {64});
  p.instrs = {Instr(3, "VOP.ADD", 0, 0, 0, 50)};
  Analysis a = Analyze(p);
  EXPECT_DOUBLE_EQ(Cause(a, "vpu"), 50);
  EXPECT_DOUBLE_EQ(Cause(a, "none"), 14);
}

TEST(Analyze, OverlappingRunsOfAUnitCountOnce) {
  Profile p = Windowed(64, {64});
  p.instrs = {Instr(2, "QACT", 0, 0, 0, 30), Instr(2, "QACT", 0, 0, 20, 40)};
  EXPECT_DOUBLE_EQ(Cause(Analyze(p), "quant"), 40);
}

TEST(Analyze, ClassesSumTheirInstructionsWaits) {
  Profile p = Windowed(100, {100});
  p.instrs = {Instr(1, "MM", 0, 5, 12, 40), Instr(1, "MM", 10, 10, 40, 90), Instr(0, "LD", 0, 0, 0, 4)};
  Analysis a = Analyze(p);
  ASSERT_EQ(a.classes.size(), 2u);
  EXPECT_EQ(a.classes[0].name, "MM");
  EXPECT_EQ(a.classes[0].count, 2);
  EXPECT_DOUBLE_EQ(a.classes[0].busy, 28 + 50);
  EXPECT_DOUBLE_EQ(a.classes[0].wait_dep, 5 + 0);
  EXPECT_DOUBLE_EQ(a.classes[0].wait_unit, 7 + 30);
}

TEST(Analyze, AMissingEventTakesTheNextThatHappened) {
  Profile p = Windowed(100, {100});
  p.instrs = {Instr(3, "VOP.MUL", -1, -1, 30, -1)};  // cut trace: only its start survived
  Analysis a = Analyze(p);
  EXPECT_DOUBLE_EQ(a.classes[0].wait_dep, 0);
  EXPECT_DOUBLE_EQ(a.classes[0].busy, 70);  // runs to the end of the profile
}

TEST(Analyze, RebuildsWindowsWhenTheProfileHasNoBuckets) {
  Profile p;
  p.cycles = 130;
  InstrRow ld = Instr(0, "LD", 0, 0, 0, 100);
  ld.port_b = 100;
  p.instrs = {ld};
  Analysis a = Analyze(p);
  EXPECT_TRUE(a.rebuilt_windows);
  EXPECT_EQ(a.windows, 3);
  EXPECT_DOUBLE_EQ(a.total, 130);
  EXPECT_DOUBLE_EQ(Cause(a, "stream"), 100);
}

TEST(Analyze, RebuiltWindowsAreBoundedWhateverTheCycleCount) {
  Profile p;
  p.cycles = 1'000'000'000;
  const Analysis a = Analyze(p);
  EXPECT_TRUE(a.rebuilt_windows);
  EXPECT_LE(a.windows, int64_t{1} << 18);
  EXPECT_GT(a.windows, int64_t{1} << 17);
}

}  // namespace
}  // namespace otpu::lens
