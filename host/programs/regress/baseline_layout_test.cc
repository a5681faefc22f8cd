// Baselines as a reviewer reads them (issue 22 item 7): version 2's rows are durations, waits
// and references to the event waited for, so a one-cycle shift early in a run changes a few
// lines, not every later one; they read back to the same figures exactly. Also the stale
// report of --accept and summary.md's roll-up of the instructions that moved.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/testing/temp_dir.h"
#include "host/programs/regress/baseline.h"
#include "host/programs/regress/report.h"
#include "host/programs/regress/stale_baselines.h"
#include "lens/synthetic.h"

namespace otpu::regress {
namespace {

namespace fs = std::filesystem;

std::string SourceDir() {
  const char* d = std::getenv("OTPU_SOURCE_DIR");
  return d ? d : ".";
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  for (std::string line; std::getline(s, line);) out.push_back(line);
  return out;
}

// Lines of `b` a line diff from `a` adds (those outside their longest common subsequence):
// what `git diff` shows as + lines.
size_t ChangedLines(const std::string& a, const std::string& b) {
  const std::vector<std::string> x = Lines(a), y = Lines(b);
  std::vector<std::vector<int>> l(x.size() + 1, std::vector<int>(y.size() + 1, 0));
  for (size_t i = x.size(); i-- > 0;) {
    for (size_t j = y.size(); j-- > 0;) {
      l[i][j] = x[i] == y[j] ? l[i + 1][j + 1] + 1 : std::max(l[i + 1][j], l[i][j + 1]);
    }
  }
  return y.size() - size_t(l[0][0]);
}

// `p` as if instruction `k` had taken one cycle more: its end and every event at or after its
// old end happen a cycle later (the run's tail moves with it), as a one-cycle RTL change does.
lens::Profile ShiftedAfter(const lens::Profile& p, size_t k) {
  lens::Profile q = p;
  const int64_t at = p.instrs[k].end;
  auto shift = [&](int64_t& t) {
    if (t >= at) ++t;
  };
  for (lens::InstrRow& r : q.instrs) {
    for (int64_t* t : {&r.dispatch, &r.ready, &r.release, &r.start, &r.end}) shift(*t);
  }
  ++q.cycles;
  q.roofline.efficiency = double(q.roofline.bound) / double(q.cycles);
  return q;
}

// The largest checked-in baseline: a real RTL recording of the layer kernel.
lens::Profile LayerBaseline(std::string* id) {
  const std::string path = SourceDir() + "/regress/baselines/layer.sim.axi.sim.s0.json";
  StatusOr<lens::Profile> p = ParseBaseline(ReadText(path), path);
  EXPECT_TRUE(p.ok()) << p.status().message();
  *id = "layer/sim/axi/sim/s0";
  return p.ok() ? *p : lens::Profile{};
}

TEST(BaselineLayout, AOneCycleShiftEarlyChangesAFewLines) {
  std::string id;
  const lens::Profile p = LayerBaseline(&id);
  ASSERT_GT(p.instrs.size(), 500u);
  const lens::Profile q = ShiftedAfter(p, 3);
  const size_t absolute = ChangedLines(BaselineJson(id, p, BaselineLayout::kAbsolute),
                                       BaselineJson(id, q, BaselineLayout::kAbsolute));
  const size_t relative = ChangedLines(BaselineJson(id, p), BaselineJson(id, q));
  std::printf("a one-cycle shift after instruction 3 of %zu changes %zu lines (absolute), %zu (relative)\n",
              p.instrs.size(), absolute, relative);
  // Absolute cycles echo the shift into nearly every later row; relative rows change the
  // instruction that took the cycle and the run-level figures (cycles, efficiency).
  EXPECT_GT(absolute, p.instrs.size() / 2);
  EXPECT_LE(relative, 4u);
  // Both still read back to exactly their own figures.
  for (const lens::Profile* x : {&p, &q}) {
    StatusOr<lens::Profile> back = ParseBaseline(BaselineJson(id, *x), "b.json");
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_TRUE(CompareWithBaseline(*back, *x).equal());
  }
}

// Every checked-in baseline (real RTL recordings of every matrix's cells), each shifted after its
// fourth instruction: the relative layout changes a few lines of each, the absolute one most.
TEST(BaselineLayout, AOneCycleShiftEarlyChangesAFewLinesOfEveryCheckedInBaseline) {
  size_t files = 0, rows = 0, absolute = 0, relative = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(SourceDir() + "/regress/baselines")) {
    const std::string text = ReadText(e.path().string());
    StatusOr<lens::Profile> p = ParseBaseline(text, e.path().string());
    ASSERT_TRUE(p.ok()) << p.status().message();
    if (p->instrs.size() < 8) continue;
    const lens::Profile q = ShiftedAfter(*p, 3);
    const size_t r = ChangedLines(BaselineJson("c", *p), BaselineJson("c", q));
    // A few lines: the shifted row, the run-level figures, and the later rows timed from an
    // instruction that ended before the shift, which in a dense random program are several (at
    // most 9 of a file: nightly's seed 167; 7 among the kernels and default's programs).
    EXPECT_LE(r, 10u) << e.path();
    relative += r;
    absolute += ChangedLines(BaselineJson("c", *p, BaselineLayout::kAbsolute), BaselineJson("c", q, BaselineLayout::kAbsolute));
    rows += p->instrs.size();
    ++files;
  }
  std::printf("%zu baselines, %zu instruction lines: a one-cycle shift after each one's 4th instruction changes %zu lines (absolute), %zu (relative)\n",
              files, rows, absolute, relative);
  EXPECT_GT(files, 10u);
  // 18x with nightly's 400 short random programs among the 469 (39x with the kernels alone).
  EXPECT_LT(relative * 10, absolute);
}

TEST(BaselineLayout, AShiftInTheMiddleChangesAFewLines) {
  std::string id;
  const lens::Profile p = LayerBaseline(&id);
  ASSERT_GT(p.instrs.size(), 500u);
  const size_t k = p.instrs.size() / 2;
  const lens::Profile q = ShiftedAfter(p, k);
  const std::string a = BaselineJson(id, p), b = BaselineJson(id, q);
  EXPECT_LE(ChangedLines(a, b), 6u) << b;
}

TEST(BaselineLayout, RelativeRowsReadBackExactlyWithMissingEvents) {
  lens::Profile p = lens::SyntheticProfile(lens::ProfileKind::kHw, 300);
  // A cut trace: events that did not happen (-1) anywhere in a row.
  p.instrs[0].dispatch = -1;
  p.instrs[5].ready = -1;
  p.instrs[9].start = -1;
  p.instrs[12].end = -1;
  p.instrs[299].start = p.instrs[299].end = -1;
  const std::string text = BaselineJson("a/sim/axi/sim/s0", p);
  EXPECT_NE(text.find("\"version\":2"), std::string::npos);
  StatusOr<lens::Profile> back = ParseBaseline(text, "b.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  for (size_t i = 0; i < p.instrs.size(); ++i) {
    const lens::InstrRow &a = p.instrs[i], &b = back->instrs[i];
    ASSERT_EQ(std::vector<int64_t>({a.dispatch, a.ready, a.release, a.start, a.end}),
              std::vector<int64_t>({b.dispatch, b.ready, b.release, b.start, b.end}))
        << "row " << i;
  }
  EXPECT_TRUE(CompareWithBaseline(*back, p).equal());
  // A changed figure still fails: zero tolerance holds through the new layout.
  lens::Profile moved = p;
  moved.instrs[40].end += 1;
  EXPECT_FALSE(CompareWithBaseline(*back, moved).equal());
}

TEST(BaselineLayout, AnAbsoluteBaselineStillReads) {
  const lens::Profile p = lens::SyntheticProfile(lens::ProfileKind::kRtl, 120);
  const std::string v1 = BaselineJson("a/sim/axi/sim/s0", p, BaselineLayout::kAbsolute);
  EXPECT_NE(v1.find("\"version\":1"), std::string::npos);
  StatusOr<lens::Profile> back = ParseBaseline(v1, "b.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(CompareWithBaseline(*back, p).equal());
}

TEST(BaselineLayout, ABadReferenceNamesTheRowAndField) {
  const lens::Profile p = lens::SyntheticProfile(lens::ProfileKind::kRtl, 10);
  std::string text = BaselineJson("a/sim/axi/sim/s0", p);
  const size_t row = text.find("\n[", text.find("\"instrs\""));
  ASSERT_NE(row, std::string::npos);
  // Row 0's ready made a reference to a row before the first.
  const size_t third = text.find(',', text.find(',', text.find(',', row) + 1) + 1);
  const size_t fourth = text.find(',', third + 1);
  text.replace(third + 1, fourth - third - 1, "\"e2\"");
  StatusOr<lens::Profile> b = ParseBaseline(text, "b.json");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(), "b.json: instrs[0][3]: \"e2\" names no earlier row's end");
}

// Every checked-in baseline is in the relative layout and is exactly what BaselineJson writes
// for its own figures (so --accept rewrites none of them on the same RTL).
TEST(BaselineLayout, CheckedInBaselinesAreRelativeAndCanonical) {
  size_t n = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(SourceDir() + "/regress/baselines")) {
    const std::string text = ReadText(e.path().string());
    StatusOr<lens::Profile> p = ParseBaseline(text, e.path().string());
    ASSERT_TRUE(p.ok()) << p.status().message();
    const size_t at = text.find("\"cell\":\"") + 8;
    const std::string id = text.substr(at, text.find('"', at) - at);
    EXPECT_TRUE(BaselineJson(id, *p) == text) << e.path() << " is not in the layout BaselineJson writes";
    ++n;
  }
  EXPECT_GT(n, 10u);
}

TEST(BaselineLayout, MovedByPcTakesAPcsRunsTogether) {
  lens::Profile p = lens::SyntheticProfile(lens::ProfileKind::kRtl, 200);
  // Two runs of one pc take longer; one run of another moves without taking longer.
  const int64_t pc = p.instrs[20].pc;
  lens::Profile q = p;
  int changed = 0;
  for (lens::InstrRow& r : q.instrs) {
    if (r.pc == pc && changed < 2) r.end += 3, ++changed;
  }
  ASSERT_EQ(changed, 2);
  size_t other = 0;
  while (q.instrs[other].pc == pc) ++other;
  q.instrs[other].start += 1;
  q.instrs[other].end += 1;
  const std::vector<MovedInstr> m = MovedByPc(CompareWithBaseline(p, q));
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].pc, pc);
  EXPECT_EQ(m[0].runs, 2);
  EXPECT_EQ(m[0].d_busy, 6);
  EXPECT_EQ(m[0].d_end, 3);
  EXPECT_EQ(m[1].pc, q.instrs[other].pc);
  EXPECT_EQ(m[1].d_busy, 0);
  EXPECT_EQ(m[1].d_end, 1);
}

CellResult Moved(const std::string& id, std::vector<MovedInstr> moved) {
  CellResult r;
  r.id = id;
  r.command = "otpu-regress cell m.json --id " + id;
  r.verdicts = {{"correctness", Outcome::kPass, "ok", ""},
                {"parity", Outcome::kPass, "ok", ""},
                {"dependency", Outcome::kPass, "ok", ""},
                {"assertions", Outcome::kPass, "ok", ""},
                {"performance", moved.empty() ? Outcome::kPass : Outcome::kFail, "differs", ""}};
  r.moved = std::move(moved);
  return r;
}

TEST(Rollup, CountsEachInstructionAcrossTheCellsItMovedIn) {
  Index index;
  index.name = "t";
  index.cells = {
      Moved("mlp-small/sim/axi/sim/s0", {{13, "MM", "workloads/kernels/mlp.cc:131", 1, 67, 67}, {5, "VOP.MUL", "", 1, 0, 67}}),
      Moved("mlp-small/board/axi/sim/s0", {{13, "MM", "workloads/kernels/mlp.cc:131", 2, 3, 120}}),
      Moved("mlp-small/sim/ideal/sim/s0", {}),
      Moved("qwen-tiny+pos1/sim/axi/sim/s0", {{13, "LD", "", 1, -2, -2}}),
  };
  const std::string md = MovedRollup(index);
  EXPECT_NE(md.find("3 cells differ from their baselines"), std::string::npos) << md;
  // pc 13 of mlp-small moved in both of its differing cells, first; qwen-tiny's pc 13 is
  // another instruction.
  const size_t mm = md.find("| `mlp-small` | 13 | MM | `workloads/kernels/mlp.cc:131` | 2 of 2 | 3 | +3 … +67 | +67 … +120 |");
  const size_t ld = md.find("| `qwen-tiny+pos1` | 13 | LD |  | 1 of 1 | 1 | -2 | -2 |");
  const size_t mul = md.find("| `mlp-small` | 5 | VOP.MUL |  | 1 of 2 | 1 | +0 | +67 |");
  EXPECT_NE(mm, std::string::npos) << md;
  EXPECT_NE(ld, std::string::npos) << md;
  EXPECT_NE(mul, std::string::npos) << md;
  EXPECT_LT(mm, ld);
  EXPECT_NE(MarkdownSummary(index).find("### Instructions that moved, across cells"), std::string::npos);
  // Nothing moved: no roll-up.
  index.cells = {Moved("mlp-small/sim/axi/sim/s0", {})};
  EXPECT_EQ(MovedRollup(index), "");
}

TEST(Rollup, MovedSurvivesTheCellResultFile) {
  CellResult r = Moved("mlp-small/sim/axi/sim/s0", {{13, "MM", "mlp.cc:131", 2, -5, 9}});
  StatusOr<CellResult> back = ParseCellResult(CellResultJson(r), "c.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->moved, r.moved);
}

void WriteFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(StaleBaselines, AcceptNamesTheOtherMatricesCellsItLeftBehind) {
  testutil::TempDir dir;
  // smoke runs mlp-small on sim only; full also runs it on board, ideal memory, and qwen-tiny.
  WriteFile(dir.path() + "/smoke.json", R"({"name": "smoke", "base_seed": 1,
    "defaults": {"configs": ["sim"], "memories": ["axi"], "transports": ["sim"]},
    "workloads": [{"name": "mlp-small"}, {"name": "qwen-tiny", "pos": 1}]})");
  WriteFile(dir.path() + "/full.json", R"({"name": "full", "base_seed": 1,
    "defaults": {"configs": ["sim", "board"], "memories": ["ideal", "axi"], "transports": ["sim"]},
    "workloads": [{"name": "mlp-small"}, {"name": "qwen-tiny", "pos": 1}]})");
  WriteFile(dir.path() + "/slow.json", R"({"name": "slow", "base_seed": 1,
    "dram": {"latency": 40},
    "defaults": {"configs": ["sim"], "memories": ["axi"], "transports": ["sim"]},
    "workloads": [{"name": "mlp-small"}]})");
  WriteFile(dir.path() + "/notes.json", R"({"not": "a matrix"})");
  StatusOr<Matrix> smoke = ReadMatrix(dir.path() + "/smoke.json");
  ASSERT_TRUE(smoke.ok()) << smoke.status().message();
  std::vector<CellResult> results;
  for (const Cell& c : smoke->cells) {
    CellResult r = Moved(c.id, {});
    r.config = c.config;
    // mlp-small's figures changed and were accepted; qwen-tiny's did not.
    if (c.workload == "mlp-small") r.accepted = "cycles 100 -> 101\n";
    results.push_back(r);
  }
  const std::vector<StaleCells> stale = FindStaleBaselines(*smoke, results, dir.path() + "/baselines");
  ASSERT_EQ(stale.size(), 2u) << StaleBaselinesText(stale);
  // full.json: mlp-small on sim with the ideal memory was not run here; its board cells run
  // another configuration and qwen-tiny did not change.
  EXPECT_EQ(stale[0].matrix, dir.path() + "/full.json");
  EXPECT_EQ(stale[0].reason, "not_run");
  EXPECT_EQ(stale[0].ids, std::vector<std::string>({"mlp-small/sim/ideal/sim/s0"}));
  EXPECT_EQ(stale[0].recheck, "otpu-regress run " + dir.path() + "/full.json --only '^(mlp-small/sim/)' --accept");
  // slow.json: the same cell id reads the rewritten baseline with other DRAM timing.
  EXPECT_EQ(stale[1].matrix, dir.path() + "/slow.json");
  EXPECT_EQ(stale[1].reason, "shared");
  EXPECT_EQ(stale[1].ids, std::vector<std::string>({"mlp-small/sim/axi/sim/s0"}));
  const std::string text = StaleBaselinesText(stale);
  EXPECT_NE(text.find("full.json: 1 cell not run here"), std::string::npos) << text;
  EXPECT_NE(text.find("slow.json: 1 cell read a baseline this run rewrote"), std::string::npos) << text;
  // Nothing accepted: nothing stale, nothing printed.
  for (CellResult& r : results) r.accepted.clear();
  EXPECT_TRUE(FindStaleBaselines(*smoke, results, dir.path() + "/baselines").empty());
  EXPECT_EQ(StaleBaselinesText({}), "");
  // Baselines kept elsewhere (--baselines): the other matrices' own were not touched.
  results[0].accepted = "x";
  EXPECT_TRUE(FindStaleBaselines(*smoke, results, dir.path() + "/elsewhere").empty());
}

}  // namespace
}  // namespace otpu::regress
