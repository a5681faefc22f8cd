#include "lens/chrome_trace.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "lens/gzip.h"
#include "lens/synthetic.h"
#include "rapidjson/document.h"

namespace otpu::lens {
namespace {

namespace fs = std::filesystem;

TEST(ChromeTrace, HasACompleteEventPerInstructionInMicroseconds) {
  ProfileFile f = SyntheticFile({ProfileKind::kRtl}, 200);
  f.profiles[0].clock_mhz = 250;
  rapidjson::Document d;
  d.Parse(ChromeTraceJson(f).c_str());
  ASSERT_TRUE(d.IsObject());
  int complete = 0;
  for (const auto& e : d["traceEvents"].GetArray()) {
    if (std::string(e["ph"].GetString()) != "X") continue;
    const InstrRow& r = f.profiles[0].instrs[size_t(e["args"]["idx"].GetInt64())];
    EXPECT_DOUBLE_EQ(e["ts"].GetDouble(), double(r.start) / 250);
    EXPECT_DOUBLE_EQ(e["dur"].GetDouble(), double(r.end - r.start) / 250);
    EXPECT_EQ(e["name"].GetString(), r.name);
    ++complete;
  }
  EXPECT_EQ(complete, 200);
}

TEST(ChromeTrace, NamesAThreadPerUnitAndCountersHaveOneValue) {
  ProfileFile f = SyntheticFile({ProfileKind::kIsa}, 64);
  rapidjson::Document d;
  d.Parse(ChromeTraceJson(f).c_str());
  std::set<std::string> threads, counters;
  for (const auto& e : d["traceEvents"].GetArray()) {
    std::string ph = e["ph"].GetString(), name = e["name"].GetString();
    if (ph == "M" && name == "thread_name") threads.insert(e["args"]["name"].GetString());
    if (ph == "C") {
      counters.insert(name);
      EXPECT_EQ(e["args"].MemberCount(), 1u);
      EXPECT_TRUE(e["args"].HasMember("value"));
    }
  }
  for (const char* unit : {"DMA", "MXU", "QUANT", "VPU"}) EXPECT_TRUE(threads.count(unit)) << unit;
  EXPECT_EQ(counters, (std::set<std::string>{"port B chunks/cycle", "MXU busy", "DRAM stalls", "TMEM losses", "FIFO level"}));
}

TEST(ChromeTrace, OverlappingInstructionsGetTheirOwnThread) {
  ProfileFile f;
  Profile& p = f.profiles.emplace_back();
  p.cycles = 100;
  for (int k = 0; k < 2; ++k) {
    InstrRow& r = p.instrs.emplace_back();
    r.unit = 1;
    r.name = "MM";
    r.idx = k;
    r.start = 10 * k;
    r.end = 50;
  }
  rapidjson::Document d;
  d.Parse(ChromeTraceJson(f).c_str());
  std::set<int> tids;
  for (const auto& e : d["traceEvents"].GetArray()) {
    if (std::string(e["ph"].GetString()) == "X") tids.insert(e["tid"].GetInt());
  }
  EXPECT_EQ(tids.size(), 2u);
}

TEST(WriteChromeTrace, WritesGzipOfTheJson) {
  std::string tmpl = (fs::temp_directory_path() / "chrome_trace_test.XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  ProfileFile f = SyntheticFile({ProfileKind::kHw}, 30);
  const std::string out = tmpl + "/t.json.gz";
  ASSERT_TRUE(WriteChromeTrace(f, out).ok());
  std::ifstream in(out, std::ios::binary);
  std::string gz((std::istreambuf_iterator<char>(in)), {});
  StatusOr<std::string> json = GzipDecompress(gz);
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(*json, ChromeTraceJson(f));
  Status bad = WriteChromeTrace(f, tmpl + "/no/dir/t.json.gz");
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find(tmpl + "/no/dir/t.json.gz"), std::string::npos) << bad.message();
  fs::remove_all(tmpl);
}

TEST(WriteChromeTrace, WritesPlainJsonWhenTheNameDoesNotEndInGz) {
  std::string tmpl = (fs::temp_directory_path() / "chrome_trace_test.XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  ProfileFile f = SyntheticFile({ProfileKind::kHw}, 30);
  const std::string out = tmpl + "/t.json";
  ASSERT_TRUE(WriteChromeTrace(f, out).ok());
  std::ifstream in(out, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, ChromeTraceJson(f));
  fs::remove_all(tmpl);
}

TEST(ChromeTrace, AnIncompleteTraceCarriesItsLossAsMetadataAndAMarker) {
  ProfileFile f = SyntheticFile({ProfileKind::kHw}, 50);
  HwTrace& t = *f.profiles[0].hwtrace;
  t.complete = false;
  t.lost = 7;
  t.traced_to = f.profiles[0].cycles / 2;
  rapidjson::Document d;
  d.Parse(ChromeTraceJson(f).c_str());
  ASSERT_TRUE(d.IsObject());
  const rapidjson::Value& meta = d["metadata"]["otpu_profiles"][0];
  EXPECT_FALSE(meta["trace_complete"].GetBool());
  EXPECT_EQ(meta["hwtrace"]["lost"].GetInt64(), 7);
  EXPECT_EQ(meta["hwtrace"]["traced_to"].GetInt64(), t.traced_to);
  bool marker = false, label = false;
  for (const auto& e : d["traceEvents"].GetArray()) {
    if (std::string(e["ph"].GetString()) == "i" && std::string(e["name"].GetString()) == "trace ends (traced_to)") marker = true;
    if (std::string(e["ph"].GetString()) == "M" && std::string(e["name"].GetString()) == "process_labels") label = true;
  }
  EXPECT_TRUE(marker);
  EXPECT_TRUE(label);
}

TEST(ChromeTrace, ADependencyWaitIsAFlowFromItsProducerToTheWaitingInstruction) {
  ProfileFile f = SyntheticFile({ProfileKind::kRtl}, 2);
  Profile& p = f.profiles[0];
  p.instrs.resize(2);
  // #0 (DMA) runs 0..10; #1 (MXU) is dispatched at 2, ready at 10 (#0's end), starts at 12.
  auto row = [](int32_t unit, int64_t idx, int64_t dispatch, int64_t ready, int64_t start, int64_t end) {
    InstrRow r;
    r.unit = unit;
    r.idx = r.pc = idx;
    r.name = unit == 0 ? "LD" : "MM";
    r.dispatch = dispatch;
    r.ready = ready;
    r.start = start;
    r.end = end;
    return r;
  };
  p.instrs[0] = row(0, 0, 0, 0, 0, 10);
  p.instrs[1] = row(1, 1, 2, 10, 12, 20);
  rapidjson::Document d;
  d.Parse(ChromeTraceJson(f).c_str());
  ASSERT_TRUE(d.IsObject());
  std::vector<const rapidjson::Value*> flows;
  for (const auto& e : d["traceEvents"].GetArray()) {
    const std::string ph = e["ph"].GetString();
    if (ph == "s" || ph == "f") flows.push_back(&e);
  }
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(std::string((*flows[0])["ph"].GetString()), "s");
  EXPECT_EQ((*flows[0])["id"].GetInt64(), (*flows[1])["id"].GetInt64());
  EXPECT_EQ((*flows[0])["tid"].GetInt(), 0 * 16 + 1);  // the DMA's thread
  EXPECT_EQ((*flows[1])["tid"].GetInt(), 1 * 16 + 1);  // the MXU's thread
  EXPECT_DOUBLE_EQ((*flows[1])["ts"].GetDouble(), 12.0 / f.profiles[0].clock_mhz);
  EXPECT_EQ(std::string((*flows[1])["bp"].GetString()), "e");
}

}  // namespace
}  // namespace otpu::lens
