// `otpu-regress slurm` on a real one-node Slurm on loopback (slurm_cluster.sh), driven through
// a stand-in otpu-regress (fake_otpu_regress.cc) whose cells pass or fail as its matrix says.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/testing/subprocess.h"
#include "base/testing/temp_dir.h"
#include "tests/regress/slurm_cluster.h"

namespace otpu::regress {
namespace {

using testutil::ProcessResult;
using testutil::RunProcess;
using testutil::TempDir;

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

class SlurmBackendOnLoopback : public ::testing::Test {
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

  // Writes a stand-in matrix: one "ID pass|fail" line per cell.
  std::string Matrix(const std::string& text) {
    std::string path = dir_.path() + "/matrix.txt";
    std::ofstream(path) << text;
    return path;
  }
  ProcessResult Slurm(std::vector<std::string> args, std::vector<std::string> env = {}) {
    args.insert(args.begin(), {OTPU_FAKE_REGRESS, "slurm"});
    return RunProcess(args, env, 120);
  }

  static testing::SlurmCluster* cluster_;
  TempDir dir_;
};

testing::SlurmCluster* SlurmBackendOnLoopback::cluster_ = nullptr;

TEST_F(SlurmBackendOnLoopback, PassingCellsMakeWaitReturnZero) {
  std::string out = dir_.path() + "/out";
  ProcessResult r = Slurm({Matrix("a pass\nb pass\nc pass\n"), "--out", out, "--wait",
                           "--max-parallel", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("array job "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("merge job "), std::string::npos) << r.out;
  EXPECT_NE(ReadFile(out + "/index.json").find("\"passed\": true"), std::string::npos);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(std::filesystem::exists(out + "/logs/" + std::to_string(i) + ".log")) << i;
  }
  EXPECT_EQ(ReadFile(out + "/logs/1.log"), "cell b passed\n");
  EXPECT_EQ(ReadFile(out + "/merge.rc"), "0\n");
  EXPECT_NE(r.out.find("3/3 cells done"), std::string::npos) << r.out;
}

TEST_F(SlurmBackendOnLoopback, AFailingCellMakesWaitReturnOne) {
  std::string out = dir_.path() + "/out";
  ProcessResult r = Slurm({Matrix("a pass\nb fail\nc pass\n"), "--out", out, "--wait"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(ReadFile(out + "/index.json").find("\"passed\": false"), std::string::npos);
  // afterany: the merge ran although a task failed, and saw every cell.
  EXPECT_TRUE(std::filesystem::exists(out + "/cells/c.json"));
}

TEST_F(SlurmBackendOnLoopback, ATaskThatDiesWithoutAResultMakesWaitReturnFive) {
  std::string out = dir_.path() + "/out";
  ProcessResult r = Slurm({Matrix("a pass\nb crash\n"), "--out", out, "--wait"});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.out.find("exited 5: some cell could not be judged"), std::string::npos) << r.out;
  EXPECT_NE(ReadFile(out + "/index.json").find("\"missing\": 1"), std::string::npos);
}

TEST_F(SlurmBackendOnLoopback, OnlySubmitsTheSelectedCells) {
  std::string out = dir_.path() + "/out";
  ProcessResult r = Slurm({Matrix("a pass\nb fail\nc pass\n"), "--out", out, "--wait",
                           "--only", "^[ac]$"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(2 cells,"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(out + "/cells/b.json"));
  EXPECT_FALSE(std::filesystem::exists(out + "/logs/2.log"));
}

TEST_F(SlurmBackendOnLoopback, WithoutWaitItPrintsTheJobIdsAndReturns) {
  std::string out = dir_.path() + "/out";
  ProcessResult r = Slurm({Matrix("a fail\n"), "--out", out});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("afterany:"), std::string::npos) << r.out;
  // Let the jobs end before the directory goes away.
  for (int i = 0; i < 300 && !std::filesystem::exists(out + "/merge.rc"); ++i) {
    ::usleep(100'000);
  }
  EXPECT_EQ(ReadFile(out + "/merge.rc"), "1\n");
}

TEST_F(SlurmBackendOnLoopback, SbatchErrorIsNamedWithExitFive) {
  ProcessResult r = Slurm({Matrix("a pass\n"), "--out", dir_.path() + "/out",
                           "--sbatch-arg", "--partition=nosuchpartition"});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.err.find("sbatch --parsable"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--partition=nosuchpartition"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("failed (exit 1): sbatch: error: "), std::string::npos) << r.err;
  EXPECT_EQ(testutil::CountLines(r.err), 1) << r.err;
}

TEST_F(SlurmBackendOnLoopback, MissingSbatchIsNamedWithExitFive) {
  ProcessResult r = Slurm({Matrix("a pass\n"), "--out", dir_.path() + "/out"},
                          {"PATH=/nonexistent"});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.err.find("sbatch: command not found in PATH"), std::string::npos) << r.err;
}

TEST_F(SlurmBackendOnLoopback, UnreadableMatrixKeepsTheRunnersExitCode) {
  ProcessResult r = Slurm({dir_.path() + "/missing.txt", "--out", dir_.path() + "/out"});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("missing.txt"), std::string::npos) << r.err;
}

TEST_F(SlurmBackendOnLoopback, TheDefaultOutDirIsNamedAfterTheMatrix) {
  ProcessResult r = RunProcess({"sh", "-c", "cd \"$0\" && exec \"$1\" slurm \"$2\" --wait",
                                dir_.path(), OTPU_FAKE_REGRESS, Matrix("a pass\n")}, {}, 120);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir_.path() + "/out/regress/matrix/index.json")) << r.out;
}

TEST_F(SlurmBackendOnLoopback, UnknownOptionIsAOneLineUsageError) {
  ProcessResult r = Slurm({Matrix("a pass\n"), "--frob"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(testutil::CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--frob"), std::string::npos) << r.err;
}

TEST_F(SlurmBackendOnLoopback, SbatchArgWithoutValueIsAUsageError) {
  ProcessResult r = Slurm({Matrix("a pass\n"), "--sbatch-arg"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.err, "otpu-regress slurm: --sbatch-arg needs a value (see --help)\n");
}

}  // namespace
}  // namespace otpu::regress
