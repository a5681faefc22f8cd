// Test helper: a fresh directory per test (the OTPU_RUN_DIR parent), removed afterwards.
#ifndef OTPU_BASE_TESTING_TEMP_DIR_H_
#define OTPU_BASE_TESTING_TEMP_DIR_H_

#include <cstdlib>
#include <filesystem>
#include <string>

namespace otpu::testutil {

// Creates /tmp/otpu_lock_test.XXXXXX; `run_dir()` is a not yet existing directory inside it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = "/tmp/otpu_lock_test.XXXXXX";
    if (!::mkdtemp(pattern.data())) std::abort();
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // The temporary directory.
  const std::string& path() const { return path_; }
  // A run directory for the lock under test (created by the code under test).
  std::string run_dir() const { return path_ + "/run"; }
  // The lock file of /dev/xdma0 in run_dir().
  std::string lock_path() const { return run_dir() + "/xdma0.lock"; }

 private:
  std::string path_;
};

}  // namespace otpu::testutil

#endif  // OTPU_BASE_TESTING_TEMP_DIR_H_
