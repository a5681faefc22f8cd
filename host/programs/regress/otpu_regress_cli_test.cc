// End-to-end tests of the real `otpu-regress` binary on a small matrix: baselines accepted and
// then gated exactly, an RTL-free perturbation (one DRAM latency) caught by the performance
// verdict naming the instructions, a corrupted trace record caught by the parity verdict naming
// the first divergence, result reuse, a card cell through otpu-xdma-emu, JUnit XML that
// validates against the schema CI tools read, and usage errors.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "base/exit_codes.h"
#include "rapidjson/document.h"
#include "base/testing/subprocess.h"
#include "host/programs/regress/cell_result.h"

namespace otpu::regress {
namespace {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string out, err;
};

constexpr const char* kMatrix = R"({
  "name": "e2e",
  "workloads": [
    {"name": "mlp-small", "memories": ["axi", "axi stall 20"]},
    {"name": "mlp-small", "memories": ["axi stall 20"], "transports": ["card"]}
  ]
})";

class OtpuRegressTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "otpu_regress_test.XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    Write("m.json", kMatrix);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  static std::string Slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  Result Regress(std::vector<std::string> args) const {
    args.insert(args.begin(), OTPU_REGRESS_BINARY);
    const testutil::ProcessResult r = testutil::RunProcess(args, {}, /*timeout_s=*/900);
    return {r.exited ? r.exit_code : -1, r.out, r.err};
  }
  Result Run(const std::string& matrix, std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"run", (dir_ / matrix).string(), "-j", "2", "--out",
                                     (dir_ / "out").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return Regress(args);
  }
  // A usage or input error: the code and exactly one stderr line.
  std::string ErrorLine(std::vector<std::string> args, int code) const {
    Result r = Regress(args);
    EXPECT_EQ(r.code, code) << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    return r.err;
  }

  static std::string HostName() {
    char buf[256] = {};
    ::gethostname(buf, sizeof buf - 1);
    return buf;
  }

  fs::path dir_;
};

// The line Verilator names for assertion `label` of rtl/board/otpu_board.sv (1-based): that of
// its $error, the first at or after the label. 0 when there is none.
int LineOf(const std::string& label) {
  std::ifstream in(OTPU_BOARD_SV);
  int n = 0;
  bool seen = false;
  for (std::string line; std::getline(in, line);) {
    ++n;
    seen = seen || line.find(label + ":") != std::string::npos;
    if (seen && line.find("$error") != std::string::npos) return n;
  }
  return 0;
}

// A failed SV assertion, end to end: the board model's self-test assertion (BoardAssertSelfTest
// in rtl/board/otpu_board.sv, made to fail at run cycle 100 by the plusarg that
// OTPU_RTL_PLUSARGS passes) fails the sim cell and the card cell on the assertions verdict,
// naming it, its file:line and the cycle, in the board model and (card) in the emulator; the
// other verdicts are still judged and pass.
TEST_F(OtpuRegressTest, AFailedAssertionFailsTheCellNamingItsFileLineAndCycle) {
  const int line = LineOf("BoardAssertSelfTest");
  ASSERT_GT(line, 0);
  Result r;
  {
    testutil::ScopedEnv env("OTPU_RTL_PLUSARGS", "+otpu_assert_selftest=100");
    r = Run("m.json", {"--only", "axi-stall20"});
  }
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const std::string want = "BoardAssertSelfTest at rtl/board/otpu_board.sv:" + std::to_string(line) +
                           ", run cycle 100: otpu_board: the assertion self-test fails at run cycle 100";
  for (const char* cell : {"mlp-small.sim.axi-stall20.sim.s0", "mlp-small.sim.axi-stall20.card.s0"}) {
    const std::string path = (dir_ / "out" / "cells" / (std::string(cell) + ".json")).string();
    StatusOr<CellResult> res = ParseCellResult(Slurp(path), path);
    ASSERT_TRUE(res.ok()) << res.status().message();
    ASSERT_EQ(res->verdicts.size(), std::size(kVerdictNames));
    const Verdict& a = res->verdicts[3];
    EXPECT_EQ(a.name, "assertions");
    EXPECT_EQ(a.outcome, Outcome::kFail);
    EXPECT_EQ(a.message.rfind(want + " (the board model)", 0), 0u) << a.message;
    for (int i : {0, 1, 2}) EXPECT_EQ(res->verdicts[size_t(i)].outcome, Outcome::kPass) << res->verdicts[size_t(i)].message;
    if (std::string(cell).find(".card.") != std::string::npos) {
      EXPECT_NE(a.detail.find("card's emulator: " + want), std::string::npos) << a.detail;
    }
  }
  EXPECT_NE(r.out.find("assertions: " + want), std::string::npos) << r.out;

  // Without the plusarg the same cells pass their assertions (a rerun: the key does not cover
  // the environment, so --no-reuse).
  r = Run("m.json", {"--only", "axi-stall20", "--no-reuse"});
  EXPECT_EQ(r.out.find("assertions:"), std::string::npos) << r.out;
}

// The reserved-fields assertions (rtl/board/otpu_board.sv: register reads and trace records
// keep the bits the map and SPEC 5 do not list 0), end to end: the self-test plusarg sets a
// reserved bit in what each check sees (STATUS, then the D records read through the window),
// and the sim cell fails its assertions verdict naming that check, its file:line and a cycle,
// while the other verdicts (which see the real, clean values) pass.
TEST_F(OtpuRegressTest, AReservedBitSetFailsTheAssertionsVerdictNamingTheCheck) {
  const struct {
    const char* plusarg;
    const char* label;
  } cases[] = {{"+otpu_reserved_selftest=1", "RegReservedBitsZero"},
               {"+otpu_reserved_selftest=2", "TraceWindowReservedBitsZero"}};
  for (const auto& c : cases) {
    const int line = LineOf(c.label);
    ASSERT_GT(line, 0) << c.label;
    Result r;
    {
      testutil::ScopedEnv env("OTPU_RTL_PLUSARGS", c.plusarg);
      r = Run("m.json", {"--only", "^mlp-small/sim/axi/sim", "--no-reuse"});
    }
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    const fs::path path = dir_ / "out" / "cells" / "mlp-small.sim.axi.sim.s0.json";
    StatusOr<CellResult> res = ParseCellResult(Slurp(path), path.string());
    ASSERT_TRUE(res.ok()) << res.status().message();
    ASSERT_EQ(res->verdicts.size(), std::size(kVerdictNames));
    const Verdict& a = res->verdicts[3];
    EXPECT_EQ(a.outcome, Outcome::kFail) << c.label;
    EXPECT_EQ(a.message.rfind(std::string(c.label) + " at rtl/board/otpu_board.sv:" +
                                  std::to_string(line) + ", ",
                              0),
              0u)
        << a.message;
    EXPECT_NE(a.message.find("reserved bits 0x"), std::string::npos) << a.message;
    for (int i : {0, 1, 2}) {
      EXPECT_EQ(res->verdicts[size_t(i)].outcome, Outcome::kPass) << res->verdicts[size_t(i)].message;
    }
  }
}

// Illegal programs (the random-illegal workload, docs/regress.md "Illegal programs"): every
// illegal kind, one seed each, on the board model; each cell passes correctness only when the
// board stopped with ERROR at the ISA simulator's pc for the cause its kind must raise (the
// table below, in workloads/random_program.cc's order), and together they reach every cause.
TEST_F(OtpuRegressTest, IllegalProgramsStopWithTheIsaSimulatorsErrorForEveryKind) {
  const int want_cause[] = {1, 2, 3, 4,                     // opcode, end, VOP fn, WF
                            5, 7, 9, 10,                    // LD / ST
                            5, 6, 11, 7, 6, 8, 7, 9, 10,    // MM
                            5, 6, 11, 9,                    // QACT
                            5, 6, 5, 7, 9, 10,              // QST
                            5, 9,                           // VOP
                            12, 13, 14, 15};                // LOOP
  const int kinds = int(std::size(want_cause));
  Write("illegal.json", R"({"name": "illegal", "workloads": [{"name": "random-illegal", "seeds": )" +
                            std::to_string(kinds) +
                            R"(, "configs": ["sim"], "memories": ["axi stall 20"]}]})");
  const Result r = Run("illegal.json");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  std::set<int> causes;
  for (int seed = 0; seed < kinds; ++seed) {
    const fs::path path = dir_ / "out" / "cells" /
                          ("random-illegal+seed" + std::to_string(seed) + ".sim.axi-stall20.sim.s0.json");
    StatusOr<CellResult> res = ParseCellResult(Slurp(path), path.string());
    ASSERT_TRUE(res.ok()) << res.status().message();
    const Verdict& c = res->verdicts[0];
    EXPECT_EQ(c.outcome, Outcome::kPass) << seed << ": " << c.message << "\n" << c.detail;
    const std::string cause = ", cause " + std::to_string(want_cause[seed]) + " (";
    EXPECT_NE(c.message.find(cause), std::string::npos) << seed << ": " << c.message << "\n" << c.detail;
    EXPECT_EQ(res->verdicts[3].outcome, Outcome::kPass) << res->verdicts[3].message;
    causes.insert(want_cause[seed]);
  }
  EXPECT_EQ(causes.size(), 15u);
}

TEST_F(OtpuRegressTest, BaselinesAreAcceptedThenGatedExactlyAndReused) {
  Result r = Run("m.json");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("performance: no baseline at"), std::string::npos) << r.out;

  r = Run("m.json", {"--accept"});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "baselines" / "mlp-small.sim.axi.sim.s0.json"));
  EXPECT_TRUE(fs::exists(dir_ / "baselines" / "mlp-small.sim.axi-stall20.card.s0.json"));

  r = Run("m.json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASSED: 3 passed, 0 failed, 0 errors (0 reused)"), std::string::npos) << r.out;
  r = Run("m.json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("3 cells selected, 3 reused, 0 to run"), std::string::npos) << r.out;

  const std::string index = Slurp(dir_ / "out" / "index.json");
  EXPECT_NE(index.find("\"passed\": true"), std::string::npos);
  const std::string md = Slurp(dir_ / "out" / "summary.md");
  EXPECT_NE(md.find("| `mlp-small/sim/axi-stall20/card/s0` | pass | pass | pass | pass |"), std::string::npos) << md;

  // The JUnit file validates against the schema CI tools read (tests/regress/junit.xsd).
  const testutil::ProcessResult lint = testutil::RunProcess(
      {"xmllint", "--noout", "--schema", std::string(OTPU_JUNIT_XSD), (dir_ / "out" / "junit.xml").string()},
      {}, 60);
  EXPECT_TRUE(lint.exited && lint.exit_code == 0) << lint.out << lint.err;

  // Each cell's testsuite says when and where it ran, carries its log, and its verdicts'
  // times are measured: the recording (correctness) outweighs either comparison, so the three
  // are not the cell's time split evenly.
  const std::string junit = Slurp(dir_ / "out" / "junit.xml");
  const std::regex suite(
      "<testsuite name=\"mlp-small/sim/axi/sim/s0\" [^>]*time=\"([0-9.]+)\" "
      "timestamp=\"(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d)\" hostname=\"([^\"]+)\">");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(junit, m, suite)) << junit;
  EXPECT_EQ(m[3].str(), HostName());
  std::map<std::string, double> times;
  const std::regex testcase("<testcase name=\"(\\w+)\" classname=\"otpu-regress\\.e2e\\.mlp-small/sim/axi/sim/s0\" time=\"([0-9.]+)\"");
  for (std::sregex_iterator it(junit.begin(), junit.end(), testcase), end; it != end; ++it) {
    times[(*it)[1].str()] = std::stod((*it)[2].str());
  }
  ASSERT_EQ(times.size(), std::size(kVerdictNames)) << junit;
  EXPECT_GT(times["correctness"], times["parity"]) << junit;
  EXPECT_GT(times["correctness"], times["performance"]) << junit;
  EXPECT_NE(times["parity"], times["performance"]) << junit;
  // The cell's log (from the last run that ran it: this one reused it) in <system-out>, after
  // the testcases.
  const size_t out = junit.find("<system-out>", m.position(0));
  ASSERT_NE(out, std::string::npos) << junit;
  EXPECT_LT(out, junit.find("</testsuite>", m.position(0)));
  const std::string log = Slurp(dir_ / "out" / "logs" / "mlp-small.sim.axi.sim.s0.log");
  ASSERT_FALSE(log.empty());
  std::string escaped;  // the log is plain text: escaping &, < and > is all XmlText does to it
  for (char c : log) escaped += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : std::string(1, c);
  EXPECT_EQ(junit.substr(out + 12, escaped.size() + 13), escaped + "</system-out>") << log;
  // The result keeps the same figures.
  const std::string cell = Slurp(dir_ / "out" / "cells" / "mlp-small.sim.axi.sim.s0.json");
  EXPECT_NE(cell.find("\"time_s\": "), std::string::npos) << cell;
  EXPECT_NE(cell.find("\"hostname\": \"" + HostName() + "\""), std::string::npos) << cell;
}

TEST_F(OtpuRegressTest, OneDramLatencyChangeFailsPerformanceNamingInstructionsThenAcceptPasses) {
  ASSERT_EQ(Run("m.json", {"--accept", "--only", "/sim/s0$"}).code, 0);
  std::string slower = kMatrix;
  slower.replace(slower.find("\"name\": \"e2e\","), 14, "\"name\": \"e2e\", \"dram\": {\"latency\": 40},");
  Write("slower.json", slower);
  fs::create_directory(dir_ / "slower_baselines");
  for (const auto& f : fs::directory_iterator(dir_ / "baselines")) {
    fs::copy_file(f.path(), dir_ / "slower_baselines" / f.path().filename());
  }
  const std::string b = "--baselines=" + (dir_ / "slower_baselines").string();
  Result r = Run("slower.json", {b, "--only", "/sim/s0$"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("performance: differs from the baseline: cycles "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("most: pc "), std::string::npos) << r.out;
  const std::string md = Slurp(dir_ / "out" / "summary.md");
  EXPECT_NE(md.find("moved most:"), std::string::npos) << md;
  EXPECT_NE(md.find("reproduce: `otpu-regress cell"), std::string::npos) << md;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "profiles" / "mlp-small.sim.axi.sim.s0.otpuprof"));

  r = Run("slower.json", {b, "--only", "/sim/s0$", "--accept"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(Slurp(dir_ / "out" / "summary.md").find("accepted"), std::string::npos);
  r = Run("slower.json", {b, "--only", "/sim/s0$"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  // The original baselines still hold for the original matrix.
  EXPECT_EQ(Run("m.json", {"--only", "/sim/s0$"}).code, 0);
}

// The reviewable loop (docs/regress.md "Baselines"): --accept names another matrix's cell it
// left stale; a baseline one instruction off fails with that instruction in summary.md's
// roll-up; accepting the real figures back changes exactly that instruction's line.
TEST_F(OtpuRegressTest, AcceptNamesStaleCellsAndTheRollupAndDiffShowOnlyWhatMoved) {
  Write("small.json", R"({"name": "small", "workloads": [
    {"name": "mlp-small", "configs": ["sim"], "memories": ["axi"], "transports": ["sim"]}]})");
  Write("big.json", R"({"name": "big", "workloads": [
    {"name": "mlp-small", "configs": ["sim"], "memories": ["axi", "ideal"], "transports": ["sim"]}]})");
  Result r = Run("small.json", {"--accept"});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("stale baselines: this --accept left other matrices' baselines behind:\n  " +
                       (dir_ / "big.json").string() + ": 1 cell not run here"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    mlp-small/sim/ideal/sim/s0\n    recheck: otpu-regress run " + (dir_ / "big.json").string() +
                       " --only '^(mlp-small/sim/)' --accept\n"), std::string::npos) << r.out;
  // m.json (the fixture's matrix) runs mlp-small on sim at 20% stalls: named too.
  EXPECT_NE(r.out.find("mlp-small/sim/axi-stall20/sim/s0"), std::string::npos) << r.out;

  // The baseline says pc 13's MM took one cycle less: performance fails, the roll-up names it.
  const fs::path base = dir_ / "baselines" / "mlp-small.sim.axi.sim.s0.json";
  const std::string accepted = Slurp(base);
  std::string edited = accepted;
  const size_t row = edited.find("\n[13,\"MM\",");
  ASSERT_NE(row, std::string::npos) << accepted;
  size_t field = row;  // the 7th field: the end, as the busy cycles after the start
  for (int k = 0; k < 6; ++k) field = edited.find(',', field + 1);
  const size_t next = edited.find(',', field + 1);
  const long busy = std::stol(edited.substr(field + 1, next - field - 1));
  edited.replace(field + 1, next - field - 1, std::to_string(busy - 1));
  std::ofstream(base) << edited;
  r = Run("small.json");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const std::string md = Slurp(dir_ / "out" / "summary.md");
  EXPECT_NE(md.find("### Instructions that moved, across cells"), std::string::npos) << md;
  EXPECT_NE(md.find("| `mlp-small` | 13 | MM | `workloads/kernels/mlp.cc:"), std::string::npos) << md;
  EXPECT_NE(md.find("| 1 of 1 | 1 | +1 |"), std::string::npos) << md;
  EXPECT_TRUE(std::regex_search(Slurp(dir_ / "out" / "cells" / "mlp-small.sim.axi.sim.s0.json"),
                                std::regex(R"("moved": \[\s*\[\s*13,\s*"MM")")));

  // Accepting the run's figures back: the baseline differs from the edited one in that line only.
  r = Run("small.json", {"--accept"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  const std::string back = Slurp(base);
  EXPECT_EQ(back, accepted);
  size_t differing = 0;
  for (size_t a = 0, b = 0; a < back.size() && b < edited.size();) {
    const size_t ea = back.find('\n', a), eb = edited.find('\n', b);
    if (back.compare(a, ea - a, edited, b, eb - b) != 0) ++differing;
    if (ea == std::string::npos || eb == std::string::npos) break;
    a = ea + 1;
    b = eb + 1;
  }
  EXPECT_EQ(differing, 1u);
}

TEST_F(OtpuRegressTest, CorruptTraceRecordFailsParityNamingTheFirstDivergence) {
  Result r = Regress({"cell", (dir_ / "m.json").string(), "--id", "mlp-small/sim/axi/sim/s0",
                      "--out", (dir_ / "out").string(), "--accept", "--inject-trace-flip", "200:0"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("parity      fail  hw profile differs from the rtl profile: "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("(rtl) vs"), std::string::npos) << r.out;
}

TEST_F(OtpuRegressTest, RerunFailedRunsOnlyTheFailedCells) {
  ASSERT_EQ(Run("m.json", {"--only", "/sim/s0$"}).code, 1);  // no baselines yet: both fail
  fs::copy_file(dir_ / "out" / "index.json", dir_ / "first.json");
  Result r = Run("m.json", {"--rerun-failed", (dir_ / "first.json").string(), "--only", "/axi/sim"});
  EXPECT_NE(r.out.find("rerunning the 1 failed cells"), std::string::npos) << r.out;
}

// A typo in --only, or a --rerun-failed index whose failed cells are not selected, must not
// pass, and must leave the reports of the earlier (failing) run as they were.
TEST_F(OtpuRegressTest, AnEmptySelectionIsAUsageErrorAndKeepsTheReports) {
  ASSERT_EQ(Run("m.json", {"--only", "/sim/s0$"}).code, 1);  // no baselines yet: both fail
  const fs::path out = dir_ / "out";
  const std::string index = Slurp(out / "index.json"), junit = Slurp(out / "junit.xml"),
                    summary = Slurp(out / "summary.md");
  Result r = Run("m.json", {"--only", "nomatch"});
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--only 'nomatch' selects no cell"), std::string::npos) << r.err;
  fs::copy_file(out / "index.json", dir_ / "first.json");
  r = Run("m.json", {"--rerun-failed", (dir_ / "first.json").string(), "--only", "card"});
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("none of its 2 failed cells is selected"), std::string::npos) << r.err;
  EXPECT_EQ(Slurp(out / "index.json"), index);
  EXPECT_EQ(Slurp(out / "junit.xml"), junit);
  EXPECT_EQ(Slurp(out / "summary.md"), summary);
}

TEST_F(OtpuRegressTest, RerunFailedKeepsEveryCellInTheIndex) {
  ASSERT_EQ(Run("m.json", {"--only", "/axi/sim/s0$", "--accept"}).code, 0);
  ASSERT_EQ(Run("m.json", {"--only", "/sim/s0$"}).code, 1);  // the stall cell has no baseline
  fs::copy_file(dir_ / "out" / "index.json", dir_ / "first.json");
  Result r = Run("m.json", {"--rerun-failed", (dir_ / "first.json").string(), "--only", "/sim/s0$"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("rerunning the 1 failed cells"), std::string::npos) << r.out;
  const std::string index = Slurp(dir_ / "out" / "index.json");
  EXPECT_NE(index.find("\"cells\": 2, \"pass\": 1, \"fail\": 1"), std::string::npos) << index;
  EXPECT_NE(index.find("mlp-small/sim/axi/sim/s0"), std::string::npos);
  EXPECT_NE(index.find("mlp-small/sim/axi-stall20/sim/s0"), std::string::npos);
}

// Two runs into one out dir: the second is refused naming the first (stopped with SIGSTOP
// while it holds the dir, so the overlap is certain), and the first's verdict is its own.
TEST_F(OtpuRegressTest, ASecondRunIntoTheSameOutDirIsRefusedNamingTheHolder) {
  testutil::TestProcess a({OTPU_REGRESS_BINARY, "run", (dir_ / "m.json").string(), "-j", "1",
                           "--only", "/sim/s0$", "--out", (dir_ / "out").string()});
  ASSERT_NE(a.ReadLine(120).find("cells selected"), std::string::npos);
  ASSERT_EQ(::kill(a.pid(), SIGSTOP), 0);
  Result b = Run("m.json", {"--only", "card"});
  ASSERT_EQ(::kill(a.pid(), SIGCONT), 0);
  EXPECT_EQ(b.code, 5) << b.out << b.err;
  EXPECT_NE(b.err.find("in use by otpu-regress run (pid " + std::to_string(a.pid()) + ")"),
            std::string::npos) << b.err;
  const testutil::ProcessResult ra = a.Wait(600);
  ASSERT_TRUE(ra.exited);
  EXPECT_EQ(ra.exit_code, 1) << ra.out;  // no baselines: its two cells fail
  const std::string index = Slurp(dir_ / "out" / "index.json");
  EXPECT_NE(index.find("\"cells\": 2,"), std::string::npos) << index;
  EXPECT_EQ(index.find("/card/"), std::string::npos) << index;
}

// A result is reused only under the key of everything it depends on: another emulator (by
// --emulator or OTPU_XDMA_EMU) reruns the card cell, and a result whose verdicts are not the
// three a cell writes is never reused as a pass.
TEST_F(OtpuRegressTest, ReuseCoversTheEmulatorAndNeedsTheThreeVerdicts) {
  ASSERT_EQ(Run("m.json", {"--accept"}).code, 0);
  ASSERT_EQ(Run("m.json").code, 0);  // results under the key of a run without --accept
  Write("broken-emu", "#!/bin/sh\nexit 1\n");
  fs::permissions(dir_ / "broken-emu", fs::perms::owner_all);
  Result r = Run("m.json", {"--emulator", (dir_ / "broken-emu").string()});
  EXPECT_EQ(r.code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("2 reused, 1 to run"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error mlp-small/sim/axi-stall20/card/s0"), std::string::npos) << r.out;

  ASSERT_EQ(Run("m.json").code, 0);
  {
    testutil::ScopedEnv env("OTPU_XDMA_EMU", (dir_ / "broken-emu").c_str());
    r = Run("m.json");
  }
  EXPECT_EQ(r.code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("2 reused, 1 to run"), std::string::npos) << r.out;

  ASSERT_EQ(Run("m.json").code, 0);
  const fs::path result = dir_ / "out" / "cells" / "mlp-small.sim.axi.sim.s0.json";
  std::string text = Slurp(result);
  const size_t at = text.find("\"parity\"");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 8, "\"parrot\"");
  std::ofstream(result) << text;
  r = Run("m.json");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("2 reused, 1 to run"), std::string::npos) << r.out;
}

// `git bisect run` needs the good commit's baselines while the tree moves: --baselines-at REV
// reads them from git, not from the working tree.
TEST_F(OtpuRegressTest, BaselinesAtJudgesAgainstAGitRevisionsBaselines) {
  ASSERT_EQ(Run("m.json", {"--only", "/axi/sim/s0$", "--accept"}).code, 0);
  const std::string git = "git -C '" + dir_.string() + "' -c user.name=t -c user.email=t@t ";
  const testutil::ProcessResult init = testutil::RunProcess(
      {"sh", "-c", git + "init -q && " + git + "add m.json baselines && " + git + "commit -qm good"},
      {}, 60);
  ASSERT_TRUE(init.exited && init.exit_code == 0) << init.out << init.err;
  // The working tree's baseline moves by a cycle; the committed one does not.
  const fs::path base = dir_ / "baselines" / "mlp-small.sim.axi.sim.s0.json";
  std::string text = Slurp(base);
  const size_t at = text.find("\"cycles\":");
  ASSERT_NE(at, std::string::npos) << text;
  const size_t num = at + 9, end = text.find(',', num);
  text.replace(num, end - num, std::to_string(std::stoll(text.substr(num, end - num)) + 1));
  std::ofstream(base) << text;
  EXPECT_EQ(Run("m.json", {"--only", "/axi/sim/s0$", "--no-reuse"}).code, 1);
  Result r = Run("m.json", {"--only", "/axi/sim/s0$", "--no-reuse", "--baselines-at", "HEAD"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(ErrorLine({"run", (dir_ / "m.json").string(), "--baselines-at", "nosuchrev"}, 2)
                .find("--baselines-at nosuchrev: not a commit of"),
            std::string::npos);
  EXPECT_NE(ErrorLine({"run", (dir_ / "m.json").string(), "--baselines-at", "HEAD", "--accept"}, 2)
                .find("--accept cannot write"),
            std::string::npos);
}

TEST_F(OtpuRegressTest, ErrorsAreOneLineWithDocumentedCodes) {
  EXPECT_NE(ErrorLine({}, 2).find("otpu-regress: no command"), std::string::npos);
  EXPECT_NE(ErrorLine({"frob"}, 2).find("unknown command 'frob'"), std::string::npos);
  EXPECT_NE(ErrorLine({"run"}, 2).find("otpu-regress run: expected a MATRIX file"), std::string::npos);
  EXPECT_NE(ErrorLine({"run", (dir_ / "m.json").string(), "--shard", "3/2"}, 2).find("--shard 3/2"),
            std::string::npos);
  EXPECT_NE(ErrorLine({"run", (dir_ / "m.json").string(), "-j", "0"}, 2).find("-j must be"), std::string::npos);
  EXPECT_NE(ErrorLine({"run", (dir_ / "nope.json").string()}, 4).find("nope.json: cannot read"),
            std::string::npos);
  Write("bad.json", R"({"name":"x","workloads":[{"name":"mlp","memories":["fast"]}]})");
  EXPECT_NE(ErrorLine({"list", (dir_ / "bad.json").string()}, 4).find("bad.json: workloads[0].memories[0]"),
            std::string::npos);
  EXPECT_NE(ErrorLine({"cell", (dir_ / "m.json").string(), "--id", "x/y"}, 2).find("--id x/y: no such cell"),
            std::string::npos);
  EXPECT_NE(ErrorLine({"cell", (dir_ / "m.json").string(), "--index", "9"}, 2).find("--index 9"),
            std::string::npos);
  EXPECT_NE(ErrorLine({"merge", (dir_ / "none").string()}, 4).find("selection.json"), std::string::npos);
  EXPECT_NE(ErrorLine({"run", (dir_ / "m.json").string(), "--inject-trace-flip", "x"}, 2)
                .find("--inject-trace-flip x"),
            std::string::npos);
}

TEST_F(OtpuRegressTest, HelpPrintsTheExitStatusTable) {
  Result r = Regress({"--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find(exit_codes::ExitStatusHelp(exit_codes::Family::kRegress)), std::string::npos)
      << r.out;
}

TEST_F(OtpuRegressTest, ListPrintsTheSelectedCells) {
  Result r = Regress({"list", (dir_ / "m.json").string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "0 mlp-small/sim/axi/sim/s0\n1 mlp-small/sim/axi-stall20/sim/s0\n"
                   "2 mlp-small/sim/axi-stall20/card/s0\n");
}

// docs/regress.md "list --json": the stable fields, one object per selected cell.
TEST_F(OtpuRegressTest, ListJsonHasTheDocumentedFields) {
  Result r = Regress({"list", (dir_ / "m.json").string(), "--json", "--only", "card"});
  ASSERT_EQ(r.code, 0) << r.err;
  rapidjson::Document d;
  ASSERT_FALSE(d.Parse(r.out.c_str()).HasParseError()) << r.out;
  EXPECT_EQ(std::string(d["path"].GetString()), (dir_ / "m.json").string());
  EXPECT_EQ(std::string(d["shard"].GetString()), "1/1");
  EXPECT_EQ(std::string(d["only"].GetString()), "card");
  ASSERT_EQ(d["cells"].Size(), 1u);
  const rapidjson::Value& c = d["cells"][0];
  EXPECT_EQ(c["index"].GetInt(), 0);
  EXPECT_EQ(std::string(c["id"].GetString()), "mlp-small/sim/axi-stall20/card/s0");
  EXPECT_EQ(std::string(c["workload"].GetString()), "mlp-small");
  EXPECT_TRUE(c["pos"].IsNull());
  EXPECT_EQ(std::string(c["wformat"].GetString()), "int8");
  EXPECT_EQ(std::string(c["config"].GetString()), "sim");
  EXPECT_EQ(std::string(c["memory"].GetString()), "axi stall 20");
  EXPECT_EQ(std::string(c["transport"].GetString()), "card");
  EXPECT_TRUE(c["seed"].IsUint64());
  EXPECT_EQ(c["seed_index"].GetInt(), 0);
  EXPECT_TRUE(c["program_seed"].IsUint64());
}

TEST_F(OtpuRegressTest, EveryCommandAnswersHelpWithItsOptions) {
  for (const char* cmd : {"run", "list", "cell", "merge", "slurm"}) {
    Result r = Regress({cmd, "--help"});
    EXPECT_EQ(r.code, 0) << cmd << r.err;
    EXPECT_EQ(r.out.rfind("usage: otpu-regress " + std::string(cmd), 0), 0u) << r.out;
  }
  Result run = Regress({"run", "--help"});
  for (const char* line : {"\n  -j, --jobs N ", "\n  -o, --out DIR ", "\n  --only REGEX "})
    EXPECT_NE(run.out.find(line), std::string::npos) << line << run.out;
  EXPECT_NE(Regress({"list", "--help"}).out.find("\n  --json "), std::string::npos);
}

TEST_F(OtpuRegressTest, ShortOAndLongOutNameTheSameDirectory) {
  Result r = Regress({"cell", (dir_ / "m.json").string(), "--id", "mlp-small/sim/axi/sim/s0", "-o",
                      (dir_ / "short").string()});
  EXPECT_NE(r.code, 2) << r.out << r.err;  // judged (no baseline yet): not a usage error
  EXPECT_TRUE(fs::exists(dir_ / "short" / "cells" / "mlp-small.sim.axi.sim.s0.json")) << r.out;
}

}  // namespace
}  // namespace otpu::regress
