// /proc/self/mountinfo (proc(5)): which paths are mount points. The kernel writes space, tab,
// newline and backslash in paths as octal escapes ("\040"), so fields are split on spaces and
// then unescaped before any comparison.
#ifndef OTPU_BASE_MOUNTINFO_H_
#define OTPU_BASE_MOUNTINFO_H_

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace otpu {

// One line of mountinfo, paths unescaped.
struct MountEntry {
  int id = 0;               // mount id
  int parent_id = 0;        // the mount it sits on
  std::string root;         // the path inside the filesystem that is mounted
  std::string mount_point;  // where, as an absolute path
  std::string fs_type;      // after the " - " separator, e.g. "fuse" or "ext4"
  std::string source;       // e.g. "/dev/sda1" or the FUSE program's name
};

// `field` with the kernel's octal escapes (\040 space, \011 tab, \012 newline, \134 backslash)
// undone; other text is kept as it is.
std::string UnescapeMountField(std::string_view field);

// The entries of mountinfo `text`; lines that do not parse are skipped.
std::vector<MountEntry> ParseMountInfo(std::string_view text);

// The entries of `path` (the process's own table by default). Internal naming the file when it
// cannot be read.
StatusOr<std::vector<MountEntry>> ReadMountInfo(const std::string& path = "/proc/self/mountinfo");

// True when something is mounted on `path` (compared exactly, so pass an absolute path
// without symlinks or a trailing '/'); false too when the table cannot be read.
bool IsMountPoint(const std::string& path);

}  // namespace otpu

#endif  // OTPU_BASE_MOUNTINFO_H_
