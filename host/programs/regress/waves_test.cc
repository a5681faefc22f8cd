// Waves of a failing cell (docs/regress.md "Waves"), on the real otpu-regress. In the default
// build: --waves and --waves-on-fail say they need an instrumented build (exit 2). In an
// instrumented build (-DOTPU_RTL_INSTRUMENT=ON, scripts/build_instrumented.sh): a cell made to
// fail by a flipped trace bit writes an FST that fst2vcd reads back holding exactly the window
// around the first divergence, and `run --waves-on-fail` links it in summary.md and JUnit.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "base/testing/subprocess.h"

namespace otpu::regress {
namespace {

namespace fs = std::filesystem;

// The smoke cell whose trace record 1000 has bit 2 flipped: hw and rtl agree on every
// instruction but differ in counter window 52 (64 cycles a window): its first cycle, 3328, is
// the divergence (found with `otpu-regress cell ... --inject-trace-flip 1000:2`).
constexpr const char* kCell = "mlp-small/sim/ideal/sim/s0";
constexpr const char* kFlip = "1000:2";
constexpr int64_t kDivergence = 3328;

class WavesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "otpu_waves_test.XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  testutil::ProcessResult Regress(std::vector<std::string> args) const {
    args.insert(args.begin(), OTPU_REGRESS_BINARY);
    return testutil::RunProcess(args, {}, /*timeout_s=*/600);
  }
  static std::string Slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  fs::path dir_;
};

#if !OTPU_INSTRUMENTED_BUILD

TEST_F(WavesTest, CellWavesNeedAnInstrumentedBuild) {
  const testutil::ProcessResult r = Regress({"cell", OTPU_SMOKE_MATRIX, "--id", kCell, "--waves",
                                             "--out", dir_.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("otpu-regress cell: --waves needs an instrumented build"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "cells"));
}

TEST_F(WavesTest, RunWavesOnFailNamesTheMissingBuild) {
  const testutil::ProcessResult r =
      Regress({"run", OTPU_SMOKE_MATRIX, "--waves-on-fail", "1", "--instrumented",
               (dir_ / "none").string(), "--out", dir_.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--waves-on-fail needs an instrumented build"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "index.json"));
}

#else

// The timestamps (#N lines) of a VCD.
std::vector<int64_t> Timestamps(const std::string& vcd) {
  std::vector<int64_t> t;
  size_t at = 0;
  while ((at = vcd.find("\n#", at)) != std::string::npos) {
    t.push_back(std::stoll(vcd.substr(at + 2, vcd.find('\n', at + 2) - at - 2)));
    at += 2;
  }
  return t;
}

TEST_F(WavesTest, FailingCellWritesTheWindowAroundItsDivergence) {
  const testutil::ProcessResult r =
      Regress({"cell", OTPU_SMOKE_MATRIX, "--id", kCell, "--inject-trace-flip", kFlip, "--waves",
               "--window", "40", "--out", dir_.string()});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;  // the cell fails (parity), with waves
  const fs::path fst = dir_ / "waves" / "mlp-small.sim.ideal.sim.s0.fst";
  ASSERT_TRUE(fs::exists(fst)) << r.out;
  EXPECT_NE(r.out.find("waves: rerunning around run 0 cycle 3328"), std::string::npos) << r.out;
  const std::string result = Slurp(dir_ / "cells" / "mlp-small.sim.ideal.sim.s0.json");
  EXPECT_NE(result.find("\"waves\": \"waves/mlp-small.sim.ideal.sim.s0.fst\""), std::string::npos);

  const std::string vcd_path = (dir_ / "w.vcd").string();
  const testutil::ProcessResult conv = testutil::RunProcess({"fst2vcd", fst.string(), "-o", vcd_path},
                                                            {}, 120);
  ASSERT_EQ(conv.exit_code, 0) << conv.err;
  const std::string vcd = Slurp(vcd_path);
  EXPECT_NE(vcd.find("$timescale"), std::string::npos);
  EXPECT_NE(vcd.find(" clk_i "), std::string::npos);  // the board's signals are in it
  const std::vector<int64_t> t = Timestamps(vcd);
  ASSERT_FALSE(t.empty());
  // Cycles 3308..3348 at 10 ns a cycle, the clock low at +0 and high at +5: nothing else.
  EXPECT_EQ(*std::min_element(t.begin(), t.end()), (kDivergence - 20) * 10);
  EXPECT_EQ(*std::max_element(t.begin(), t.end()), (kDivergence + 20) * 10 + 5);
}

#if !OTPU_COVERAGE_BUILD
// Waves only (-DOTPU_RTL_INSTRUMENT_COVERAGE=OFF, what scripts/test.sh builds): no counters.
TEST_F(WavesTest, CodeCoverageNeedsABuildWithTheCounters) {
  const testutil::ProcessResult r = Regress({"cell", OTPU_SMOKE_MATRIX, "--id", kCell,
                                             "--code-coverage", "--out", dir_.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("otpu-regress cell: --code-coverage needs a build with coverage counters"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "cells"));
}
#endif

TEST_F(WavesTest, RunWavesOnFailLinksTheFstInTheReports) {
  const testutil::ProcessResult r =
      Regress({"run", OTPU_SMOKE_MATRIX, "--only", "^mlp-small/sim/ideal/sim/", "--inject-trace-flip",
               kFlip, "--waves-on-fail", "1", "--window", "10", "-j", "1", "--out", dir_.string()});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "waves" / "mlp-small.sim.ideal.sim.s0.fst"));
  const std::string summary = Slurp(dir_ / "summary.md");
  EXPECT_NE(summary.find("waves: [`waves/mlp-small.sim.ideal.sim.s0.fst`]"), std::string::npos)
      << summary;
  const std::string junit = Slurp(dir_ / "junit.xml");
  EXPECT_NE(junit.find("<property name=\"waves\" value=\"waves/mlp-small.sim.ideal.sim.s0.fst\"/>"),
            std::string::npos);
}

#endif

}  // namespace
}  // namespace otpu::regress
