// OTPU_LOCK_FDS/OTPU_LOCK_HELD/OTPU_LOCK_PID checks. Each runs in a forked child of this test
// process, which holds the lock itself and so passes its descriptor down.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>

#include <gtest/gtest.h>

#include "host/lock/device_lock.h"
#include "base/testing/subprocess.h"
#include "base/testing/temp_dir.h"

namespace otpu::host {
namespace {

using testutil::ScopedEnv;
using testutil::TempDir;
using testutil::TestProcess;

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

  // OTPU_LOCK_FDS naming the held lock's descriptor (a forked child has it too).
  std::string Fds() const { return "xdma0.lock=" + std::to_string(lock_->descriptor()); }

  TempDir tmp_;
  std::unique_ptr<DeviceLock> lock_;
  const std::string self_ = std::to_string(::getpid());
};

TEST_F(InheritedLockTest, InheritedDescriptorHoldingTheLockIsAccepted) {
  Hold();
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma0");
  ScopedEnv pid("OTPU_LOCK_PID", self_.c_str());
  ScopedEnv fds("OTPU_LOCK_FDS", Fds().c_str());
  EXPECT_EQ(CheckInChild(tmp_), "pid " + self_);
}

TEST_F(InheritedLockTest, ToolRunsUnderTheInheritedLockWithoutWaiting) {
  Hold();
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma0");
  ScopedEnv pid("OTPU_LOCK_PID", self_.c_str());
  ScopedEnv fds("OTPU_LOCK_FDS", Fds().c_str());
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
  ScopedEnv fds("OTPU_LOCK_FDS", nullptr);
  EXPECT_EQ(CheckInChild(tmp_), "none");
}

TEST_F(InheritedLockTest, LockOfAnotherDeviceIsNotInherited) {
  Hold();
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma7");
  ScopedEnv pid("OTPU_LOCK_PID", self_.c_str());
  ScopedEnv fds("OTPU_LOCK_FDS", "xdma7.lock=0");
  EXPECT_EQ(CheckInChild(tmp_), "none");
}

// xdma0 -> xdma1 -> xdma0: the variables name xdma1, the descriptor list both.
TEST_F(InheritedLockTest, OuterLockOfAChainIsFoundByItsDescriptor) {
  Hold();
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma1");
  ScopedEnv pid("OTPU_LOCK_PID", "1");
  const std::string chain = Fds() + ":xdma1.lock=0";
  ScopedEnv fds("OTPU_LOCK_FDS", chain.c_str());
  EXPECT_EQ(CheckInChild(tmp_), "pid " + self_);  // from the lock file
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

// A tool whose descriptors were closed (Python's subprocess) still proves the lock: its
// ancestor named by OTPU_LOCK_PID holds it on the lock file, as /proc/locks shows. (This
// replaces a test that required the descriptor: the seed wants such tools to run under it.)
TEST_F(InheritedLockTest, AncestorHoldingTheLockIsAcceptedWithoutTheDescriptor) {
  Hold();
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma0");
  ScopedEnv pid("OTPU_LOCK_PID", self_.c_str());
  ScopedEnv fds("OTPU_LOCK_FDS", nullptr);
  EXPECT_EQ(CheckInChild(tmp_), "pid " + self_);
}

TEST_F(InheritedLockTest, AncestorThatDoesNotHoldTheLockIsRejected) {
  ScopedEnv held("OTPU_LOCK_HELD", "/dev/xdma0");
  ScopedEnv pid("OTPU_LOCK_PID", self_.c_str());
  ScopedEnv fds("OTPU_LOCK_FDS", nullptr);
  TestProcess other({"sh", "-c", "sleep 5"});  // not the holder: nobody holds the lock
  StatusOr<UniqueFd> dir = OpenRunDir(tmp_.run_dir());
  ASSERT_TRUE(dir.ok());
  StatusOr<UniqueFd> file = OpenLockFile(dir->get(), "xdma0.lock", tmp_.lock_path(), LockFileAccess::kCreate);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(CheckInChild(tmp_), "error: OTPU_LOCK_HELD=/dev/xdma0 is set but no inherited "
                                "descriptor holds " + tmp_.lock_path() +
                                    " (OTPU_LOCK_FDS does not name it); and OTPU_LOCK_PID=" +
                                    self_ + " holds no lock on " + tmp_.lock_path() +
                                    " (/proc/locks)");
}

TEST_F(InheritedLockTest, DescriptorThatDoesNotHoldTheLockIsRejected) {
  Hold();
  // No OTPU_LOCK_PID: an ancestor holding the lock would be a proof of its own.
  ScopedEnv held("OTPU_LOCK_HELD", nullptr);
  ScopedEnv pid("OTPU_LOCK_PID", nullptr);
  std::string result = InChild([&] {
    int fd = ::open(tmp_.lock_path().c_str(), O_RDONLY);  // a new open file description
    const std::string fds = "xdma0.lock=" + std::to_string(fd);
    ::setenv("OTPU_LOCK_FDS", fds.c_str(), 1);
    StatusOr<std::optional<pid_t>> checked = CheckInheritedLock("/dev/xdma0", tmp_.run_dir());
    return checked.ok() ? std::string("accepted") : checked.status().message();
  });
  EXPECT_NE(result.find(": another process holds the lock on " + tmp_.lock_path()),
            std::string::npos) << result;
}

TEST_F(InheritedLockTest, DescriptorOfAnotherFileIsRejected) {
  Hold();
  // No OTPU_LOCK_PID: an ancestor holding the lock would be a proof of its own.
  ScopedEnv held("OTPU_LOCK_HELD", nullptr);
  ScopedEnv pid("OTPU_LOCK_PID", nullptr);
  ScopedEnv fds("OTPU_LOCK_FDS", "xdma0.lock=0");
  EXPECT_EQ(CheckInChild(tmp_), "error: OTPU_LOCK_FDS xdma0.lock=0: descriptor is not the lock file " +
                                    tmp_.lock_path());
}

TEST_F(InheritedLockTest, DescriptorThatIsNotOpenIsRejected) {
  Hold();
  ScopedEnv fds("OTPU_LOCK_FDS", "xdma0.lock=999");
  EXPECT_EQ(CheckInChild(tmp_), "error: OTPU_LOCK_FDS xdma0.lock=999: descriptor is not open");
}

TEST_F(InheritedLockTest, RejectedVariablesAreIgnoredAndTheToolLocksItself) {
  ScopedEnv fds("OTPU_LOCK_FDS", nullptr);
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
