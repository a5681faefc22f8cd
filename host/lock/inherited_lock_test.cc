// OTPU_LOCK_HELD/OTPU_LOCK_PID checks. The checks need the holder to be an ancestor, so each
// runs in a forked child of this test process, which holds the lock itself.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>

#include <gtest/gtest.h>

#include "host/lock/device_lock.h"
#include "host/lock/test_subprocess.h"
#include "host/lock/test_temp_dir.h"

namespace otpu::host {
namespace {

using testing::ScopedEnv;
using testing::TempDir;
using testing::TestProcess;

// Runs `check` in a forked child and returns the text it produced.
std::string InChild(const std::function<std::string()>& check) {
  int out[2];
  if (::pipe(out) != 0) return "pipe failed";
  pid_t child = ::fork();
  if (child == 0) {
    ::close(out[0]);
    std::string text = check();
    (void)!::write(out[1], text.data(), text.size());
    ::_exit(0);
  }
  ::close(out[1]);
  std::string text;
  char buf[512];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof(buf))) > 0;) text.append(buf, n);
  ::close(out[0]);
  ::waitpid(child, nullptr, 0);
  return text;
}

// CheckInheritedLock's answer for /dev/xdma0 as text: "pid N", "none" or "error: ...".
std::string CheckInChild(const TempDir& tmp) {
  return InChild([&] {
    StatusOr<std::optional<pid_t>> checked = CheckInheritedLock("/dev/xdma0", tmp.run_dir());
    if (!checked.ok()) return "error: " + checked.status().message();
    return checked->has_value() ? "pid " + std::to_string(**checked) : std::string("none");
  });
}

class InheritedLockTest : public ::testing::Test {
 protected:
  void Hold() {
    StatusOr<std::unique_ptr<DeviceLock>> lock = DeviceLock::Acquire("/dev/xdma0", 0, tmp_.run_dir());
    ASSERT_TRUE(lock.ok()) << lock.status().message();
    lock_ = std::move(lock).value();
  }

  TempDir tmp_;
  std::unique_ptr<DeviceLock> lock_;
  const std::string self_ = std::to_string(::getpid());
};

TEST_F(InheritedLockTest, AncestorHoldingTheLockIsAccepted) {
  Hold();
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma0");
  ScopedEnv pid("OTPU_LOCK_PID", self_.c_str());
  EXPECT_EQ(CheckInChild(tmp_), "pid " + self_);
}

TEST_F(InheritedLockTest, ToolRunsUnderTheInheritedLockWithoutWaiting) {
  Hold();
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma0");
  ScopedEnv pid("OTPU_LOCK_PID", self_.c_str());
  ScopedEnv wait("OTPU_LOCK_WAIT", "0");
  std::string result = InChild([&] {
    StatusOr<std::unique_ptr<DeviceLock>> lock = DeviceLock::ForTool("/dev/xdma0", tmp_.run_dir());
    if (!lock.ok()) return lock.status().message();
    return std::string((*lock)->inherited() ? "inherited " : "own ") +
           std::to_string((*lock)->holder_pid());
  });
  EXPECT_EQ(result, "inherited " + self_);
}

TEST_F(InheritedLockTest, UnsetVariablesInheritNothing) {
  Hold();
  ScopedEnv held("OTPU_LOCK_HELD", nullptr);
  EXPECT_EQ(CheckInChild(tmp_), "none");
}

TEST_F(InheritedLockTest, LockOfAnotherDeviceIsNotInherited) {
  Hold();
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma7");
  ScopedEnv pid("OTPU_LOCK_PID", self_.c_str());
  EXPECT_EQ(CheckInChild(tmp_), "none");
}

TEST_F(InheritedLockTest, HeldWithoutPidIsRejected) {
  Hold();
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma0");
  ScopedEnv pid("OTPU_LOCK_PID", nullptr);
  EXPECT_EQ(CheckInChild(tmp_), "error: OTPU_LOCK_HELD=/dev/xdma0 is set but OTPU_LOCK_PID is not");
}

TEST_F(InheritedLockTest, PidThatIsNotANumberIsRejected) {
  Hold();
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma0");
  ScopedEnv pid("OTPU_LOCK_PID", "12ab");
  EXPECT_EQ(CheckInChild(tmp_), "error: OTPU_LOCK_PID=12ab is not a pid");
}

TEST_F(InheritedLockTest, PidThatIsNotAnAncestorIsRejected) {
  Hold();
  TestProcess sibling({"sleep", "5"});
  const std::string other = std::to_string(sibling.pid());
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma0");
  ScopedEnv pid("OTPU_LOCK_PID", other.c_str());
  std::string result = CheckInChild(tmp_);
  EXPECT_NE(result.find("error: OTPU_LOCK_PID=" + other + " is not an ancestor of this process"),
            std::string::npos) << result;
}

TEST_F(InheritedLockTest, AncestorNotNamedInTheLockFileIsRejected) {
  Hold();  // the file names this test process, not its parent
  const std::string parent = std::to_string(::getppid());
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma0");
  ScopedEnv pid("OTPU_LOCK_PID", parent.c_str());
  EXPECT_EQ(CheckInChild(tmp_), "error: lock file " + tmp_.lock_path() + " names pid " + self_ +
                                    ", not OTPU_LOCK_PID=" + parent);
}

TEST_F(InheritedLockTest, LockThatIsNotHeldIsRejected) {
  Hold();
  lock_.reset();  // released; now leave our pid behind as a crashed holder would
  int fd = ::open(tmp_.lock_path().c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(WriteLockPid(fd, ::getpid(), tmp_.lock_path()).ok());
  ::close(fd);
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma0");
  ScopedEnv pid("OTPU_LOCK_PID", self_.c_str());
  EXPECT_EQ(CheckInChild(tmp_), "error: lock file " + tmp_.lock_path() +
                                    " is not locked, so OTPU_LOCK_PID=" + self_ + " does not hold it");
}

TEST_F(InheritedLockTest, RejectedVariablesAreIgnoredAndTheToolLocksItself) {
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma0");
  ScopedEnv pid("OTPU_LOCK_PID", self_.c_str());  // nobody holds the lock
  std::string result = InChild([&] {
    StatusOr<std::unique_ptr<DeviceLock>> lock = DeviceLock::ForTool("/dev/xdma0", tmp_.run_dir());
    if (!lock.ok()) return lock.status().message();
    return std::string((*lock)->inherited() ? "inherited" : "own");
  });
  EXPECT_EQ(result, "own");
}

}  // namespace
}  // namespace otpu::host
