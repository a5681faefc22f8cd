#include "host/lock/device_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "base/testing/subprocess.h"
#include "base/testing/temp_dir.h"

namespace otpu::host {
namespace {

using testutil::NowSeconds;
using testutil::ScopedEnv;
using testutil::TempDir;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(DeviceLock, AcquireWritesOurPidIntoTheLockFile) {
  TempDir tmp;
  StatusOr<std::unique_ptr<DeviceLock>> lock = DeviceLock::Acquire("/dev/xdma0", 0, tmp.run_dir());
  ASSERT_TRUE(lock.ok()) << lock.status().message();
  EXPECT_EQ((*lock)->path(), tmp.lock_path());
  EXPECT_EQ((*lock)->holder_pid(), ::getpid());
  EXPECT_FALSE((*lock)->inherited());
  EXPECT_EQ(ReadFile(tmp.lock_path()), std::to_string(::getpid()) + "\n");
}

TEST(DeviceLock, ReleaseEmptiesTheFileAndFreesTheDevice) {
  TempDir tmp;
  {
    StatusOr<std::unique_ptr<DeviceLock>> lock = DeviceLock::Acquire("/dev/xdma0", 0, tmp.run_dir());
    ASSERT_TRUE(lock.ok());
  }
  EXPECT_EQ(ReadFile(tmp.lock_path()), "");
  EXPECT_TRUE(DeviceLock::Acquire("/dev/xdma0", 0, tmp.run_dir()).ok());
}

TEST(DeviceLock, BusyDeviceNamesTheHolderAndHowToWait) {
  TempDir tmp;
  StatusOr<std::unique_ptr<DeviceLock>> held = DeviceLock::Acquire("/dev/xdma0", 0, tmp.run_dir());
  ASSERT_TRUE(held.ok());
  // Another open file description conflicts with ours even inside this process.
  StatusOr<std::unique_ptr<DeviceLock>> busy = DeviceLock::Acquire("/dev/xdma0", 0, tmp.run_dir());
  ASSERT_FALSE(busy.ok());
  EXPECT_EQ(busy.status().code(), StatusCode::kUnavailable);
  const std::string& message = busy.status().message();
  EXPECT_NE(message.find("/dev/xdma0 is busy: held by pid " + std::to_string(::getpid())),
            std::string::npos) << message;
  EXPECT_NE(message.find("lock_test"), std::string::npos) << message;  // our command line
  EXPECT_NE(message.find(tmp.lock_path()), std::string::npos) << message;
  EXPECT_NE(message.find("set OTPU_LOCK_WAIT=SEC or use otpu-lock --wait SEC"), std::string::npos)
      << message;
}

TEST(DeviceLock, OtherDevicesAreNotBusy) {
  TempDir tmp;
  StatusOr<std::unique_ptr<DeviceLock>> held = DeviceLock::Acquire("/dev/xdma0", 0, tmp.run_dir());
  ASSERT_TRUE(held.ok());
  EXPECT_TRUE(DeviceLock::Acquire("/dev/xdma1", 0, tmp.run_dir()).ok());
}

TEST(DeviceLock, HolderWithoutPidIsReportedAsSuch) {
  TempDir tmp;
  { ASSERT_TRUE(DeviceLock::Acquire("/dev/xdma0", 0, tmp.run_dir()).ok()); }
  int fd = ::open(tmp.lock_path().c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);  // locked, but the file is empty
  StatusOr<std::unique_ptr<DeviceLock>> busy = DeviceLock::Acquire("/dev/xdma0", 0, tmp.run_dir());
  ::close(fd);
  ASSERT_FALSE(busy.ok());
  EXPECT_NE(busy.status().message().find("held by a process that has not written its pid yet"),
            std::string::npos) << busy.status().message();
}

TEST(DeviceLock, WaitGivesUpAtTheDeadline) {
  TempDir tmp;
  StatusOr<std::unique_ptr<DeviceLock>> held = DeviceLock::Acquire("/dev/xdma0", 0, tmp.run_dir());
  ASSERT_TRUE(held.ok());
  const double start = NowSeconds();
  StatusOr<std::unique_ptr<DeviceLock>> busy = DeviceLock::Acquire("/dev/xdma0", 0.3, tmp.run_dir());
  const double waited = NowSeconds() - start;
  ASSERT_FALSE(busy.ok());
  EXPECT_GE(waited, 0.3);
  EXPECT_LT(waited, 1.0);
  EXPECT_NE(busy.status().message().find("/dev/xdma0 is still busy after 0.3 s"), std::string::npos)
      << busy.status().message();
}

TEST(DeviceLock, WaitTakesTheLockWhenTheHolderExits) {
  TempDir tmp;
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t holder = ::fork();
  ASSERT_GE(holder, 0);
  if (holder == 0) {
    StatusOr<std::unique_ptr<DeviceLock>> lock = DeviceLock::Acquire("/dev/xdma0", 0, tmp.run_dir());
    char ok = lock.ok() ? 'y' : 'n';
    (void)!::write(ready[1], &ok, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::_exit(0);  // the kernel drops the flock with the process
  }
  ::close(ready[1]);
  char ok = 0;
  ASSERT_EQ(::read(ready[0], &ok, 1), 1);
  ::close(ready[0]);
  ASSERT_EQ(ok, 'y');
  const double start = NowSeconds();
  StatusOr<std::unique_ptr<DeviceLock>> lock = DeviceLock::Acquire("/dev/xdma0", 5, tmp.run_dir());
  const double waited = NowSeconds() - start;
  ::waitpid(holder, nullptr, 0);
  ASSERT_TRUE(lock.ok()) << lock.status().message();
  EXPECT_GT(waited, 0.1);
  EXPECT_LT(waited, 1.5);
  EXPECT_EQ(ReadFile(tmp.lock_path()), std::to_string(::getpid()) + "\n");
}

TEST(DeviceLock, LockWaitComesFromTheEnvironment) {
  {
    ScopedEnv env("OTPU_LOCK_WAIT", nullptr);
    EXPECT_EQ(*LockWaitFromEnv(), 0.0);
  }
  ScopedEnv env("OTPU_LOCK_WAIT", "2.5");
  EXPECT_EQ(*LockWaitFromEnv(), 2.5);
}

TEST(DeviceLock, BadLockWaitIsRefusedByName) {
  for (const char* bad : {"abc", "-1", "5s", "inf"}) {
    ScopedEnv env("OTPU_LOCK_WAIT", bad);
    StatusOr<double> wait = LockWaitFromEnv();
    ASSERT_FALSE(wait.ok()) << bad;
    EXPECT_EQ(wait.status().message(),
              "OTPU_LOCK_WAIT '" + std::string(bad) + "' is not a number of seconds (0 or more)");
  }
}

TEST(DeviceLock, ForToolWaitsAsLongAsOtpuLockWaitSays) {
  TempDir tmp;
  ScopedEnv held_var("OTPU_LOCK_HELD", nullptr);
  ScopedEnv wait_var("OTPU_LOCK_WAIT", "0.2");
  StatusOr<std::unique_ptr<DeviceLock>> held = DeviceLock::Acquire("/dev/xdma0", 0, tmp.run_dir());
  ASSERT_TRUE(held.ok());
  const double start = NowSeconds();
  StatusOr<std::unique_ptr<DeviceLock>> busy = DeviceLock::ForTool("/dev/xdma0", tmp.run_dir());
  EXPECT_GE(NowSeconds() - start, 0.2);
  ASSERT_FALSE(busy.ok());
  EXPECT_NE(busy.status().message().find("still busy after 0.2 s"), std::string::npos)
      << busy.status().message();
}

TEST(DeviceLock, ForToolTakesAFreeDevice) {
  TempDir tmp;
  ScopedEnv held_var("OTPU_LOCK_HELD", nullptr);
  StatusOr<std::unique_ptr<DeviceLock>> lock = DeviceLock::ForTool("/dev/xdma0", tmp.run_dir());
  ASSERT_TRUE(lock.ok()) << lock.status().message();
  EXPECT_FALSE((*lock)->inherited());
}

}  // namespace
}  // namespace otpu::host
