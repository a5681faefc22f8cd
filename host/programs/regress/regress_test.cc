// Unit tests of otpu-regress's parts: the matrix, baselines, results and reports.
#include <gtest/gtest.h>

#include <set>

#include "host/programs/regress/baseline.h"
#include "host/programs/regress/cell_result.h"
#include "host/programs/regress/local_runner.h"
#include "host/programs/regress/matrix.h"
#include "host/programs/regress/report.h"
#include "lens/synthetic.h"

namespace otpu::regress {
namespace {

constexpr const char* kMatrix = R"({
  "name": "t", "base_seed": 7,
  "defaults": {"configs": ["sim", "board"], "memories": ["ideal", "axi stall 20"]},
  "workloads": [{"name": "mlp-small"}, {"name": "qwen-tiny", "pos": 1, "wformat": "int4",
                 "transports": ["sim", "card"], "memories": ["axi"], "configs": ["sim"]}],
  "exclude": [{"workload": "mlp-small", "config": "board", "memory": "ideal"}]
})";

TEST(Matrix, ExpandsTheAxesWithStableIds) {
  StatusOr<Matrix> m = ParseMatrix(kMatrix, "t.json");
  ASSERT_TRUE(m.ok()) << m.status().message();
  std::vector<std::string> ids;
  for (const Cell& c : m->cells) ids.push_back(c.id);
  EXPECT_EQ(ids, (std::vector<std::string>{
                     "mlp-small/sim/ideal/sim/s0", "mlp-small/sim/axi-stall20/sim/s0",
                     "mlp-small/board/axi-stall20/sim/s0", "qwen-tiny+pos1+int4/sim/axi/sim/s0",
                     "qwen-tiny+pos1+int4/sim/axi/card/s0"}));
  EXPECT_EQ(m->cells[1].FileName(), "mlp-small.sim.axi-stall20.sim.s0");
  EXPECT_EQ(m->cells[1].memory.Name(), "axi stall 20");
  EXPECT_EQ(m->cells[3].pos, 1);
  // Seeds come from the base seed and the id: the same cell, the same seed, in any matrix.
  StatusOr<Matrix> again = ParseMatrix(kMatrix, "other.json");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->cells[2].seed, m->cells[2].seed);
  EXPECT_NE(m->cells[1].seed, m->cells[2].seed);
  EXPECT_EQ(m->DramOf(m->cells[1]).seed, m->cells[1].seed);
}

TEST(Matrix, ErrorsNameTheFileAndField) {
  auto err = [](const std::string& json) {
    StatusOr<Matrix> m = ParseMatrix(json, "bad.json");
    EXPECT_FALSE(m.ok());
    return m.ok() ? std::string() : m.status().message();
  };
  EXPECT_EQ(err(R"({"name":"x","workloads":[{"name":"nope"}]})").rfind("bad.json: workloads[0].name: unknown workload 'nope'", 0), 0u);
  EXPECT_EQ(err(R"({"name":"x","workloads":[{"name":"mlp","memories":["fast"]}]})"),
            "bad.json: workloads[0].memories[0]: 'fast' is not a memory (ideal, stall N, axi or axi stall N; N in 1..99)");
  EXPECT_EQ(err(R"({"name":"x","workloads":[{"name":"mlp","configs":["big"]}]})"),
            "bad.json: workloads[0].configs[0]: 'big' is not a configuration (sim or board)");
  EXPECT_EQ(err(R"({"name":"x","workloads":[{"name":"mlp","transports":["pcie"]}]})"),
            "bad.json: workloads[0].transports[0]: 'pcie' is not a transport (sim or card)");
  EXPECT_EQ(err(R"({"name":"x","frob":1,"workloads":[{"name":"mlp"}]})").rfind("bad.json: frob: unknown key", 0), 0u);
  EXPECT_EQ(err(R"({"name":"x","workloads":[{"name":"mlp"},{"name":"mlp"}]})"),
            "bad.json: workloads[1]: cell mlp/sim/axi/sim/s0 appears twice");
  EXPECT_EQ(err(R"({"name":"x","workloads":[]})"), "bad.json: workloads: expected a non-empty array");
  EXPECT_EQ(err(R"({"name":"x","dram":{"latency":0},"workloads":[{"name":"mlp"}]})"),
            "bad.json: dram.latency: expected an integer in 1..4096");
  EXPECT_EQ(err("{").rfind("bad.json: invalid JSON at byte 1", 0), 0u);
  EXPECT_EQ(err(R"({"workloads":[{"name":"mlp"}]})"), "bad.json: name: expected a non-empty string");
}

TEST(Matrix, ShardsPartitionTheCellsByIdHash) {
  StatusOr<Matrix> m = ParseMatrix(R"({"name":"x","defaults":{"seeds":10,"memories":["ideal","axi","axi stall 5"]},
    "workloads":[{"name":"mlp"},{"name":"mlp8"}]})", "x.json");
  ASSERT_TRUE(m.ok()) << m.status().message();
  std::multiset<std::string> seen;
  for (int k = 1; k <= 3; ++k) {
    StatusOr<std::vector<Cell>> part = SelectCells(*m, "", k, 3);
    ASSERT_TRUE(part.ok());
    EXPECT_GT(part->size(), 0u);
    for (const Cell& c : *part) seen.insert(c.id);
  }
  EXPECT_EQ(seen.size(), m->cells.size());
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), m->cells.size());
  StatusOr<std::vector<Cell>> only = SelectCells(*m, "^mlp8/.*/s3$", 1, 1);
  ASSERT_TRUE(only.ok());
  EXPECT_EQ(only->size(), 3u);
  EXPECT_FALSE(SelectCells(*m, "(", 1, 1).ok());
  EXPECT_FALSE(SelectCells(*m, "", 4, 3).ok());
}

TEST(Baseline, RoundTripsToAnEqualComparison) {
  const lens::Profile p = lens::SyntheticProfile(lens::ProfileKind::kHw, 300);
  const std::string text = BaselineJson("a/sim/axi/sim/s0", p);
  EXPECT_EQ(BaselineJson("a/sim/axi/sim/s0", p), text);
  StatusOr<lens::Profile> back = ParseBaseline(text, "b.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  const lens::ProfileDelta d = CompareWithBaseline(*back, p);
  EXPECT_TRUE(d.equal()) << lens::DiffText({{d}, {}, {}});
  lens::Profile moved = p;
  moved.instrs[17].end += 5;
  moved.slices[0].lose[1] += 2;
  const lens::ProfileDelta d2 = CompareWithBaseline(*back, moved);
  EXPECT_FALSE(d2.equal());
  EXPECT_EQ(d2.instrs_changed, 1);
  ASSERT_FALSE(d2.fields.empty());
  EXPECT_EQ(d2.fields[0].field, "lose.MXU");
}

TEST(Baseline, BadFileNamesTheField) {
  StatusOr<lens::Profile> b = ParseBaseline(R"({"format":"otpu-regress-baseline","version":1,"cycles":"x"})", "b.json");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(), "b.json: cycles: expected an integer");
  b = ParseBaseline(R"({"format":"other"})", "b.json");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(), "b.json: format: expected \"otpu-regress-baseline\"");
  // A number RapidJSON's full-precision reader would read past (found by fuzzing).
  b = ParseBaseline("{\"cycles\":0." + std::string(700, '0') + "1}", "b.json");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(),
            "b.json: (top): invalid JSON at byte 10: number longer than 64 characters");
}

CellResult Result(const std::string& id, int index, const std::string& memory, int64_t cycles,
                  Outcome perf) {
  CellResult r;
  r.id = id;
  r.index = index;
  r.memory = memory;
  r.cycles = cycles;
  r.command = "otpu-regress cell m.json --id " + id;
  r.verdicts = {{"correctness", Outcome::kPass, "ok", ""},
                {"parity", Outcome::kPass, "ok", ""},
                {"dependency", Outcome::kPass, "ok", ""},
                {"assertions", Outcome::kPass, "ok", ""},
                {"performance", perf, perf == Outcome::kPass ? "equal" : "differs <&>", "pc 3 MM"}};
  return r;
}

TEST(Report, CellResultRoundTrips) {
  CellResult r = Result("m/sim/axi/sim/s0", 3, "axi", 1234, Outcome::kFail);
  r.seed = 0x7fffffffffffull;
  r.efficiency = 0.875;
  r.started = "2024-05-06T07:08:09";
  r.hostname = "node-3";
  r.verdicts[0].time_s = 1.25;
  r.verdicts[1].time_s = 0.0005;
  StatusOr<CellResult> back = ParseCellResult(CellResultJson(r), "r.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(CellResultJson(*back), CellResultJson(r));
  EXPECT_EQ(back->outcome(), Outcome::kFail);
}

TEST(Report, StallInversionsAreFound) {
  std::vector<CellResult> cells = {
      Result("m/sim/axi/sim/s0", 0, "axi", 1000, Outcome::kPass),
      Result("m/sim/axi-stall10/sim/s0", 1, "axi stall 10", 1100, Outcome::kPass),
      Result("m/sim/axi-stall20/sim/s0", 2, "axi stall 20", 1050, Outcome::kPass),
      Result("m/sim/ideal/sim/s0", 3, "ideal", 900, Outcome::kPass),
      Result("m/sim/stall20/sim/s0", 4, "stall 20", 950, Outcome::kPass)};
  const Index index = MakeIndex("m.json", "m", cells, {}, 1.0);
  ASSERT_EQ(index.inversions.size(), 1u);
  EXPECT_EQ(index.inversions[0].higher_id, "m/sim/axi-stall20/sim/s0");
  EXPECT_EQ(index.inversions[0].lower_id, "m/sim/axi-stall10/sim/s0");
  EXPECT_FALSE(index.passed());
  EXPECT_EQ(ExitCodeOf(index), kExitFail);
  EXPECT_NE(JUnitXml(index).find("stall-monotonic"), std::string::npos);
  EXPECT_NE(MarkdownSummary(index).find("Cycles fell as stalls rose"), std::string::npos);
}

TEST(Report, IndexRoundTripsAndExitCodes) {
  std::vector<CellResult> cells = {Result("m/sim/axi/sim/s0", 0, "axi", 1000, Outcome::kPass),
                                   Result("m/sim/ideal/sim/s0", 1, "ideal", 900, Outcome::kFail)};
  Index index = MakeIndex("m.json", "m", cells, {"m/board/axi/sim/s0"}, 2.0);
  EXPECT_EQ(ExitCodeOf(index), kExitFail);
  StatusOr<Index> back = ParseIndex(IndexJson(index), "index.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(IndexJson(*back), IndexJson(index));
  Index only_missing = MakeIndex("m.json", "m", {cells[0]}, {"m/board/axi/sim/s0"}, 1.0);
  EXPECT_EQ(ExitCodeOf(only_missing), kExitInfra);
  EXPECT_EQ(ExitCodeOf(MakeIndex("m.json", "m", {cells[0]}, {}, 1.0)), kExitPass);
  const std::string md = MarkdownSummary(index);
  EXPECT_NE(md.find("**FAILED**"), std::string::npos);
  EXPECT_NE(md.find("reproduce: `otpu-regress cell m.json --id m/sim/ideal/sim/s0`"), std::string::npos);
  const std::string xml = JUnitXml(index);
  EXPECT_NE(xml.find("message=\"differs &lt;&amp;&gt;\""), std::string::npos);
  EXPECT_NE(xml.find("<property name=\"command\""), std::string::npos);
}

// Passing rows fold into <details>; failing and missing ones stay above it, in sight.
TEST(Report, SummaryFoldsPassingRows) {
  std::vector<CellResult> cells = {Result("m/sim/axi/sim/s0", 0, "axi", 1000, Outcome::kPass),
                                   Result("m/sim/ideal/sim/s0", 1, "ideal", 900, Outcome::kFail),
                                   Result("m/board/axi/sim/s0", 2, "axi", 1100, Outcome::kPass)};
  const std::string md = MarkdownSummary(MakeIndex("m.json", "m", cells, {"m/board/ideal/sim/s0"}, 1.0));
  const size_t details = md.find("<details><summary>2 passing cells</summary>\n\n| cell |");
  const size_t end = md.find("</details>");
  ASSERT_NE(details, std::string::npos) << md;
  ASSERT_NE(end, std::string::npos) << md;
  const size_t failing = md.find("| `m/sim/ideal/sim/s0` | pass | pass | pass | pass | **FAIL** |");
  const size_t missing = md.find("| `m/board/ideal/sim/s0` | **ERROR** |");
  EXPECT_LT(failing, details) << md;
  EXPECT_LT(missing, details) << md;
  for (const char* id : {"| `m/sim/axi/sim/s0` | pass", "| `m/board/axi/sim/s0` | pass"}) {
    const size_t at = md.find(id);
    EXPECT_TRUE(at > details && at < end) << id << "\n" << md;
  }
  // All passing: one folded table, nothing above it.
  const std::string green = MarkdownSummary(MakeIndex("m.json", "m", {cells[0]}, {}, 1.0));
  EXPECT_EQ(green.find("| cell |"), green.find("<details><summary>1 passing cells</summary>") + 45) << green;
  // All failing: no <details> at all.
  EXPECT_EQ(MarkdownSummary(MakeIndex("m.json", "m", {cells[1]}, {}, 1.0)).find("<details>"), std::string::npos);
}

// The JUnit's new testsuite attributes and measured testcase times, and the log as
// <system-out> with what XML cannot hold removed.
TEST(Report, JUnitCarriesTimestampHostTimesAndLog) {
  CellResult r = Result("m/sim/axi/sim/s0", 0, "axi", 1000, Outcome::kFail);
  r.started = "2024-05-06T07:08:09";
  r.hostname = "node<3>";
  r.verdicts[0].time_s = 2.5;
  r.verdicts[1].time_s = 0.000125;
  r.verdicts[2].time_s = 0.003;
  Index index = MakeIndex("m.json", "m", {r}, {}, 1.0);
  index.logs[r.id] = "line <1> & \x01" "bell\xff\xc3\xa9\xef\xbf\xbe\n";
  const std::string xml = JUnitXml(index);
  EXPECT_NE(xml.find("timestamp=\"2024-05-06T07:08:09\" hostname=\"node&lt;3&gt;\">"), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"correctness\" classname=\"otpu-regress.m.m/sim/axi/sim/s0\" time=\"2.500000\""),
            std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"parity\" classname=\"otpu-regress.m.m/sim/axi/sim/s0\" time=\"0.000125\""),
            std::string::npos) << xml;
  EXPECT_NE(xml.find("<system-out>line &lt;1&gt; &amp; bell\xc3\xa9\n</system-out>\n  </testsuite>"),
            std::string::npos) << xml;
  // A result without them (older than the fields) writes neither attribute.
  EXPECT_EQ(JUnitXml(MakeIndex("m.json", "m", {Result("a/sim/axi/sim/s0", 0, "axi", 1, Outcome::kPass)}, {}, 1.0))
                .find("timestamp="),
            std::string::npos);
}

TEST(Report, XmlTextKeepsOnlyXmlCharacters) {
  EXPECT_EQ(XmlText("a\tb\r\nc"), "a\tb\r\nc");
  EXPECT_EQ(XmlText(std::string("\x00\x1b[1m", 5)), "[1m");
  EXPECT_EQ(XmlText("\xe2\x82"), "");                  // cut mid-character
  EXPECT_EQ(XmlText("\xed\xa0\x80"), "");              // a surrogate
  EXPECT_EQ(XmlText("\xc0\xbc"), "");                  // overlong '<'
  EXPECT_EQ(XmlText("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");  // outside the BMP: kept
}

}  // namespace
}  // namespace otpu::regress
