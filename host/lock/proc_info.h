// What /proc says about other processes: parent pids and command lines (Linux only).
#ifndef OTPU_HOST_LOCK_PROC_INFO_H_
#define OTPU_HOST_LOCK_PROC_INFO_H_

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace otpu::host {

// The parent pid of `pid` from /proc/<pid>/stat; nullopt when the process is gone.
std::optional<pid_t> ParentPid(pid_t pid);

// True when `ancestor` is the parent, grandparent, ... of `pid` (never `pid` itself).
bool IsAncestor(pid_t ancestor, pid_t pid);

// The command line of `pid` from /proc/<pid>/cmdline, arguments joined by spaces and cut to
// about `max_chars`; "unknown command line" when it cannot be read.
std::string CommandLine(pid_t pid, size_t max_chars = 160);

// The pids /proc/locks names as holding an exclusive flock on inode `ino` of device `dev`
// (waiters excluded). For a descriptor passed down to children, the pid is the process that
// took the lock. Empty when /proc/locks cannot be read.
std::vector<pid_t> FlockHolders(dev_t dev, ino_t ino);

// The same from the text of /proc/locks (for tests).
std::vector<pid_t> FlockHoldersIn(const std::string& proc_locks, dev_t dev, ino_t ino);

// Parses a whole decimal pid (> 0); nullopt for anything else ("", "12x", "0", "-3").
std::optional<pid_t> ParsePid(const std::string& text);

}  // namespace otpu::host

#endif  // OTPU_HOST_LOCK_PROC_INFO_H_
