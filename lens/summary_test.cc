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

}  // namespace
}  // namespace otpu::lens
