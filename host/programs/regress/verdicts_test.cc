// The parity verdict's two regimes: a keep-first buffer that filled is judged on what it kept;
// a streamed trace is judged on the whole run, so any record it lost fails.
#include "host/programs/regress/verdicts.h"

#include <gtest/gtest.h>

#include "lens/synthetic.h"

namespace otpu::regress {
namespace {

// An rtl profile and a hw profile of the same run whose trace lost `lost` records at the end
// (the last instruction's end is missing), kept as `keep`.
struct Pair {
  lens::Profile rtl, hw;
};

Pair Cut(const std::string& keep, int64_t lost) {
  Pair p;
  p.rtl = lens::SyntheticProfile(lens::ProfileKind::kRtl, 40);
  p.hw = p.rtl;
  p.hw.kind = lens::ProfileKind::kHw;
  lens::HwTrace t;
  t.keep = keep;
  t.depth = 1000;
  t.count = 1000 + lost;
  t.lost = lost;
  t.records = 1000;
  t.traced_to = p.hw.instrs.back().start;
  t.complete = lost == 0;
  p.hw.hwtrace = t;
  if (lost > 0) p.hw.instrs.back().end = -1;
  return p;
}

TEST(ParityVerdict, KeepFirstIsJudgedOnWhatTheBufferKept) {
  const Pair p = Cut("first", 25);
  const Verdict v = Parity(p.rtl, p.hw, 64);
  EXPECT_EQ(v.outcome, Outcome::kPass) << v.message;
  EXPECT_NE(v.message.find("all it holds equals the rtl profile"), std::string::npos) << v.message;
}

TEST(ParityVerdict, StreamIsJudgedOnTheWholeRun) {
  const Pair p = Cut("stream", 25);
  const Verdict v = Parity(p.rtl, p.hw, 64);
  EXPECT_EQ(v.outcome, Outcome::kFail) << v.message;
  EXPECT_NE(v.message.find("lost 25"), std::string::npos) << v.message;
}

TEST(ParityVerdict, CompleteStreamPasses) {
  const Pair p = Cut("stream", 0);
  const Verdict v = Parity(p.rtl, p.hw, 64);
  EXPECT_EQ(v.outcome, Outcome::kPass) << v.message;
}

}  // namespace
}  // namespace otpu::regress
