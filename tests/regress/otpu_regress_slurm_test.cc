// The real otpu-regress on a loopback Slurm (slurm_cluster.sh): `otpu-regress slurm --wait`
// merges the same index as `otpu-regress run` on the same cells, and a performance regression
// (an RTL-free perturbation: one DRAM latency in a copied matrix) makes --wait return 1.
// The whole smoke matrix once against the checked-in baselines (about a minute each way);
// otherwise two of its cells (mlp-small, ideal and axi memory), judged against baselines
// accepted in the test's own directory, so those tests check the Slurm path, not the state of
// regress/baselines.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/writer.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/testing/subprocess.h"
#include "base/testing/temp_dir.h"
#include "tests/regress/slurm_cluster.h"

namespace otpu::regress {
namespace {

namespace fs = std::filesystem;
using testutil::ProcessResult;
using testutil::RunProcess;
using testutil::TempDir;

constexpr char kOnly[] = "^mlp-small/sim/(ideal|axi)/sim/";
constexpr double kTimeoutS = 900;

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

// Drops what differs between two runs of the same cells: wall times and measured verdict
// times, when (and on which node) a cell started, whether a result was reused from an earlier
// run, and the run id each run draws.
void DropVolatile(rapidjson::Value& v) {
  if (v.IsObject()) {
    for (const char* key : {"wall_s", "time_s", "started", "hostname", "reused", "run"}) v.RemoveMember(key);
    for (auto& m : v.GetObject()) DropVolatile(m.value);
  } else if (v.IsArray()) {
    for (auto& e : v.GetArray()) DropVolatile(e);
  }
}

// DIR/index.json without its volatile fields, as compact JSON ("" when unreadable).
std::string StableIndex(const std::string& dir) {
  std::string text = ReadFile(dir + "/index.json");
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  if (doc.HasParseError()) return "";
  DropVolatile(doc);
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  doc.Accept(w);
  return sb.GetString();
}

class OtpuRegressOnSlurm : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto cluster = testing::SlurmCluster::Create(OTPU_SLURM_CLUSTER_SCRIPT);
    ASSERT_TRUE(cluster.ok()) << cluster.status().message();
    cluster_ = std::move(cluster).value().release();
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(cluster_, nullptr) << "no Slurm cluster"; }

  static ProcessResult Regress(std::vector<std::string> args) {
    args.insert(args.begin(), OTPU_REGRESS_BINARY);
    return RunProcess(args, {}, kTimeoutS);
  }

  static testing::SlurmCluster* cluster_;
  TempDir dir_;
};

testing::SlurmCluster* OtpuRegressOnSlurm::cluster_ = nullptr;

// Copies the smoke matrix into the test's directory (with `extra` after its name) beside an
// empty baselines/, and accepts the selected cells' baselines there; returns the copy's path.
std::string AcceptedSmokeCopy(const std::string& dir, const std::string& extra = "") {
  std::string matrix = ReadFile(OTPU_SMOKE_MATRIX);
  const std::string name = "\"name\": \"smoke\",";
  const size_t at = matrix.find(name);
  if (at == std::string::npos) return "";
  const std::string copy = dir + "/smoke.json";
  fs::create_directories(dir + "/baselines");
  std::ofstream(copy) << matrix;
  ProcessResult accept = RunProcess({OTPU_REGRESS_BINARY, "run", copy, "--only", kOnly, "--accept",
                                     "-j", "2", "--out", dir + "/accept"}, {}, kTimeoutS);
  EXPECT_EQ(accept.exit_code, 0) << accept.out << accept.err;
  matrix.replace(at, name.size(), name + extra);
  std::ofstream(copy) << matrix;
  return copy;
}

TEST_F(OtpuRegressOnSlurm, MergesTheSameIndexAsTheLocalRun) {
  const std::string matrix = AcceptedSmokeCopy(dir_.path());
  ASSERT_NE(matrix, "");
  const std::string local = dir_.path() + "/local", slurm = dir_.path() + "/slurm";
  ProcessResult run = Regress({"run", matrix, "--only", kOnly, "-j", "2", "--no-reuse",
                               "--out", local});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  ProcessResult r = Regress({"slurm", matrix, "--only", kOnly, "--out", slurm, "--wait",
                             "--max-parallel", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err << ReadFile(slurm + "/logs/merge.log");
  EXPECT_TRUE(fs::exists(slurm + "/junit.xml"));
  EXPECT_TRUE(fs::exists(slurm + "/summary.md"));
  EXPECT_TRUE(fs::exists(slurm + "/logs/0.log"));
  EXPECT_TRUE(fs::exists(slurm + "/logs/1.log"));
  const std::string expected = StableIndex(local);
  ASSERT_NE(expected, "");
  EXPECT_NE(expected.find("\"counts\":{\"cells\":2,\"pass\":2"), std::string::npos) << expected;
  EXPECT_EQ(StableIndex(slurm), expected);
}

// The check as it stands: the whole smoke matrix, judged against the checked-in
// baselines, gives the same exit code and index through Slurm as run locally, whatever the
// verdicts are today.
TEST_F(OtpuRegressOnSlurm, TheSmokeMatrixMergesAsTheLocalRunDoes) {
  const std::string local = dir_.path() + "/local", slurm = dir_.path() + "/slurm";
  ProcessResult run = Regress({"run", OTPU_SMOKE_MATRIX, "-j", "2", "--no-reuse", "--out", local});
  ProcessResult r = Regress({"slurm", OTPU_SMOKE_MATRIX, "--out", slurm, "--wait"});
  EXPECT_EQ(r.exit_code, run.exit_code) << r.out << r.err << "\nlocal:\n" << run.out << run.err;
  const std::string expected = StableIndex(local);
  ASSERT_NE(expected, "") << run.out << run.err;
  EXPECT_EQ(StableIndex(slurm), expected);
}

TEST_F(OtpuRegressOnSlurm, APerformanceRegressionMakesWaitReturnOne) {
  const std::string matrix = AcceptedSmokeCopy(dir_.path(), " \"dram\": {\"latency\": 40},");
  ASSERT_NE(matrix, "");
  const std::string out = dir_.path() + "/out";
  ProcessResult r = Regress({"slurm", matrix, "--only", kOnly, "--out", out, "--wait"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err << ReadFile(out + "/logs/merge.log");
  EXPECT_NE(r.out.find("exited 1: some verdict failed"), std::string::npos) << r.out;
  const std::string index = StableIndex(out);
  EXPECT_NE(index.find("\"passed\":false"), std::string::npos) << index;
  EXPECT_NE(index.find("\"name\":\"performance\",\"outcome\":\"fail\""), std::string::npos)
      << index;
  EXPECT_NE(index.find("\"name\":\"correctness\",\"outcome\":\"pass\""), std::string::npos)
      << index;
}

// The job id after `what` ("array job " or "merge job ") in `slurm`'s output; "" when absent.
std::string JobId(const std::string& out, const std::string& what) {
  const size_t at = out.find(what);
  if (at == std::string::npos) return "";
  const size_t start = at + what.size();
  return out.substr(start, out.find_first_not_of("0123456789", start) - start);
}

// A submission that never runs its cells must not merge the results an earlier submission left
// in the same DIR: submit (passes), make a baseline fail, submit again held, cancel the array,
// release the merge job. The merge must not pass.
TEST_F(OtpuRegressOnSlurm, AMergeNeverCountsAnEarlierSubmissionsResults) {
  const std::string matrix = AcceptedSmokeCopy(dir_.path());
  ASSERT_NE(matrix, "");
  const std::string out = dir_.path() + "/out";
  ProcessResult first = Regress({"slurm", matrix, "--only", kOnly, "--out", out, "--wait"});
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err << ReadFile(out + "/logs/merge.log");

  // One more cycle in a baseline: every cell that runs now fails performance.
  const std::string baseline = dir_.path() + "/baselines/mlp-small.sim.ideal.sim.s0.json";
  std::string text = ReadFile(baseline);
  const size_t at = text.find("\"cycles\":");
  ASSERT_NE(at, std::string::npos) << text;
  const size_t num = at + 9, end = text.find(',', num);
  text.replace(num, end - num, std::to_string(std::stoll(text.substr(num, end - num)) + 1));
  std::ofstream(baseline) << text;

  ProcessResult held = Regress({"slurm", matrix, "--only", kOnly, "--out", out,
                                "--sbatch-arg=--hold"});
  ASSERT_EQ(held.exit_code, 0) << held.out << held.err;
  const std::string array = JobId(held.out, "array job "), merge = JobId(held.out, "merge job ");
  ASSERT_NE(array, "") << held.out;
  ASSERT_NE(merge, "") << held.out;
  EXPECT_EQ(RunProcess({"scancel", array}, {}, 30).exit_code, 0);
  ProcessResult release = RunProcess({"scontrol", "release", merge}, {}, 30);
  ASSERT_EQ(release.exit_code, 0) << release.out << release.err;

  const double deadline = testutil::NowSeconds() + 120;
  while (!fs::exists(out + "/merge.rc") && testutil::NowSeconds() < deadline) ::usleep(200000);
  ASSERT_TRUE(fs::exists(out + "/merge.rc")) << ReadFile(out + "/logs/merge.log");
  // No result of this submission: every selected cell is missing, an infrastructure error.
  EXPECT_EQ(ReadFile(out + "/merge.rc"), "5\n") << ReadFile(out + "/logs/merge.log");
  const std::string index = StableIndex(out);
  EXPECT_NE(index.find("\"passed\":false"), std::string::npos) << index;
  EXPECT_NE(index.find("\"counts\":{\"cells\":0,\"pass\":0"), std::string::npos) << index;
  EXPECT_NE(ReadFile(out + "/logs/merge.log").find("FAILED"), std::string::npos);
}

}  // namespace
}  // namespace otpu::regress
