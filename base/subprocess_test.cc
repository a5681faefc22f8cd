#include "base/subprocess.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "base/testing/temp_dir.h"

namespace otpu {
namespace {

SubprocessOptions Shell(const std::string& script) {
  SubprocessOptions o;
  o.argv = {"sh", "-c", script};
  o.out = Stream::Capture();
  o.err = Stream::Capture();
  return o;
}

SubprocessResult RunOk(const SubprocessOptions& o) {
  StatusOr<SubprocessResult> r = RunSubprocess(o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : SubprocessResult{};
}

TEST(Subprocess, CapturesStdoutAndStderrApart) {
  SubprocessResult r = RunOk(Shell("echo out; echo err >&2; exit 3"));
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 3);
}

TEST(Subprocess, SignalDeathGives128PlusTheSignal) {
  SubprocessResult r = RunOk(Shell("kill -KILL $$"));
  EXPECT_FALSE(r.exited);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_EQ(r.exit_code, 128 + SIGKILL);
}

TEST(Subprocess, MissingProgramIsNotFoundNamingIt) {
  SubprocessOptions o;
  o.argv = {"otpu-no-such-program"};
  StatusOr<std::unique_ptr<Subprocess>> p = Subprocess::Start(o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(p.status().message(), "cannot run 'otpu-no-such-program': No such file or directory");
}

TEST(Subprocess, NonExecutableFileIsInvalidArgument) {
  testutil::TempDir tmp;
  const std::string file = tmp.path() + "/data";
  std::ofstream(file) << "not a program\n";
  SubprocessOptions o;
  o.argv = {file};
  StatusOr<std::unique_ptr<Subprocess>> p = Subprocess::Start(o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(p.status().message(), "cannot run '" + file + "': Permission denied");
}

TEST(Subprocess, EmptyCommandIsRefused) {
  StatusOr<std::unique_ptr<Subprocess>> p = Subprocess::Start({});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(), "no command");
}

TEST(Subprocess, MissingWorkingDirectoryIsNotFoundNamingIt) {
  SubprocessOptions o = Shell("true");
  o.cwd = "/nonexistent/dir";
  StatusOr<std::unique_ptr<Subprocess>> p = Subprocess::Start(o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(p.status().message(), "cannot run 'sh' in /nonexistent/dir: No such file or directory");
}

TEST(Subprocess, BadDescriptorIsInternal) {
  SubprocessOptions o = Shell("true");
  o.fds = {{1000, 3}};  // not open here
  StatusOr<std::unique_ptr<Subprocess>> p = Subprocess::Start(o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kInternal);
  EXPECT_EQ(p.status().message(), "cannot run 'sh': setting up its descriptors: Bad file descriptor");
}

TEST(Subprocess, RunsInTheWorkingDirectory) {
  testutil::TempDir tmp;
  SubprocessOptions o = Shell("pwd");
  o.cwd = tmp.path();
  EXPECT_EQ(RunOk(o).out, std::filesystem::canonical(tmp.path()).string() + "\n");
}

TEST(Subprocess, EnvironmentChangesApplyInOrder) {
  ::setenv("OTPU_SUBPROCESS_TEST_A", "ours", 1);
  ::setenv("OTPU_SUBPROCESS_TEST_B", "ours", 1);
  SubprocessOptions o = Shell("echo \"$OTPU_SUBPROCESS_TEST_A/${OTPU_SUBPROCESS_TEST_B-unset}\"");
  o.env = {"OTPU_SUBPROCESS_TEST_A=set", "-OTPU_SUBPROCESS_TEST_B"};
  EXPECT_EQ(RunOk(o).out, "set/unset\n");
}

TEST(Subprocess, ClearedEnvironmentHasOnlyWhatIsSet) {
  SubprocessOptions o = Shell("env");
  o.argv = {"/usr/bin/env"};
  o.clear_env = true;
  o.env = {"ONLY=1"};
  EXPECT_EQ(RunOk(o).out, "ONLY=1\n");
}

TEST(Subprocess, CaptureStopsAtTheLimit) {
  SubprocessOptions o = Shell("head -c 100000 /dev/zero");
  o.capture_limit = 1000;
  SubprocessResult r = RunOk(o);
  EXPECT_EQ(r.out.size(), 1000u);
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.exit_code, 0);  // the child was never blocked on a full pipe
}

TEST(Subprocess, StderrCanJoinStdout) {
  SubprocessOptions o = Shell("echo a; echo b >&2");
  o.err_to_out = true;
  EXPECT_EQ(RunOk(o).out, "a\nb\n");
}

TEST(Subprocess, OutputCanGoToAFile) {
  testutil::TempDir tmp;
  SubprocessOptions o = Shell("echo logged");
  o.out = Stream::File(tmp.path() + "/log");
  RunOk(o);
  std::ifstream in(tmp.path() + "/log");
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "logged");
}

TEST(Subprocess, OnlyChosenDescriptorsReachTheChild) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);  // no close-on-exec: a plain fork would leak both ends
  SubprocessOptions o = Shell("ls /proc/self/fd | sort -n | tr '\\n' ' '; echo hi >&5");
  o.fds = {{p[1], 5}};
  SubprocessResult r = RunOk(o);
  ::close(p[1]);
  char buf[8] = {};
  EXPECT_EQ(::read(p[0], buf, sizeof buf), 3);
  ::close(p[0]);
  EXPECT_EQ(std::string(buf), "hi\n");
  EXPECT_EQ(r.out, "0 1 2 3 5 ");  // 3 is ls's own directory
}

TEST(Subprocess, InheritFdsKeepsDescriptorsWithoutCloseOnExec) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  SubprocessOptions o = Shell("test -e /proc/self/fd/" + std::to_string(p[1]));
  o.inherit_fds = true;
  EXPECT_EQ(RunOk(o).exit_code, 0);
  o.inherit_fds = false;
  EXPECT_EQ(RunOk(o).exit_code, 1);
  ::close(p[0]);
  ::close(p[1]);
}

TEST(Subprocess, OwnProcessGroupIsTheChildsPid) {
  SubprocessOptions o = Shell("test \"$(cut -d' ' -f5 /proc/$$/stat)\" -eq $$");
  o.own_process_group = true;
  EXPECT_EQ(RunOk(o).exit_code, 0);
}

TEST(Subprocess, NiceIsApplied) {
  SubprocessOptions o = Shell("exit $(nice)");
  o.nice = 5;
  EXPECT_EQ(RunOk(o).exit_code, 5);
}

TEST(Subprocess, DeadlineSendsTermThenKill) {
  SubprocessOptions o = Shell("trap '' TERM; echo ready; sleep 30");
  o.timeout_s = 0.3;
  o.kill_grace_s = 0.3;
  SubprocessResult r = RunOk(o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_LT(r.seconds, 5);
}

TEST(Subprocess, DeadlineTermIsEnoughForAPoliteChild) {
  SubprocessOptions o = Shell("sleep 30");
  o.timeout_s = 0.2;
  SubprocessResult r = RunOk(o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.exit_code, 128 + SIGTERM);
}

TEST(Subprocess, ReadLineThenWaitKeepsTheRest) {
  StatusOr<std::unique_ptr<Subprocess>> p = Subprocess::Start(Shell("echo one; echo two"));
  ASSERT_TRUE(p.ok());
  EXPECT_EQ((*p)->ReadLine(5), "one");
  EXPECT_EQ((*p)->Wait().out, "one\ntwo\n");
}

TEST(Subprocess, TryWaitIsEmptyWhileRunning) {
  StatusOr<std::unique_ptr<Subprocess>> p = Subprocess::Start(Shell("sleep 30"));
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE((*p)->TryWait().has_value());
  SubprocessResult r = (*p)->Stop(SIGTERM, 5);
  EXPECT_EQ(r.signal, SIGTERM);
  EXPECT_FALSE(r.timed_out);
}

TEST(Subprocess, HeldSignalWaitsForExecAndMeetsTheDefaultHandler) {
  struct sigaction old, catcher = {};
  catcher.sa_handler = [](int) {};
  ::sigaction(SIGUSR1, &catcher, &old);
  SubprocessOptions o = Shell("exit 0");
  o.hold_signals = {SIGUSR1};
  // Raised between fork and exec: held until the mask is restored, then handled by default
  // (our catcher would have let the child exec and exit 0).
  o.before_exec = [] { ::raise(SIGUSR1); };
  SubprocessResult r = RunOk(o);
  ::sigaction(SIGUSR1, &old, nullptr);
  EXPECT_EQ(r.signal, SIGUSR1);
}

TEST(Subprocess, ExecSigmaskIsTheChildsMask) {
  SubprocessOptions o;
  o.argv = {"grep", "SigBlk", "/proc/self/status"};
  o.out = Stream::Capture();
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGUSR2);
  o.exec_sigmask = mask;
  EXPECT_EQ(RunOk(o).out, "SigBlk:\t0000000000000800\n");
}

TEST(Subprocess, DetachedChildRunsOnItsOwn) {
  testutil::TempDir tmp;
  SubprocessOptions o = Shell("echo $PPID > " + tmp.path() + "/ppid");
  o.new_session = true;
  ASSERT_TRUE(StartDetached(o).ok());
  std::string ppid;
  for (int i = 0; i < 200 && ppid.empty(); ++i) {
    ::usleep(10000);
    std::ifstream(tmp.path() + "/ppid") >> ppid;
  }
  EXPECT_NE(ppid, std::to_string(::getpid()));  // reparented: the intermediate is gone
  EXPECT_FALSE(ppid.empty());
}

TEST(Subprocess, DetachedMissingProgramIsNotFound) {
  SubprocessOptions o;
  o.argv = {"/nonexistent/browser"};
  Status s = StartDetached(o);
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "cannot run '/nonexistent/browser': No such file or directory");
}

}  // namespace
}  // namespace otpu
