// UniqueFd: owns one file descriptor and closes it once.
#ifndef OTPU_BASE_UNIQUE_FD_H_
#define OTPU_BASE_UNIQUE_FD_H_

#include <unistd.h>

#include <utility>

namespace otpu {

// Move-only owner of a file descriptor (-1 when empty); closes it on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) Reset(std::exchange(other.fd_, -1));
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { Reset(); }

  // The descriptor, still owned by this object.
  int get() const { return fd_; }
  // True when a descriptor is held.
  bool valid() const { return fd_ >= 0; }
  // Closes the held descriptor (if any) and takes ownership of `fd`.
  void Reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

}  // namespace otpu

#endif  // OTPU_BASE_UNIQUE_FD_H_
