// What /proc says about other processes: parent pids and command lines (Linux only).
#ifndef OTPU_HOST_LOCK_PROC_INFO_H_
#define OTPU_HOST_LOCK_PROC_INFO_H_

#include <sys/types.h>

#include <optional>
#include <string>

namespace otpu::host {

// The parent pid of `pid` from /proc/<pid>/stat; nullopt when the process is gone.
std::optional<pid_t> ParentPid(pid_t pid);

// True when `ancestor` is the parent, grandparent, ... of `pid` (never `pid` itself).
bool IsAncestor(pid_t ancestor, pid_t pid);

// The command line of `pid` from /proc/<pid>/cmdline, arguments joined by spaces and cut to
// about `max_chars`; "unknown command line" when it cannot be read.
std::string CommandLine(pid_t pid, size_t max_chars = 160);

// Parses a whole decimal pid (> 0); nullopt for anything else ("", "12x", "0", "-3").
std::optional<pid_t> ParsePid(const std::string& text);

}  // namespace otpu::host

#endif  // OTPU_HOST_LOCK_PROC_INFO_H_
