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

}  // namespace
}  // namespace otpu::lens
