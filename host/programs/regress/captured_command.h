// Runs a short-lived tool (sbatch, squeue, otpu-regress list) to completion and keeps what it
// printed, so a failure can name the command and quote its stderr.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_CAPTURED_COMMAND_H_
#define OTPU_HOST_PROGRAMS_REGRESS_CAPTURED_COMMAND_H_

#include <string>
#include <vector>

#include "base/status.h"

namespace otpu::regress {

// How a finished command ended and what it printed.
struct CapturedResult {
  int exit_code = -1;  // the exit status, or 128 + signal when a signal killed it
  std::string out;     // everything written to stdout
  std::string err;     // everything written to stderr
};

// Runs argv[0] (searched in PATH when it has no '/') with stdin from /dev/null and waits for
// it, reading its stdout and stderr as they come (base/subprocess.h), so a chatty child never
// blocks on a full pipe. NotFound when the program does not exist, Internal when it could not
// be started; both name the program. A non-zero exit is not an error here: callers judge
// exit_code.
StatusOr<CapturedResult> RunCaptured(const std::vector<std::string>& argv);

// `argv` as one shell-like line for messages: words with spaces or quotes are single-quoted.
std::string CommandLine(const std::vector<std::string>& argv);

// `text` quoted for a POSIX shell: 'text', with embedded ' written as '\''.
std::string ShellQuote(const std::string& text);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_CAPTURED_COMMAND_H_
