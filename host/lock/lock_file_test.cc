#include "host/lock/lock_file.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

#include "base/testing/temp_dir.h"

namespace otpu::host {
namespace {

using testutil::TempDir;

mode_t ModeOf(const std::string& path) {
  struct stat st;
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

void WriteFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Restores the umask a test changed.
class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : old_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(old_); }

 private:
  mode_t old_;
};

StatusOr<UniqueFd> OpenXdma0(const TempDir& tmp) {
  StatusOr<UniqueFd> dir = OpenRunDir(tmp.run_dir());
  if (!dir.ok()) return dir.status();
  return OpenLockFile(dir->get(), "xdma0.lock", tmp.lock_path(), LockFileAccess::kCreate);
}

TEST(LockFile, NameIsTheDeviceBasename) {
  EXPECT_EQ(*LockFileName("/dev/xdma0"), "xdma0.lock");
  EXPECT_EQ(*LockFileName("/dev/xdma1/"), "xdma1.lock");
  EXPECT_EQ(*LockFileName("xdma2"), "xdma2.lock");
}

TEST(LockFile, NameOfAPrefixWithoutBasenameIsRefused) {
  StatusOr<std::string> name = LockFileName("/");
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(name.status().message().find("'/'"), std::string::npos) << name.status().message();
  EXPECT_FALSE(LockFileName("").ok());
}

TEST(LockFile, RunDirIsCreatedSticky1777DespiteTheUmask) {
  TempDir tmp;
  ScopedUmask umask(077);
  ASSERT_TRUE(OpenRunDir(tmp.run_dir()).ok());
  EXPECT_EQ(ModeOf(tmp.run_dir()), 01777u);
}

TEST(LockFile, RunDirFromEnvDefaultsToTmpOtpu) {
  const char* saved = std::getenv("OTPU_RUN_DIR");
  std::string restore = saved ? saved : "";
  ::unsetenv("OTPU_RUN_DIR");
  EXPECT_EQ(RunDirFromEnv(), "/tmp/otpu");
  ::setenv("OTPU_RUN_DIR", "/tmp/elsewhere", 1);
  EXPECT_EQ(RunDirFromEnv(), "/tmp/elsewhere");
  if (saved) ::setenv("OTPU_RUN_DIR", restore.c_str(), 1); else ::unsetenv("OTPU_RUN_DIR");
}

TEST(LockFile, RunDirThatCannotBeCreatedIsNamed) {
  TempDir tmp;
  const std::string run_dir = tmp.path() + "/missing/run";
  StatusOr<UniqueFd> dir = OpenRunDir(run_dir);
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.status().message(), "cannot create run dir " + run_dir +
                                        ": No such file or directory (set OTPU_RUN_DIR to a writable directory)");
}

TEST(LockFile, SymlinkedRunDirIsRefused) {
  TempDir tmp;
  ASSERT_EQ(::mkdir((tmp.path() + "/real").c_str(), 01777), 0);
  ASSERT_EQ(::symlink((tmp.path() + "/real").c_str(), tmp.run_dir().c_str()), 0);
  StatusOr<UniqueFd> dir = OpenRunDir(tmp.run_dir());
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(dir.status().message().find("run dir " + tmp.run_dir() + " is a symlink"),
            std::string::npos) << dir.status().message();
}

TEST(LockFile, RunDirThatIsAFileIsRefused) {
  TempDir tmp;
  WriteFile(tmp.run_dir(), "x");
  StatusOr<UniqueFd> dir = OpenRunDir(tmp.run_dir());
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find(tmp.run_dir() + " is not a directory"), std::string::npos)
      << dir.status().message();
}

TEST(LockFile, WorldWritableRunDirWithoutStickyBitIsRefused) {
  TempDir tmp;
  ASSERT_EQ(::mkdir(tmp.run_dir().c_str(), 0700), 0);
  ASSERT_EQ(::chmod(tmp.run_dir().c_str(), 0777), 0);
  StatusOr<UniqueFd> dir = OpenRunDir(tmp.run_dir());
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("writable by others but not sticky (mode 0777)"),
            std::string::npos) << dir.status().message();
}

TEST(LockFile, ForeignRunDirWithoutStickyBitIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give the directory to another user";
  TempDir tmp;
  ASSERT_EQ(::mkdir(tmp.run_dir().c_str(), 0755), 0);
  ASSERT_EQ(::chown(tmp.run_dir().c_str(), 65534, 65534), 0);
  StatusOr<UniqueFd> dir = OpenRunDir(tmp.run_dir());
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("belongs to uid 65534 and is not sticky"), std::string::npos)
      << dir.status().message();
}

TEST(LockFile, ForeignStickyRunDirIsShared) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give the directory to another user";
  TempDir tmp;
  ASSERT_EQ(::mkdir(tmp.run_dir().c_str(), 0700), 0);
  ASSERT_EQ(::chmod(tmp.run_dir().c_str(), 01777), 0);
  ASSERT_EQ(::chown(tmp.run_dir().c_str(), 65534, 65534), 0);
  EXPECT_TRUE(OpenRunDir(tmp.run_dir()).ok());
}

TEST(LockFile, LockFileIsCreatedWritableByEveryUser) {
  TempDir tmp;
  ScopedUmask umask(022);
  ASSERT_TRUE(OpenXdma0(tmp).ok());
  EXPECT_EQ(ModeOf(tmp.lock_path()), 0666u);
}

TEST(LockFile, SymlinkedLockFileIsRefusedAndItsTargetUntouched) {
  TempDir tmp;
  ASSERT_TRUE(OpenRunDir(tmp.run_dir()).ok());
  const std::string target = tmp.path() + "/victim";
  WriteFile(target, "precious");
  ASSERT_EQ(::symlink(target.c_str(), tmp.lock_path().c_str()), 0);
  StatusOr<UniqueFd> fd = OpenXdma0(tmp);
  ASSERT_FALSE(fd.ok());
  EXPECT_EQ(fd.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(fd.status().message().find("lock file " + tmp.lock_path() + " is a symlink"),
            std::string::npos) << fd.status().message();
  EXPECT_EQ(ReadFile(target), "precious");
}

TEST(LockFile, LockFileWithTwoLinksIsRefused) {
  TempDir tmp;
  ASSERT_TRUE(OpenRunDir(tmp.run_dir()).ok());
  WriteFile(tmp.lock_path(), "");
  ASSERT_EQ(::link(tmp.lock_path().c_str(), (tmp.path() + "/other").c_str()), 0);
  StatusOr<UniqueFd> fd = OpenXdma0(tmp);
  ASSERT_FALSE(fd.ok());
  EXPECT_EQ(fd.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(fd.status().message().find(tmp.lock_path() + " has 2 links"), std::string::npos)
      << fd.status().message();
}

TEST(LockFile, LockFileThatIsAFifoIsRefused) {
  TempDir tmp;
  ASSERT_TRUE(OpenRunDir(tmp.run_dir()).ok());
  ASSERT_EQ(::mkfifo(tmp.lock_path().c_str(), 0666), 0);
  StatusOr<UniqueFd> fd = OpenXdma0(tmp);
  ASSERT_FALSE(fd.ok());
  EXPECT_NE(fd.status().message().find(tmp.lock_path() + " is not a regular file"),
            std::string::npos) << fd.status().message();
}

TEST(LockFile, LockFileWeCannotWriteIsNamedWithOurUid) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to switch to another user";
  TempDir tmp;
  ASSERT_EQ(::chmod(tmp.path().c_str(), 0755), 0);
  ASSERT_TRUE(OpenRunDir(tmp.run_dir()).ok());
  WriteFile(tmp.lock_path(), "");  // root's file, mode 0644 under the usual umask
  ASSERT_EQ(::chmod(tmp.lock_path().c_str(), 0644), 0);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  pid_t child = ::fork();
  if (child == 0) {
    std::string message = "setuid failed";
    if (::setgid(65534) == 0 && ::setuid(65534) == 0) {
      StatusOr<UniqueFd> fd = OpenXdma0(tmp);
      message = fd.ok() ? "opened" : fd.status().message();
    }
    (void)!::write(pipe_fds[1], message.data(), message.size());
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  char buf[512];
  ssize_t n = ::read(pipe_fds[0], buf, sizeof(buf));
  ::close(pipe_fds[0]);
  ::waitpid(child, nullptr, 0);
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buf, n), "cannot open lock file " + tmp.lock_path() +
                                     " for writing as uid 65534: Permission denied"
                                     " (its owner can chmod 0666 it, or set OTPU_RUN_DIR)");
}

TEST(LockFile, MissingLockFileIsNotFoundWhenOpenedReadOnly) {
  TempDir tmp;
  StatusOr<UniqueFd> dir = OpenRunDir(tmp.run_dir());
  ASSERT_TRUE(dir.ok());
  StatusOr<UniqueFd> fd =
      OpenLockFile(dir->get(), "xdma0.lock", tmp.lock_path(), LockFileAccess::kReadOnly);
  ASSERT_FALSE(fd.ok());
  EXPECT_EQ(fd.status().code(), StatusCode::kNotFound);
  EXPECT_NE(fd.status().message().find(tmp.lock_path() + " does not exist"), std::string::npos);
}

TEST(LockFile, PidIsWrittenReadAndCleared) {
  TempDir tmp;
  StatusOr<UniqueFd> fd = OpenXdma0(tmp);
  ASSERT_TRUE(fd.ok());
  ASSERT_TRUE(WriteLockPid(fd->get(), 123456, tmp.lock_path()).ok());
  ASSERT_TRUE(WriteLockPid(fd->get(), 42, tmp.lock_path()).ok());  // shorter: no leftover digits
  EXPECT_EQ(ReadFile(tmp.lock_path()), "42\n");
  EXPECT_EQ(ReadLockPid(fd->get()), 42);
  ASSERT_TRUE(ClearLockPid(fd->get(), tmp.lock_path()).ok());
  EXPECT_EQ(ReadLockPid(fd->get()), std::nullopt);
}

}  // namespace
}  // namespace otpu::host
