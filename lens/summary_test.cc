#include "lens/summary.h"

#include <gtest/gtest.h>

#include "lens/attribution.h"
#include "lens/synthetic.h"
#include "rapidjson/document.h"

namespace otpu::lens {
namespace {

TEST(SummaryText, NamesEveryProfileAndEveryCause) {
  ProfileFile f = SyntheticFile({ProfileKind::kIsa, ProfileKind::kHw}, 300);
  std::string text = SummaryText(f, "run.otpuprof");
  EXPECT_EQ(text.rfind("run.otpuprof: 2 profiles\n", 0), 0u) << text;
  EXPECT_NE(text.find("profile 1: synthetic-hw (hw)"), std::string::npos);
  for (const CauseInfo& c : Causes()) EXPECT_NE(text.find(c.label), std::string::npos) << c.label;
  EXPECT_NE(text.find("[warn] " + f.profiles[0].notes[0].text), std::string::npos);
}

TEST(SummaryJson, CyclesWentAddUpAndClassesCountEveryInstruction) {
  ProfileFile f = SyntheticFile({ProfileKind::kRtl}, 777);
  rapidjson::Document d;
  d.Parse(SummaryJson(f, "x").c_str());
  ASSERT_TRUE(d.IsObject());
  const rapidjson::Value& p = d["profiles"][0];
  double total = 0;
  for (const auto& m : p["cycles_went"].GetObject()) total += m.value.GetDouble();
  EXPECT_DOUBLE_EQ(total, Analyze(f.profiles[0]).total);
  int64_t count = 0;
  for (const auto& c : p["classes"].GetArray()) count += c["count"].GetInt64();
  EXPECT_EQ(count, 777);
  EXPECT_EQ(p["cycles"].GetInt64(), f.profiles[0].cycles);
  EXPECT_EQ(p["units"].GetArray().Size(), f.profiles[0].units.size());
}

// A counters-only board profile (a map-1 card): port-B busy from its roofline counters, and no
// made-up causes ("nothing in flight 100%") for cycles it did not trace.
ProfileFile CountersOnly() {
  ProfileFile f = SyntheticFile({ProfileKind::kBoard}, 10);
  Profile& p = f.profiles[0];
  p.instrs.clear();
  p.slices.assign(1, Slice{});
  p.roofline.per_slice = {{800, 50, 800}};
  p.roofline.bound = 800;
  p.cycles = 1000;
  p.roofline.efficiency = 0.8;
  return f;
}

TEST(SummaryText, ACountersOnlyProfileHasPortBBusyAndNoCauses) {
  std::string text = SummaryText(CountersOnly(), "m1.otpuprof");
  EXPECT_NE(text.find("port-B busy     80.0% (800 chunks)"), std::string::npos) << text;
  EXPECT_NE(text.find("not recorded (counters only, no trace)"), std::string::npos) << text;
  EXPECT_EQ(text.find("nothing in flight"), std::string::npos) << text;
  EXPECT_NE(text.find("busy not counted"), std::string::npos) << text;
}

TEST(SummaryJson, ACountersOnlyProfileHasNoCyclesWent) {
  rapidjson::Document d;
  d.Parse(SummaryJson(CountersOnly(), "x").c_str());
  ASSERT_TRUE(d.IsObject());
  const rapidjson::Value& p = d["profiles"][0];
  EXPECT_FALSE(p["trace"].GetBool());
  EXPECT_TRUE(p["cycles_went"].IsNull());
  EXPECT_DOUBLE_EQ(p["port_b_busy"].GetDouble(), 0.8);
}

}  // namespace
}  // namespace otpu::lens
