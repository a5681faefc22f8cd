// /proc/PID/stat (proc(5)): one process's fields, by the number proc(5) gives them (1 pid,
// 2 comm, 3 state, 4 ppid, ... 22 starttime). The command name may hold spaces and
// parentheses, so the fields after it are split after its last ')'.
#ifndef OTPU_BASE_PROC_STAT_H_
#define OTPU_BASE_PROC_STAT_H_

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

namespace otpu {

// Field `n` (3 or later) of a stat line; nullopt when the line has no such field.
std::optional<std::string> ProcStatFieldIn(std::string_view stat, int n);

// Field `n` (3 or later) of /proc/`pid`/stat; nullopt when the process is gone.
std::optional<std::string> ProcStatField(pid_t pid, int n);

}  // namespace otpu

#endif  // OTPU_BASE_PROC_STAT_H_
