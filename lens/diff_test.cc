#include "lens/diff.h"

#include <gtest/gtest.h>

#include "lens/synthetic.h"

namespace otpu::lens {
namespace {

TEST(Diff, SameProfileIsEqual) {
  const Profile p = SyntheticProfile(ProfileKind::kHw, 200);
  const ProfileDiff d = DiffProfiles({p}, {p});
  EXPECT_TRUE(d.equal());
  EXPECT_EQ(d.profiles.at(0).instrs_compared, 200);
  EXPECT_EQ(DiffText(d), "equal: profile \"" + p.name + "\"\n");
}

TEST(Diff, NamesTheInstructionThatMovedAndItsCounter) {
  const Profile base = SyntheticProfile(ProfileKind::kRtl, 100);
  Profile now = base;
  InstrRow& r = now.instrs[40];
  r.end += 37;
  r.counters.push_back({"starve", 37});
  now.cycles += 37;
  const ProfileDiff d = DiffProfiles({base}, {now});
  ASSERT_FALSE(d.equal());
  const ProfileDelta& p = d.profiles.at(0);
  ASSERT_EQ(p.instrs_changed, 1);
  const InstrDelta& x = p.instrs.at(0);
  EXPECT_EQ(x.pc, r.pc);
  EXPECT_EQ(x.cycles_after - x.cycles_before, 37);
  EXPECT_EQ(x.cause, "starve");
  EXPECT_EQ(x.cause_delta, 37);
  ASSERT_FALSE(p.fields.empty());
  EXPECT_EQ(p.fields[0].field, "cycles");
  const std::string text = DiffText(d);
  EXPECT_NE(text.find("pc " + std::to_string(r.pc) + " " + r.name), std::string::npos) << text;
  EXPECT_NE(text.find("starve +37"), std::string::npos) << text;
  EXPECT_NE(DiffJson(d).find("\"cause\":\"starve\""), std::string::npos);
}

TEST(Diff, MatchesInstructionsByPcAndOccurrenceNotPosition) {
  const Profile base = SyntheticProfile(ProfileKind::kRtl, 64);
  Profile now = base;
  now.instrs.pop_back();  // the last run of one pc is missing
  const ProfileDelta d = DiffProfile(base, now);
  EXPECT_EQ(d.instrs_changed, 0);
  EXPECT_EQ(d.instrs_unmatched, 1);
  EXPECT_FALSE(d.equal());
}

TEST(Diff, ReportsProfilesWithoutPartner) {
  Profile a = SyntheticProfile(ProfileKind::kRtl, 10), b = a, c = a;
  a.name = "one";
  b.name = "two";
  c.name = "three";
  c.cycles += 1;
  const ProfileDiff d = DiffProfiles({a, b}, {a, c});
  EXPECT_FALSE(d.equal());
  ASSERT_EQ(d.profiles.size(), 2u);  // "one" by name, then the single leftover pair
  EXPECT_TRUE(d.only_base.empty());
  const ProfileDiff three = DiffProfiles({a, b, c}, {a});
  EXPECT_EQ(three.only_base, (std::vector<std::string>{"two", "three"}));
  EXPECT_FALSE(three.equal());
}

TEST(Diff, HostPollingCounterIsNotCompared) {
  Profile a = SyntheticProfile(ProfileKind::kHw, 10);
  Profile b = a;
  ASSERT_TRUE(b.board.has_value());
  b.board->push_back({"UPTIME", 123});
  a.board->push_back({"UPTIME", 99});
  EXPECT_TRUE(DiffProfile(a, b).equal());
}

}  // namespace
}  // namespace otpu::lens
