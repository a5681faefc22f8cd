// The findings (lens/findings.h) on small hand-made profiles: the gap causes, the blamed
// instruction and the empty cases.
#include "lens/findings.h"

#include <gtest/gtest.h>

namespace otpu::lens {
namespace {

InstrRow Mm(int64_t idx, int64_t pc, int64_t dispatch, int64_t ready, int64_t start,
            int64_t end) {
  InstrRow r;
  r.unit = 1;
  r.idx = idx;
  r.pc = pc;
  r.name = "MM";
  r.dispatch = dispatch;
  r.ready = ready;
  r.start = start;
  r.end = end;
  return r;
}

Profile TwoMms() {
  Profile p;
  p.kind = ProfileKind::kRtl;
  p.cycles = 100;
  p.instrs = {Mm(0, 3, 0, 5, 10, 40), Mm(1, 4, 1, 50, 55, 80)};
  return p;
}

TEST(FindMxuGaps, NamesWhyEachGapHappened) {
  const std::vector<MxuGap> gaps = FindMxuGaps(TwoMms());
  const std::vector<MxuGap> want = {{0, 10, "deps"}, {40, 55, "deps"}, {80, 100, "end"}};
  EXPECT_EQ(gaps, want);
}

TEST(FindMxuGaps, LateDispatchAndDramDependencies) {
  Profile p = TwoMms();
  p.instrs[0].ready = 0;       // ready at once: the wait was for its DRAM dependencies
  p.instrs[1].dispatch = 45;   // dispatched after the first ended
  const std::vector<MxuGap> gaps = FindMxuGaps(p);
  ASSERT_EQ(gaps.size(), 3u);
  EXPECT_EQ(gaps[0].cause, "dram_dep");
  EXPECT_EQ(gaps[1].cause, "dispatch");
}

TEST(FindMxuGaps, NoMmNoGaps) {
  Profile p = TwoMms();
  p.instrs.clear();
  EXPECT_TRUE(FindMxuGaps(p).empty());
}

TEST(LostCycleNotes, NamesTheMmWithTheMostBackpressure) {
  Profile p = TwoMms();
  p.instrs[0].counters = {{"bp", 3}};
  p.instrs[1].counters = {{"bp", 20}};
  p.sources = {{"workloads/kernels/mlp.cc", 141, "Mlp", ""}};
  p.instrs[1].source = 0;
  Slice s;
  s.buckets.Resize(1);
  s.buckets.c[0] = 99;
  s.buckets.n[0] = 100;
  s.buckets.bm[0] = 40;
  s.buckets.mb[0] = 30;
  p.slices = {s};
  const std::vector<Note> notes = LostCycleNotes(p);
  ASSERT_FALSE(notes.empty());
  EXPECT_EQ(notes[0].text, "MXU not consuming for 30 cycles (30%) during pc 4 MM at "
                           "workloads/kernels/mlp.cc:141");
  EXPECT_EQ(notes[0].level, NoteLevel::kWarn);
}

TEST(LostCycleNotes, AllStreamingGivesNoNotes) {
  Profile p = TwoMms();
  Slice s;
  s.buckets.Resize(1);
  s.buckets.c[0] = 99;
  s.buckets.n[0] = 100;
  s.buckets.bm[0] = 100;
  p.slices = {s};
  EXPECT_TRUE(LostCycleNotes(p).empty());
}

}  // namespace
}  // namespace otpu::lens
