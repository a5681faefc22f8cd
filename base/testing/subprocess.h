// Test helper over base/subprocess.h: starts real processes (otpu-lock, sh) with a chosen
// environment, captures their output and exit status with deadlines, so tests never hang.
#ifndef OTPU_BASE_TESTING_SUBPROCESS_H_
#define OTPU_BASE_TESTING_SUBPROCESS_H_

#include <sys/types.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/subprocess.h"

namespace otpu::testutil {

// How a finished process ended and what it printed.
struct ProcessResult {
  bool exited = false;    // ended through exit(); exit_code is valid
  int exit_code = -1;
  int signal = 0;         // the signal that killed it, when !exited
  bool timed_out = false; // killed by the helper after the deadline
  std::string out;        // stdout
  std::string err;        // stderr
  double seconds = 0;     // wall time from start to exit
};

// A running child (base/subprocess.h) with stdin from /dev/null and stdout/stderr captured.
class TestProcess {
 public:
  // Starts argv[0] (PATH searched). `env` entries "NAME=VALUE" are set and "-NAME" unset, on
  // top of ours minus OTPU_LOCK_HELD/PID/WAIT and OTPU_PREBUILD. Aborts when it cannot start.
  TestProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env = {});
  ~TestProcess();  // kills the process if it still runs
  TestProcess(const TestProcess&) = delete;
  TestProcess& operator=(const TestProcess&) = delete;

  // The child's pid.
  pid_t pid() const { return process_->pid(); }
  // Waits up to `timeout_s` for a full stdout line; returns it without "\n", or "" on timeout.
  std::string ReadLine(double timeout_s) { return process_->ReadLine(timeout_s); }
  // Waits up to `timeout_s` for the process to exit (then SIGKILLs it) and collects the output.
  ProcessResult Wait(double timeout_s);

 private:
  std::unique_ptr<Subprocess> process_;
};

// `result` in the shape the tests check (exit_code -1 when a signal ended the process).
ProcessResult ToProcessResult(const SubprocessResult& result);

// Sets (or, for nullptr, unsets) an environment variable of this process for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value, 1); else ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1); else ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// Starts a process and waits for it (see TestProcess).
ProcessResult RunProcess(const std::vector<std::string>& argv,
                         const std::vector<std::string>& env = {}, double timeout_s = 5);

// Seconds on a monotonic clock.
double NowSeconds();

// True while `pid` has `sig` in its blocked signal mask (/proc/<pid>/status SigBlk).
bool HasSignalBlocked(pid_t pid, int sig);

// Number of lines in `text` (a final line without "\n" counts).
int CountLines(const std::string& text);

}  // namespace otpu::testutil

#endif  // OTPU_BASE_TESTING_SUBPROCESS_H_
