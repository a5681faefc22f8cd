#include "lens/notes.h"

#include <gtest/gtest.h>

namespace otpu::lens {
namespace {

// A profile of `cycles` with one instruction row per [start, end) given, at pc = its index.
Profile WithRows(int64_t cycles, const std::vector<std::pair<int64_t, int64_t>>& spans) {
  Profile p;
  p.cycles = cycles;
  for (size_t i = 0; i < spans.size(); ++i) {
    InstrRow& r = p.instrs.emplace_back();
    r.idx = int64_t(i);
    r.pc = int64_t(i);
    r.name = "VOP.ADD";
    r.start = spans[i].first;
    r.end = spans[i].second;
  }
  return p;
}

TEST(Notes, RunWithoutDramTrafficGetsAnInfoVerdict) {
  std::vector<Note> notes = MakeNotes(WithRows(10, {{0, 10}}));
  EXPECT_EQ(notes[0].level, NoteLevel::kInfo);
  EXPECT_EQ(notes[0].text, "no DRAM traffic: the roofline does not bound this run (10 cycles)");
}

TEST(Notes, VerdictNamesPortAWhenItBounds) {
  Profile p = WithRows(100, {});
  p.roofline = {50, 0.5, {{10, 50, 50}}};
  Note v = MakeNotes(p)[0];
  EXPECT_EQ(v.level, NoteLevel::kWarn);
  EXPECT_EQ(v.text,
            "runs at 50% of the DRAM roofline: 100 cycles where port A needs 50 word transfers");
}

TEST(Notes, AtMostThreeConsumersAreNamedBiggestFirst) {
  std::vector<Note> notes = MakeNotes(WithRows(100, {{0, 10}, {10, 50}, {50, 55}, {55, 100}}));
  ASSERT_EQ(notes.size(), 1u + kHotspotNotes);
  EXPECT_EQ(notes[1].text.rfind("pc 3 VOP.ADD: 45% of cycles", 0), 0u) << notes[1].text;
  EXPECT_EQ(notes[2].text.rfind("pc 1 VOP.ADD: 40% of cycles", 0), 0u) << notes[2].text;
  EXPECT_EQ(notes[3].text.rfind("pc 0 VOP.ADD: 10% of cycles", 0), 0u) << notes[3].text;
}

TEST(Notes, InstructionThatNeverEndedRunsToTheEnd) {
  std::vector<Note> notes = MakeNotes(WithRows(100, {{40, -1}}));
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[1].text.find("(60 in 1 run)"), std::string::npos) << notes[1].text;
}

}  // namespace
}  // namespace otpu::lens
