// Runs otpu-lock's command (and prebuild programs) as a child process: PATH search and exit
// codes like a shell, every catchable signal forwarded, no signal lost between fork and exec.
#ifndef OTPU_HOST_LOCK_COMMAND_RUNNER_H_
#define OTPU_HOST_LOCK_COMMAND_RUNNER_H_

#include <string>
#include <vector>

#include "base/status.h"

namespace otpu::host {

// How RunCommand starts and watches the child.
struct CommandOptions {
  // Put the child in a process group of its own and forward signals to that group. Wanted
  // when we are not in the terminal's foreground, where nobody else signals the child.
  bool own_process_group = false;
  // Forward every signal this process can catch to the child, except CHLD and the fault
  // signals (SEGV, BUS, FPE, ILL, TRAP, SYS); ignored ones stay ignored. TSTP, TTIN and TTOU
  // also stop this process, so a shell sees the job stopped.
  bool forward_signals = false;
  // Niceness the child adds before exec (19 for prebuilds).
  int nice = 0;
  // Test seam: the child sleeps this long between fork and exec (signals still blocked), so a
  // test can signal us inside that window.
  int exec_delay_ms = 0;
};

// Runs argv[0] (searched in PATH when it has no '/') with the rest as its arguments, waits
// for it and returns its exit code, or 128 + signal when a signal killed it. Signals that
// arrive before the child has exec'd are held and forwarded once it has. The child gets
// SIGTERM should this thread die first (a command must not run on after its lock is gone).
// NotFound when the command does not exist, InvalidArgument when it cannot be executed,
// Internal when no process could be started; each names the command.
StatusOr<int> RunCommand(const std::vector<std::string>& argv, const CommandOptions& options);

// The exit code a shell gives a command RunCommand could not start: 127 for NotFound, 126
// for InvalidArgument, 1 otherwise.
int ExitCodeForStartFailure(const Status& status);

// True when standard input is a terminal whose foreground process group is ours.
bool InForeground();

}  // namespace otpu::host

#endif  // OTPU_HOST_LOCK_COMMAND_RUNNER_H_
