#include "lens/info.h"

#include <gtest/gtest.h>

#include "lens/synthetic.h"

namespace otpu::lens {
namespace {

TEST(Info, EveryProfileGetsItsBlock) {
  std::string text =
      InfoText(SyntheticFile({ProfileKind::kIsa, ProfileKind::kRtl}, 10), "a.otpuprof");
  EXPECT_EQ(
      text.rfind("a.otpuprof: openTPU-profile version 1, 2 profiles, written 2025-01-31T12:00:00Z",
                 0),
      0u)
      << text;
  EXPECT_NE(text.find("profile 0: synthetic-isa (isa)"), std::string::npos) << text;
  EXPECT_NE(text.find("profile 1: synthetic-rtl (rtl)"), std::string::npos) << text;
  EXPECT_NE(text.find("  instructions  10\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    [warn] runs at 41% of the port-B roofline\n"), std::string::npos)
      << text;
}

TEST(Info, CardCountersAndTraceLossesAreShown) {
  ProfileFile f = SyntheticFile({ProfileKind::kHw}, 10);
  f.profiles[0].hwtrace->lost = 7;
  f.profiles[0].hwtrace->complete = false;
  std::string text = InfoText(f, "hw.otpuprof");
  EXPECT_NE(text.find("board         CYCLES="), std::string::npos) << text;
  EXPECT_NE(text.find("lost 7, incomplete"), std::string::npos) << text;
}

TEST(Info, RooflineIsShownAsBoundAndPercent) {
  ProfileFile f = SyntheticFile({ProfileKind::kIsa}, 10);
  f.profiles[0].roofline.bound = 123;
  f.profiles[0].roofline.efficiency = 0.5;
  EXPECT_NE(InfoText(f, "x").find("roofline      bound 123 cycles, efficiency 50.0%"),
            std::string::npos);
}

}  // namespace
}  // namespace otpu::lens
