// The Slurm backend without Slurm: its scripts run under sh with /bin/echo as otpu-regress,
// its sbatch and squeue are missing or stand-in programs. tests/regress/slurm_test.cc runs it
// on a real loopback Slurm.
#include "host/programs/regress/slurm_backend.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/testing/temp_dir.h"
#include "host/programs/regress/captured_command.h"

namespace otpu::regress {
namespace {

using testutil::TempDir;

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

void WriteScript(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

SlurmOptions Options(const TempDir& dir) {
  SlurmOptions options;
  options.otpu_regress = "/bin/echo";
  options.matrix = "/m dir/smoke.json";
  options.out_dir = dir.path() + "/out";
  options.cells = 5;
  return options;
}

TEST(SlurmBackend, CellsScriptRunsTheCellOfItsArrayTask) {
  TempDir dir;
  SlurmOptions options = Options(dir);
  options.only = "qwen.*'sim";
  WriteScript(dir.path() + "/cells.sh", CellsScript(options));
  auto result = RunCaptured({"env", "SLURM_ARRAY_TASK_ID=3", "sh", dir.path() + "/cells.sh"});
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->exit_code, 0) << result->err;
  EXPECT_EQ(result->out, "cell /m dir/smoke.json --index 3 --out " + options.out_dir +
                             " --only qwen.*'sim\n");
}

TEST(SlurmBackend, CellsScriptOutsideAnArrayNamesTheMissingVariable) {
  TempDir dir;
  WriteScript(dir.path() + "/cells.sh", CellsScript(Options(dir)));
  auto result = RunCaptured({"env", "-u", "SLURM_ARRAY_TASK_ID", "sh", dir.path() + "/cells.sh"});
  ASSERT_TRUE(result.ok());
  EXPECT_NE(result->exit_code, 0);
  EXPECT_NE(result->err.find("SLURM_ARRAY_TASK_ID"), std::string::npos) << result->err;
}

TEST(SlurmBackend, MergeScriptRecordsTheMergeExitCode) {
  TempDir dir;
  for (const char* merge : {"/bin/true", "/bin/false"}) {
    SlurmOptions options = Options(dir);
    options.otpu_regress = merge;
    options.out_dir = dir.path();
    WriteScript(dir.path() + "/merge.sh", MergeScript(options));
    auto result = RunCaptured({"sh", dir.path() + "/merge.sh"});
    ASSERT_TRUE(result.ok());
    std::string expected = std::string(merge) == "/bin/true" ? "0" : "1";
    EXPECT_EQ(std::to_string(result->exit_code), expected);
    EXPECT_EQ(ReadFile(dir.path() + "/merge.rc"), expected + "\n");
  }
}

TEST(SlurmBackend, ArrayHasATaskPerCellAndThrottle) {
  TempDir dir;
  SlurmOptions options = Options(dir);
  options.max_parallel = 2;
  options.sbatch_args = {"--partition=regress"};
  std::vector<std::string> argv = CellsSbatchCommand(options);
  EXPECT_EQ(CommandLine(argv),
            "sbatch --parsable --job-name=otpu-regress-cells --array=0-4%2 --output=" +
                options.out_dir + "/logs/%a.log --partition=regress " + options.out_dir +
                "/cells.sbatch");
}

TEST(SlurmBackend, MergeDependsOnTheWholeArray) {
  TempDir dir;
  std::vector<std::string> argv = MergeSbatchCommand(Options(dir), "41");
  EXPECT_EQ(argv[3], "--dependency=afterany:41");
  EXPECT_EQ(argv.back(), Options(dir).out_dir + "/merge.sbatch");
}

TEST(SlurmBackend, ParsesParsableJobIds) {
  EXPECT_EQ(ParseJobId("42\n").value(), "42");
  EXPECT_EQ(ParseJobId("42;cluster\n").value(), "42");
  EXPECT_EQ(ParseJobId("sbatch: warning: x\n43\n").value(), "43");
}

TEST(SlurmBackend, UnparsableSbatchOutputIsQuoted) {
  auto id = ParseJobId("Submitted batch job 42\n");
  ASSERT_FALSE(id.ok());
  EXPECT_NE(id.status().message().find("'Submitted batch job 42'"), std::string::npos);
}

TEST(SlurmBackend, RelativePathsAreRefused) {
  TempDir dir;
  SlurmOptions options = Options(dir);
  options.matrix = "regress/smoke.json";
  auto submission = SubmitToSlurm(options);
  ASSERT_FALSE(submission.ok());
  EXPECT_EQ(submission.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(submission.status().message().find("regress/smoke.json"), std::string::npos);
}

TEST(SlurmBackend, MissingSbatchIsNamed) {
  TempDir dir;
  SlurmOptions options = Options(dir);
  options.sbatch = "/nonexistent/sbatch";
  auto submission = SubmitToSlurm(options);
  ASSERT_FALSE(submission.ok());
  EXPECT_NE(submission.status().message().find("/nonexistent/sbatch: command not found"),
            std::string::npos) << submission.status().message();
}

TEST(SlurmBackend, SbatchErrorQuotesItsStderr) {
  TempDir dir;
  SlurmOptions options = Options(dir);
  options.sbatch = dir.path() + "/sbatch";
  WriteScript(options.sbatch,
              "#!/bin/sh\necho 'sbatch: error: Batch job submission failed: Invalid partition "
              "name specified' >&2\nexit 1\n");
  auto submission = SubmitToSlurm(options);
  ASSERT_FALSE(submission.ok());
  const std::string& message = submission.status().message();
  EXPECT_NE(message.find(options.sbatch + " --parsable"), std::string::npos) << message;
  EXPECT_NE(message.find("failed (exit 1): sbatch: error: Batch job submission failed"),
            std::string::npos) << message;
}

TEST(SlurmBackend, SubmitWritesBothScriptsAndRemovesAStaleVerdict) {
  TempDir dir;
  SlurmOptions options = Options(dir);
  options.sbatch = dir.path() + "/sbatch";
  // A stand-in sbatch that hands out ids 7, then 8.
  WriteScript(options.sbatch, "#!/bin/sh\nn=$(cat " + dir.path() + "/n 2>/dev/null || echo 7)\n"
                              "echo $((n + 1)) > " + dir.path() + "/n\necho \"$n\"\n");
  std::filesystem::create_directories(options.out_dir);
  std::ofstream(options.out_dir + "/merge.rc") << "0\n";
  auto submission = SubmitToSlurm(options);
  ASSERT_TRUE(submission.ok()) << submission.status().message();
  EXPECT_EQ(submission->array_job, "7");
  EXPECT_EQ(submission->merge_job, "8");
  EXPECT_EQ(ReadFile(options.out_dir + "/cells.sbatch"), CellsScript(options));
  EXPECT_EQ(ReadFile(options.out_dir + "/merge.sbatch"), MergeScript(options));
  EXPECT_FALSE(std::filesystem::exists(options.out_dir + "/merge.rc"));
  EXPECT_TRUE(std::filesystem::is_directory(options.out_dir + "/logs"));
}

TEST(SlurmBackend, WaitReturnsTheMergedVerdict) {
  TempDir dir;
  std::ofstream(dir.path() + "/merge.rc") << "1\n";
  SlurmWaitOptions wait;
  wait.squeue = "/bin/true";  // prints nothing: the merge job has left the queue
  auto verdict = WaitForSlurm({"7", "8"}, dir.path(), wait);
  ASSERT_TRUE(verdict.ok()) << verdict.status().message();
  EXPECT_EQ(*verdict, 1);
}

TEST(SlurmBackend, WaitPassesOnTheMergesInfraCode) {
  TempDir dir;
  std::ofstream(dir.path() + "/merge.rc") << "5\n";
  SlurmWaitOptions wait;
  wait.squeue = "/bin/true";
  auto verdict = WaitForSlurm({"7", "8"}, dir.path(), wait);
  ASSERT_TRUE(verdict.ok()) << verdict.status().message();
  EXPECT_EQ(*verdict, 5);
}

TEST(SlurmBackend, WaitRefusesAGarbledMergeRc) {
  TempDir dir;
  std::ofstream(dir.path() + "/merge.rc") << "oops\n";
  SlurmWaitOptions wait;
  wait.squeue = "/bin/true";
  auto verdict = WaitForSlurm({"7", "8"}, dir.path(), wait);
  ASSERT_FALSE(verdict.ok());
  EXPECT_NE(verdict.status().message().find("merge.rc: expected the merge's exit code, got 'oops'"),
            std::string::npos) << verdict.status().message();
}

TEST(SlurmBackend, WaitWithoutMergeResultNamesTheMergeLog) {
  TempDir dir;
  SlurmWaitOptions wait;
  wait.squeue = "/bin/true";
  wait.merge_rc_grace_seconds = 0;
  auto verdict = WaitForSlurm({"7", "8"}, dir.path(), wait);
  ASSERT_FALSE(verdict.ok());
  EXPECT_NE(verdict.status().message().find("merge job 8 ended without writing"),
            std::string::npos) << verdict.status().message();
  EXPECT_NE(verdict.status().message().find(dir.path() + "/logs/merge.log"), std::string::npos);
}

TEST(SlurmBackend, WaitGivesUpWhenSqueueKeepsFailing) {
  TempDir dir;
  SlurmWaitOptions wait;
  wait.squeue = dir.path() + "/squeue";
  wait.poll_seconds = 0;
  wait.max_squeue_failures = 2;
  WriteScript(wait.squeue, "#!/bin/sh\necho 'squeue: error: Unable to contact slurm controller' "
                           ">&2\nexit 1\n");
  auto verdict = WaitForSlurm({"7", "8"}, dir.path(), wait);
  ASSERT_FALSE(verdict.ok());
  EXPECT_EQ(verdict.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(verdict.status().message().find("-h -j 8 -o %T failed 3 times in a row (exit 1): "
                                            "squeue: error: Unable to contact"),
            std::string::npos) << verdict.status().message();
}

}  // namespace
}  // namespace otpu::regress
