// One owner per out dir: `otpu-regress run` and `merge` hold an exclusive lock on
// OUT/.otpu-regress.lock for as long as they write there, so two runs started into one
// directory cannot mix their selections and results (the second is refused, naming the
// holder's pid). The kernel drops the lock when its holder dies, however it dies.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_OUT_DIR_LOCK_H_
#define OTPU_HOST_PROGRAMS_REGRESS_OUT_DIR_LOCK_H_

#include <string>

#include "base/status.h"
#include "base/unique_fd.h"

namespace otpu::regress {

// The lock file's name inside the out dir.
inline constexpr char kOutDirLockName[] = ".otpu-regress.lock";

class OutDirLock {
 public:
  // Creates `dir` when missing and takes its lock without waiting. Unavailable naming the
  // directory and the holder's pid when another process holds it; Internal for I/O errors.
  static StatusOr<OutDirLock> Acquire(const std::string& dir, const std::string& holder);

 private:
  explicit OutDirLock(UniqueFd fd) : fd_(std::move(fd)) {}
  UniqueFd fd_;  // open with the lock held; closing it releases the lock
};

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_OUT_DIR_LOCK_H_
