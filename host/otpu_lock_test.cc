// otpu-lock end to end: the real binary, real commands, a fresh OTPU_RUN_DIR per test.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "base/exit_codes.h"
#include "host/lock/device_lock.h"
#include "base/testing/subprocess.h"
#include "base/testing/temp_dir.h"

namespace otpu::host {
namespace {

using testutil::CountLines;
using testutil::HasSignalBlocked;
using testutil::NowSeconds;
using testutil::ProcessResult;
using testutil::TempDir;
using testutil::TestProcess;

const std::string kOtpuLock = OTPU_LOCK_BINARY;

bool Exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class OtpuLockTest : public ::testing::Test {
 protected:
  // otpu-lock's argv: the binary followed by `args`.
  std::vector<std::string> Cmd(std::vector<std::string> args) const {
    args.insert(args.begin(), kOtpuLock);
    return args;
  }
  // Our environment for otpu-lock: this test's run dir plus `extra`.
  std::vector<std::string> Env(std::vector<std::string> extra = {}) const {
    extra.push_back("OTPU_RUN_DIR=" + tmp_.run_dir());
    return extra;
  }
  ProcessResult Run(std::vector<std::string> args, std::vector<std::string> extra_env = {}) const {
    return testutil::RunProcess(Cmd(std::move(args)), Env(std::move(extra_env)), 5);
  }
  // Takes the lock in this process, as a running tool would.
  std::unique_ptr<DeviceLock> Hold() const {
    StatusOr<std::unique_ptr<DeviceLock>> lock = DeviceLock::Acquire("/dev/xdma0", 0, tmp_.run_dir());
    EXPECT_TRUE(lock.ok()) << lock.status().message();
    return lock.ok() ? std::move(lock).value() : nullptr;
  }
  std::string Marker() const { return tmp_.path() + "/ran"; }

  TempDir tmp_;
};

TEST_F(OtpuLockTest, CommandRunsWithTheLockAndItsVariables) {
  TestProcess lock(Cmd({"sh", "-c", "cat \"$OTPU_RUN_DIR/xdma0.lock\"; echo \"$OTPU_LOCK_HELD $OTPU_LOCK_PID\""}),
                   Env());
  ProcessResult result = lock.Wait(5);
  ASSERT_TRUE(result.exited) << result.err;
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const std::string pid = std::to_string(lock.pid());
  EXPECT_EQ(result.out, pid + "\n/dev/xdma0 " + pid + "\n");
  EXPECT_EQ(result.err, "");
}

TEST_F(OtpuLockTest, LockIsReleasedAfterTheCommand) {
  ASSERT_EQ(Run({"true"}).exit_code, 0);
  EXPECT_EQ(ReadFile(tmp_.lock_path()), "");
  EXPECT_TRUE(DeviceLock::Acquire("/dev/xdma0", 0, tmp_.run_dir()).ok());
}

TEST_F(OtpuLockTest, HelpPrintsTheExitStatusTable) {
  ProcessResult result = Run({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find(exit_codes::ExitStatusHelp(exit_codes::Family::kLock)), std::string::npos)
      << result.out;
}

TEST_F(OtpuLockTest, ExitsWithTheCommandsStatusWithoutDoubleDash) {
  ProcessResult result = Run({"sh", "-c", "exit 5"});  // "-c" belongs to sh, not to otpu-lock
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.exit_code, 5) << result.err;
}

TEST_F(OtpuLockTest, OptionsBeforeDoubleDashAreOurs) {
  ProcessResult result = Run({"--dev", "/dev/xdma3", "--wait", "1", "--", "sh", "-c", "echo $OTPU_LOCK_HELD"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "/dev/xdma3\n");
  EXPECT_TRUE(Exists(tmp_.run_dir() + "/xdma3.lock"));
}

TEST_F(OtpuLockTest, OptionValuesAreNotMistakenForTheCommand) {
  ProcessResult result = Run({"--dev", "c", "--config", "sim", "--wait", "1", "sh", "-c", "echo $OTPU_LOCK_HELD"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "c\n");
}

TEST_F(OtpuLockTest, BusyDeviceExits3WithOneLineNamingTheHolder) {
  std::unique_ptr<DeviceLock> held = Hold();
  ProcessResult result = Run({"--wait", "0", "--", "touch", Marker()});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(CountLines(result.err), 1) << result.err;
  EXPECT_NE(result.err.find("otpu-lock: /dev/xdma0 is busy: held by pid " + std::to_string(::getpid())),
            std::string::npos) << result.err;
  EXPECT_NE(result.err.find("lock_test"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("OTPU_LOCK_WAIT=SEC"), std::string::npos) << result.err;
  EXPECT_FALSE(Exists(Marker()));
}

TEST_F(OtpuLockTest, WaitsUntilTheHolderExits) {
  TestProcess holder(Cmd({"sh", "-c", "echo ready; sleep 0.4"}), Env());
  ASSERT_EQ(holder.ReadLine(2), "ready");
  const double start = NowSeconds();
  ProcessResult result = Run({"--wait", "5", "--", "touch", Marker()});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_GT(NowSeconds() - start, 0.2);
  EXPECT_TRUE(Exists(Marker()));
  EXPECT_EQ(holder.Wait(1).exit_code, 0);
}

TEST_F(OtpuLockTest, GivesUpAtTheWaitDeadline) {
  std::unique_ptr<DeviceLock> held = Hold();
  ProcessResult result = Run({"--wait", "0.3", "true"});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_GE(result.seconds, 0.3);
  EXPECT_LT(result.seconds, 1.5);
  EXPECT_NE(result.err.find("/dev/xdma0 is still busy after 0.3 s"), std::string::npos) << result.err;
}

TEST_F(OtpuLockTest, NestedOtpuLockKeepsTheOuterHolder) {
  TestProcess outer(Cmd({"--", kOtpuLock, "--wait", "0", "--", "sh", "-c", "echo $OTPU_LOCK_PID"}), Env());
  ProcessResult result = outer.Wait(5);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, std::to_string(outer.pid()) + "\n");
  EXPECT_EQ(result.err, "");
}

TEST_F(OtpuLockTest, VerifiedInheritedLockRunsWithoutTakingIt) {
  std::unique_ptr<DeviceLock> held = Hold();  // this test is otpu-lock's ancestor and holder
  ASSERT_EQ(::fcntl(held->descriptor(), F_SETFD, 0), 0);  // passed down, as otpu-lock does
  const std::string self = std::to_string(::getpid());
  ProcessResult result =
      Run({"--wait", "0", "sh", "-c", "echo $OTPU_LOCK_PID"},
          {"OTPU_LOCK_HELD=/dev/xdma0", "OTPU_LOCK_PID=" + self,
           "OTPU_LOCK_FDS=xdma0.lock=" + std::to_string(held->descriptor())});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, self + "\n");
}

TEST_F(OtpuLockTest, WrongInheritedVariablesAreIgnoredWithAWarning) {
  TestProcess stranger({"sleep", "5"});
  const std::string other = std::to_string(stranger.pid());
  TestProcess lock(Cmd({"sh", "-c", "echo $OTPU_LOCK_PID"}),
                   Env({"OTPU_LOCK_HELD=/dev/xdma0", "OTPU_LOCK_PID=" + other}));
  ProcessResult result = lock.Wait(5);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, std::to_string(lock.pid()) + "\n");  // it locked for itself
  EXPECT_EQ(result.err,
            "otpu-lock: ignoring OTPU_LOCK_HELD and OTPU_LOCK_PID: OTPU_LOCK_HELD=/dev/xdma0 is "
            "set but no inherited descriptor holds " + tmp_.lock_path() +
                " (OTPU_LOCK_FDS does not name it)\n");
}

// Regression: the lock file is world-writable, so a pid in it proves nothing.
TEST_F(OtpuLockTest, ForgedPidInTheLockFileDoesNotGetIn) {
  TestProcess holder(Cmd({"--wait", "0", "sh", "-c", "echo ready; sleep 5"}), Env());
  ASSERT_EQ(holder.ReadLine(5), "ready");
  const std::string self = std::to_string(::getpid());  // an ancestor of the next otpu-lock
  { std::ofstream(tmp_.lock_path()) << self << "\n"; }
  ProcessResult result = Run({"--wait", "0", "echo", "IN"},
                             {"OTPU_LOCK_HELD=xdma0", "OTPU_LOCK_PID=" + self});
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_EQ(result.out, "");
}

TEST_F(OtpuLockTest, ForgedDescriptorOfTheLockFileDoesNotGetIn) {
  TestProcess holder(Cmd({"--wait", "0", "sh", "-c", "echo ready; sleep 5"}), Env());
  ASSERT_EQ(holder.ReadLine(5), "ready");
  ProcessResult result = testutil::RunProcess(
      {"sh", "-c", "exec 7<\"$OTPU_RUN_DIR/xdma0.lock\"; OTPU_LOCK_FDS=xdma0.lock=7 "
                   "OTPU_LOCK_HELD=xdma0 OTPU_LOCK_PID=$$ " + kOtpuLock + " --wait 0 echo IN"},
      Env(), 5);
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("another process holds the lock"), std::string::npos) << result.err;
}

// Regression: SIGKILL of otpu-lock freed the lock while its command still drove the card.
TEST_F(OtpuLockTest, KilledOtpuLockKeepsTheLockWhileItsCommandRuns) {
  const std::string inner = tmp_.path() + "/inner";
  // The background part outlives the shell (which otpu-lock's death may take along) and
  // starts one more tool under the lock after otpu-lock is gone.
  TestProcess first(
      Cmd({"--wait", "0", "sh", "-c",
           "(sleep 1; " + kOtpuLock + " --wait 0 echo inner > " + inner + "; sleep 0.5) & "
           "echo ready; wait"}),
      Env());
  ASSERT_EQ(first.ReadLine(5), "ready");
  ASSERT_EQ(::kill(first.pid(), SIGKILL), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // not Wait: the pipes stay open
  ProcessResult during = Run({"--wait", "0", "true"});
  EXPECT_EQ(during.exit_code, 3) << during.err;
  ProcessResult after = Run({"--wait", "5", "cat", inner});
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(after.out, "inner\n");  // the tool inside ran under the inherited lock
}

// Regression: the inner xdma0 used to wait an hour on its own outermost lock.
TEST_F(OtpuLockTest, NestingBackToAnOuterDeviceRunsUnderItsLock) {
  ProcessResult result = Run({"--wait", "1", "--", kOtpuLock, "--dev", "/dev/xdma1", "--wait", "1",
                              "--", kOtpuLock, "--dev", "/dev/xdma0", "--wait", "1", "echo", "IN"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "IN\n");
  EXPECT_EQ(result.err, "");
}

TEST_F(OtpuLockTest, TermIsForwardedAndOtpuLockExitsAfterTheChild) {
  const std::string done = tmp_.path() + "/done";
  TestProcess lock(Cmd({"sh", "-c", "trap 'sleep 0.2; touch " + done + "; exit 7' TERM; echo ready; "
                                    "while :; do sleep 0.05; done"}),
                   Env());
  ASSERT_EQ(lock.ReadLine(2), "ready");
  ASSERT_EQ(::kill(lock.pid(), SIGTERM), 0);
  ProcessResult result = lock.Wait(3);
  ASSERT_TRUE(result.exited) << "otpu-lock died of signal " << result.signal;
  EXPECT_EQ(result.exit_code, 7);
  EXPECT_TRUE(Exists(done));  // the child finished its cleanup before otpu-lock exited
}

TEST_F(OtpuLockTest, IntIsForwardedAndReportedAs130) {
  TestProcess lock(Cmd({"sh", "-c", "echo ready; exec sleep 5"}), Env());
  ASSERT_EQ(lock.ReadLine(2), "ready");
  ASSERT_EQ(::kill(lock.pid(), SIGINT), 0);
  ProcessResult result = lock.Wait(3);
  ASSERT_TRUE(result.exited) << "otpu-lock died of signal " << result.signal;
  EXPECT_EQ(result.exit_code, 128 + SIGINT);
  EXPECT_LT(result.seconds, 2);
}

TEST_F(OtpuLockTest, HupIsForwardedAndReportedAs129) {
  TestProcess lock(Cmd({"sh", "-c", "echo ready; exec sleep 5"}), Env());
  ASSERT_EQ(lock.ReadLine(2), "ready");
  ASSERT_EQ(::kill(lock.pid(), SIGHUP), 0);
  ProcessResult result = lock.Wait(3);
  ASSERT_TRUE(result.exited) << "otpu-lock died of signal " << result.signal;
  EXPECT_EQ(result.exit_code, 128 + SIGHUP);
}

TEST_F(OtpuLockTest, SignalBeforeTheChildStartsIsDeliveredAfterItStarts) {
  // The child waits 400 ms between fork and exec; TERM arrives in that window.
  TestProcess lock(Cmd({"sleep", "5"}), Env({"OTPU_LOCK_TEST_EXEC_DELAY_MS=400"}));
  const double deadline = NowSeconds() + 2;
  while (!HasSignalBlocked(lock.pid(), SIGTERM) && NowSeconds() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_TRUE(HasSignalBlocked(lock.pid(), SIGTERM));
  ASSERT_EQ(::kill(lock.pid(), SIGTERM), 0);
  ProcessResult result = lock.Wait(3);
  // Not lost (sleep would run 5 s) and not fatal to otpu-lock: the child died of it.
  ASSERT_TRUE(result.exited) << "otpu-lock died of signal " << result.signal;
  EXPECT_EQ(result.exit_code, 128 + SIGTERM);
  EXPECT_LT(result.seconds, 2);
}

TEST_F(OtpuLockTest, NoCommandExits2) {
  ProcessResult result = Run({"--wait", "1"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "otpu-lock: no command\n");
}

TEST_F(OtpuLockTest, BadOptionExits2NamingIt) {
  ProcessResult result = Run({"--bogus", "--", "touch", Marker()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("--bogus"), std::string::npos) << result.err;
  EXPECT_FALSE(Exists(Marker()));
}

TEST_F(OtpuLockTest, BadWaitExits2NamingIt) {
  ProcessResult result = Run({"--wait", "soon", "true"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "otpu-lock: --wait 'soon' is not a number of seconds (0 or more)\n");
}

TEST_F(OtpuLockTest, UnknownCommandExits127) {
  ProcessResult result = Run({"otpu-no-such-command"});
  EXPECT_EQ(result.exit_code, 127);
  EXPECT_EQ(result.err, "otpu-lock: cannot run 'otpu-no-such-command': No such file or directory\n");
}

TEST_F(OtpuLockTest, SymlinkedLockFileIsRefused) {
  ASSERT_EQ(::mkdir(tmp_.run_dir().c_str(), 0700), 0);
  const std::string victim = tmp_.path() + "/victim";
  std::ofstream(victim) << "keep\n";
  ASSERT_EQ(::symlink(victim.c_str(), tmp_.lock_path().c_str()), 0);
  ProcessResult result = Run({"touch", Marker()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "otpu-lock: lock file " + tmp_.lock_path() +
                            " is a symlink; refusing to follow it (remove it)\n");
  EXPECT_FALSE(Exists(Marker()));
  EXPECT_EQ(ReadFile(victim), "keep\n");
}

TEST_F(OtpuLockTest, LockFileWithTwoLinksIsRefused) {
  ASSERT_EQ(::mkdir(tmp_.run_dir().c_str(), 0700), 0);
  std::ofstream(tmp_.lock_path()) << "";
  ASSERT_EQ(::link(tmp_.lock_path().c_str(), (tmp_.path() + "/second").c_str()), 0);
  ProcessResult result = Run({"touch", Marker()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("lock file " + tmp_.lock_path() + " has 2 links; refusing it"),
            std::string::npos) << result.err;
  EXPECT_FALSE(Exists(Marker()));
}

TEST_F(OtpuLockTest, PrebuildFailureStillRunsTheCommand) {
  ProcessResult result = Run({"--prebuild", "qwen3-0.6b:int4:int8", "--", "touch", Marker()},
                             {"OTPU_PREBUILD=/nonexistent/otpu-prebuild"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(Exists(Marker()));
  EXPECT_EQ(result.err,
            "otpu-lock: prebuild qwen3-0.6b:int4:int8 failed: cannot run '/nonexistent/otpu-prebuild': "
            "No such file or directory; the command will quantize under the lock\n");
}

TEST_F(OtpuLockTest, PrebuildRunsBeforeWaitingForTheLock) {
  std::unique_ptr<DeviceLock> held = Hold();
  const std::string script = tmp_.path() + "/prebuild.sh";
  const std::string log = tmp_.path() + "/prebuilds";
  std::ofstream(script) << "#!/bin/sh\necho \"$* nice=$(nice)\" >> " << log << "\n";
  ASSERT_EQ(::chmod(script.c_str(), 0755), 0);
  ProcessResult result = Run({"--wait", "0", "--prebuild", "a:int4:-", "--prebuild", "b:fp4:int8",
                              "--config", "board", "true"},
                             {"OTPU_PREBUILD=" + script});
  EXPECT_EQ(result.exit_code, 3);  // the device was busy, yet both prebuilds ran first
  EXPECT_EQ(ReadFile(log), "a:int4:- --config board nice=19\nb:fp4:int8 --config board nice=19\n");
}

TEST_F(OtpuLockTest, BadPrebuildSyntaxExits2) {
  ProcessResult result = Run({"--prebuild", "qwen:int3:int8", "--", "touch", Marker()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "otpu-lock: --prebuild 'qwen:int3:int8': WF 'int3' is not int8|int4|fp4|mix\n");
  EXPECT_FALSE(Exists(Marker()));
}

// A prebuild script that appends its arguments to `log`.
std::string LoggingScript(const std::string& dir, const std::string& log) {
  const std::string script = dir + "/prebuild.sh";
  std::ofstream(script) << "#!/bin/sh\necho \"$*\" >> " << log << "\n";
  ::chmod(script.c_str(), 0755);
  return script;
}

TEST_F(OtpuLockTest, BadConfigExits2NamingTheOptionAndTheConfigurations) {
  ProcessResult result = Run({"--prebuild", "qwen:int4:int8", "--config", "xyz", "--", "touch",
                              Marker()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "otpu-lock: --config 'xyz' is not a card configuration: sim|board\n");
  EXPECT_FALSE(Exists(Marker()));
}

// The seed's spelling still works, with one warning line.
TEST_F(OtpuLockTest, PrebuildCfgIsADeprecatedSpellingOfConfig) {
  const std::string log = tmp_.path() + "/prebuilds";
  ProcessResult result = Run({"--prebuild", "a:int4:-", "--prebuild-cfg", "board", "true"},
                             {"OTPU_PREBUILD=" + LoggingScript(tmp_.path(), log)});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "otpu-lock: warning: --prebuild-cfg is deprecated; use --config\n");
  EXPECT_EQ(ReadFile(log), "a:int4:- --config board\n");
}

TEST_F(OtpuLockTest, PrebuildCfgAndConfigTogetherExit2) {
  ProcessResult result = Run({"--prebuild-cfg", "sim", "--config", "board", "--", "touch", Marker()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(CountLines(result.err), 1) << result.err;
  EXPECT_NE(result.err.find("--prebuild-cfg and --config"), std::string::npos) << result.err;
  EXPECT_FALSE(Exists(Marker()));
}

// `otpu-lock --help` lists each option on one line; `otpu-lock CMD --help` is CMD's.
TEST_F(OtpuLockTest, HelpListsTheOptionsOneLineEach) {
  ProcessResult result = Run({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("\n  --config sim|board "), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("prebuild-cfg"), std::string::npos) << "deprecated: not listed";
  ProcessResult theirs = Run({"--wait", "1", "sh", "-c", "echo \"$@\"", "sh", "--help"});
  EXPECT_EQ(theirs.exit_code, 0) << theirs.err;
  EXPECT_EQ(theirs.out, "--help\n");
}

// The seed's "in the repository": a checkout found through OTPU_SOURCE_DIR, whatever the
// working directory.
TEST_F(OtpuLockTest, DefaultModelIsFoundInTheSourceTreeNotTheWorkingDirectory) {
  const std::string src = tmp_.path() + "/src";
  ASSERT_EQ(::mkdir(src.c_str(), 0755), 0);
  ASSERT_EQ(::mkdir((src + "/models").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir((src + "/models/Qwen3-0.6B").c_str(), 0755), 0);
  const std::string log = tmp_.path() + "/prebuilds";
  ProcessResult result = testutil::RunProcess(
      {"sh", "-c", "cd / && exec " + kOtpuLock + " --prebuild qwen:int4:int8 true"},
      Env({"OTPU_SOURCE_DIR=" + src, "OTPU_PREBUILD=" + LoggingScript(tmp_.path(), log)}), 5);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(ReadFile(log), src + "/models/Qwen3-0.6B:int4:int8\n");
}

// An otpu-lock binary inside a checkout (build/host/otpu-lock) finds the checkout's models/.
TEST_F(OtpuLockTest, DefaultModelIsFoundAboveTheBinary) {
  const std::string root = tmp_.path() + "/checkout";
  for (const char* d : {"", "/models", "/models/Qwen3-0.6B", "/build", "/build/host"}) {
    ASSERT_EQ(::mkdir((root + d).c_str(), 0755), 0);
  }
  const std::string copy = root + "/build/host/otpu-lock";
  ASSERT_EQ(testutil::RunProcess({"cp", kOtpuLock, copy}).exit_code, 0);
  const std::string log = tmp_.path() + "/prebuilds";
  ProcessResult result = testutil::RunProcess(
      {"sh", "-c", "cd / && exec " + copy + " --prebuild qwen:fp4:- true"},
      Env({"-OTPU_SOURCE_DIR", "OTPU_PREBUILD=" + LoggingScript(tmp_.path(), log)}), 5);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(ReadFile(log), root + "/models/Qwen3-0.6B:fp4:-\n");
}

TEST_F(OtpuLockTest, MissingDefaultModelSaysWhereItLookedAndTheCommandStillRuns) {
  const std::string nowhere = tmp_.path() + "/nowhere";
  ProcessResult result = Run({"--prebuild", "qwen:int4:int8", "touch", Marker()},
                             {"OTPU_SOURCE_DIR=" + nowhere, "OTPU_PREBUILD=/bin/true"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(Exists(Marker()));
  EXPECT_EQ(result.err.rfind("otpu-lock: prebuild qwen:int4:int8 failed: qwen: no checkpoint "
                             "models/Qwen3-0.6B found; looked in " + nowhere + "/models/Qwen3-0.6B, ",
                             0),
            0u) << result.err;
  EXPECT_NE(result.err.find(", models/Qwen3-0.6B; download"), std::string::npos) << result.err;
}

// The busy message tells the user to set OTPU_LOCK_WAIT; otpu-lock honours it too.
TEST_F(OtpuLockTest, OtpuLockWaitIsTheDefaultOfWait) {
  std::unique_ptr<DeviceLock> held = Hold();
  ProcessResult result = Run({"true"}, {"OTPU_LOCK_WAIT=0.3"});
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_NE(result.err.find("still busy after 0.3 s"), std::string::npos) << result.err;
  EXPECT_GE(result.seconds, 0.25);
}

TEST_F(OtpuLockTest, WaitOptionOverridesOtpuLockWait) {
  std::unique_ptr<DeviceLock> held = Hold();
  ProcessResult result = Run({"--wait", "0", "true"}, {"OTPU_LOCK_WAIT=100"});
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_LT(result.seconds, 2);
}

TEST_F(OtpuLockTest, BadOtpuLockWaitExits2NamingIt) {
  ProcessResult result = Run({"touch", Marker()}, {"OTPU_LOCK_WAIT=soon"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "otpu-lock: OTPU_LOCK_WAIT 'soon' is not a number of seconds (0 or more)\n");
  EXPECT_FALSE(Exists(Marker()));
}

// "Signals delivered to otpu-lock are forwarded to the child": not only TERM, HUP and INT.
TEST_F(OtpuLockTest, Usr1AndUsr2ReachTheChild) {
  TestProcess lock(Cmd({"sh", "-c", "trap 'echo got USR1' USR1; trap 'echo got USR2; exit 5' USR2; "
                                    "echo ready; while :; do sleep 0.05; done"}),
                   Env());
  ASSERT_EQ(lock.ReadLine(2), "ready");
  ASSERT_EQ(::kill(lock.pid(), SIGUSR1), 0);
  EXPECT_EQ(lock.ReadLine(2), "got USR1");
  ASSERT_EQ(::kill(lock.pid(), SIGUSR2), 0);
  EXPECT_EQ(lock.ReadLine(2), "got USR2");
  ProcessResult result = lock.Wait(3);
  ASSERT_TRUE(result.exited) << "otpu-lock died of signal " << result.signal;
  EXPECT_EQ(result.exit_code, 5);
}

// Python's subprocess closes inherited descriptors; the tool inside still runs under the lock
// (proved by its ancestor otpu-lock holding it, as /proc/locks shows), with no warning.
TEST_F(OtpuLockTest, ToolStartedFromPythonSubprocessRunsUnderTheLock) {
  const std::string script = "import subprocess, sys; sys.exit(subprocess.run(['" + kOtpuLock +
                             "', '--wait', '0', 'sh', '-c', 'echo $OTPU_LOCK_PID']).returncode)";
  TestProcess lock(Cmd({"python3", "-c", script}), Env());
  ProcessResult result = lock.Wait(10);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, std::to_string(lock.pid()) + "\n");
  EXPECT_EQ(result.err, "");
}

// Inheritance stays unforgeable without the descriptor: an ancestor that does not hold the
// lock proves nothing, even when its pid is written into the lock file.
TEST_F(OtpuLockTest, AncestorThatDoesNotHoldTheLockDoesNotGetIn) {
  TestProcess holder(Cmd({"--wait", "0", "sh", "-c", "echo ready; sleep 5"}), Env());
  ASSERT_EQ(holder.ReadLine(5), "ready");
  ProcessResult result = testutil::RunProcess(
      {"python3", "-c", "import os, subprocess, sys; os.environ['OTPU_LOCK_PID'] = str(os.getpid()); "
                        "sys.exit(subprocess.run(['" + kOtpuLock + "', '--wait', '0', 'echo', 'IN'])"
                        ".returncode)"},
      Env({"OTPU_LOCK_HELD=/dev/xdma0"}), 10);
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("holds no lock on " + tmp_.lock_path() + " (/proc/locks)"),
            std::string::npos) << result.err;
}

// The second run while the first holds the lock: refused, one line naming the holder.
void ExpectRefused(const ProcessResult& result, const std::string& holder_pid) {
  EXPECT_EQ(result.exit_code, 3) << result.err;
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("held by pid " + holder_pid), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("was removed or replaced while held"), std::string::npos) << result.err;
}

TEST_F(OtpuLockTest, RemovingTheLockFileWhileHeldLetsNobodyIn) {
  TestProcess holder(Cmd({"--wait", "0", "sh", "-c", "echo ready; sleep 5"}), Env());
  ASSERT_EQ(holder.ReadLine(5), "ready");
  ASSERT_EQ(::unlink(tmp_.lock_path().c_str()), 0);
  ExpectRefused(Run({"--wait", "0", "echo", "IN"}), std::to_string(holder.pid()));
}

TEST_F(OtpuLockTest, ReplacingTheLockFileWhileHeldLetsNobodyIn) {
  TestProcess holder(Cmd({"--wait", "0", "sh", "-c", "echo ready; sleep 5"}), Env());
  ASSERT_EQ(holder.ReadLine(5), "ready");
  const std::string other = tmp_.run_dir() + "/other";
  { std::ofstream(other) << ""; }
  ASSERT_EQ(::chmod(other.c_str(), 0666), 0);
  ASSERT_EQ(::rename(other.c_str(), tmp_.lock_path().c_str()), 0);
  ExpectRefused(Run({"--wait", "0", "echo", "IN"}), std::to_string(holder.pid()));
}

// A user who creates the lock file first owns it and may remove it from the sticky run dir
// while root holds the lock; root's second run must still be refused.
TEST_F(OtpuLockTest, ALockFilePreCreatedByAnotherUserDoesNotDefeatRootsLock) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to act as another user";
  if (testutil::RunProcess({"sh", "-c", "command -v setpriv"}).exit_code != 0) {
    GTEST_SKIP() << "needs setpriv";
  }
  ASSERT_EQ(::chmod(tmp_.path().c_str(), 0755), 0);  // let nobody reach the run dir
  ASSERT_EQ(::mkdir(tmp_.run_dir().c_str(), 01777), 0);
  ASSERT_EQ(::chmod(tmp_.run_dir().c_str(), 01777), 0);
  const std::vector<std::string> as_nobody = {"setpriv", "--reuid=65534", "--regid=65534",
                                              "--clear-groups", "sh", "-c"};
  std::vector<std::string> create = as_nobody;
  create.push_back("umask 0; : > " + tmp_.lock_path());
  ASSERT_EQ(testutil::RunProcess(create).exit_code, 0);
  struct stat st;
  ASSERT_EQ(::stat(tmp_.lock_path().c_str(), &st), 0);
  ASSERT_EQ(st.st_uid, 65534u);

  TestProcess holder(Cmd({"--wait", "0", "sh", "-c", "echo ready; sleep 5"}), Env());
  ASSERT_EQ(holder.ReadLine(5), "ready");
  std::vector<std::string> remove = as_nobody;
  remove.push_back("rm -f " + tmp_.lock_path() + " && ! rm -f " + tmp_.run_dir() + "/xdma0.lock.uid0");
  ProcessResult removed = testutil::RunProcess(remove);
  ASSERT_EQ(removed.exit_code, 0) << removed.err;  // nobody's file went; root's guard stayed
  ASSERT_FALSE(Exists(tmp_.lock_path()));
  ExpectRefused(Run({"--wait", "0", "echo", "IN"}), std::to_string(holder.pid()));
}

}  // namespace
}  // namespace otpu::host
