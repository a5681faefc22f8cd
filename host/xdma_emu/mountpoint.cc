#include "host/xdma_emu/mountpoint.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "base/mountinfo.h"

namespace otpu::xdma_emu {

StatusOr<std::string> CheckMountpoint(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT) {
      return NotFound(path + ": mount point does not exist (create the directory)");
    }
    if (err == ENOTCONN) {
      return Unavailable(path + ": busy: a dead FUSE mount is still there (fusermount3 -u " +
                         path + ")");
    }
    return Internal(path + ": cannot check the mount point: " + std::strerror(err));
  }
  if (!S_ISDIR(st.st_mode)) return InvalidArgument(path + ": mount point is not a directory");
  char resolved[PATH_MAX];
  if (!::realpath(path.c_str(), resolved)) {
    return Internal(path + ": cannot resolve the mount point: " + std::strerror(errno));
  }
  const std::string abs = resolved;
  struct stat parent;
  const std::string parent_path = abs == "/" ? "/" : abs + "/..";
  if (::stat(parent_path.c_str(), &parent) != 0) {
    return Internal(path + ": cannot check the mount point's parent: " + std::strerror(errno));
  }
  const bool is_root = st.st_dev == parent.st_dev && st.st_ino == parent.st_ino;
  if (st.st_dev != parent.st_dev || is_root || IsMountPoint(abs)) {
    return Unavailable(path + ": busy: something is already mounted there (another "
                              "otpu-xdma-emu? unmount it with fusermount3 -u " + path + ")");
  }
  DIR* dir = ::opendir(abs.c_str());
  if (!dir) return Internal(path + ": cannot list the mount point: " + std::strerror(errno));
  bool empty = true;
  while (struct dirent* entry = ::readdir(dir)) {
    if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) {
      empty = false;
      break;
    }
  }
  ::closedir(dir);
  if (!empty) {
    return Unavailable(path + ": busy: the mount point is not empty (the mount would hide its "
                              "files; use an empty directory)");
  }
  return abs;
}

}  // namespace otpu::xdma_emu
