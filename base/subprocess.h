// Starting child processes: argv, environment, cwd, the descriptors the child keeps, its process
// group, stdout/stderr captured up to a byte cap, a deadline (TERM, then KILL), exit codes as a
// shell reports them. Our own small class, not Boost.Process (1.74 here): that cannot close all
// but chosen descriptors, hold signals blocked until exec, or bound captured output.
#ifndef OTPU_BASE_SUBPROCESS_H_
#define OTPU_BASE_SUBPROCESS_H_

#include <signal.h>
#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace otpu {

// Where one of the child's standard streams goes.
struct Stream {
  enum class Kind { kInherit, kNull, kCapture, kFd, kFile };
  Kind kind = Kind::kInherit;
  int fd = -1;       // kFd: our descriptor, duplicated into the child (we keep ours)
  std::string path;  // kFile: created or truncated (mode 0644)

  // The stream stays ours (the child shares our terminal or file).
  static Stream Inherit() { return {}; }
  // /dev/null.
  static Stream Null() { return {Kind::kNull, -1, {}}; }
  // A pipe we read into SubprocessResult::out/err (up to capture_limit bytes).
  static Stream Capture() { return {Kind::kCapture, -1, {}}; }
  // Our descriptor `fd`.
  static Stream Fd(int fd) { return {Kind::kFd, fd, {}}; }
  // The file `path`, truncated.
  static Stream File(std::string path) { return {Kind::kFile, -1, std::move(path)}; }
};

// What to start and how.
struct SubprocessOptions {
  std::vector<std::string> argv;  // argv[0] is searched in PATH when it has no '/'
  bool clear_env = false;         // start from an empty environment instead of ours
  std::vector<std::string> env;   // applied in order: "NAME=VALUE" sets, "-NAME" unsets
  std::string cwd;                // the child's working directory; empty: ours
  Stream in = Stream::Null();
  Stream out = Stream::Inherit();
  Stream err = Stream::Inherit();
  bool err_to_out = false;              // stderr goes where stdout goes (`err` is ignored)
  size_t capture_limit = 16 << 20;      // bytes kept per captured stream; the rest is dropped
  std::vector<std::pair<int, int>> fds; // {our fd, child fd}: extra descriptors the child gets
  // Keep every descriptor without close-on-exec, as a shell does (otpu-lock's lock and a make
  // jobserver pass through). Otherwise the child has only 0, 1, 2 and `fds`.
  bool inherit_fds = false;
  bool own_process_group = false;  // the child leads a new group; Kill/Stop signal the group
  bool new_session = false;        // setsid(): no controlling terminal (a detached browser)
  int nice = 0;                    // niceness the child adds before exec
  int parent_death_signal = 0;     // sent to the child should the starting thread die first
  // Blocked in the calling thread from before fork until Start returns, so a signal arriving
  // meanwhile waits for a handler that knows the pid. In the child their handlers go back to
  // the default (ignored ones stay ignored).
  std::vector<int> hold_signals;
  std::vector<int> default_signals;      // set to SIG_DFL in the child, even when ignored
  std::optional<sigset_t> exec_sigmask;  // the signal mask the child execs with
  // Runs in the child just before exec: async-signal-safe calls only (a test seam's sleep).
  std::function<void()> before_exec;
  double timeout_s = 0;     // Wait's deadline from the start; 0: none
  double kill_grace_s = 5;  // after the deadline: SIGTERM, this long, then SIGKILL (0: KILL at once)
};

// How a finished child ended and what it printed.
struct SubprocessResult {
  int exit_code = -1;      // the exit status, or 128 + signal as a shell reports it
  bool exited = false;     // it called exit(); otherwise `signal` killed it
  int signal = 0;          // the signal that ended it, when !exited
  bool timed_out = false;  // we killed it at the deadline
  std::string out;         // captured stdout (empty unless Stream::Capture)
  std::string err;         // captured stderr
  bool truncated = false;  // some captured output went past capture_limit and was dropped
  double seconds = 0;      // wall time from start to exit
};

// A started child. Destroying it while the child runs kills it (SIGKILL) and reaps it.
class Subprocess {
 public:
  // Starts the child and waits until it has exec'd. NotFound when argv[0] does not exist,
  // InvalidArgument when it cannot be executed (or argv is empty), Internal when no process
  // could be made; each names the command: "cannot run 'CMD': REASON".
  static StatusOr<std::unique_ptr<Subprocess>> Start(const SubprocessOptions& options);
  ~Subprocess();
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  // The child's pid (also its process group id with own_process_group).
  pid_t pid() const { return pid_; }
  // Reads captured stdout until a full line arrives (returned without "\n") or `timeout_s`
  // passes or stdout closes (then ""); what follows the line stays for later reads and Wait.
  std::string ReadLine(double timeout_s);
  // Moves Wait's deadline to `timeout_s` from now (0: none).
  void SetTimeout(double timeout_s);
  // Non-blocking: the result when the child has ended (reaping it), else nullopt.
  std::optional<SubprocessResult> TryWait();
  // Waits for the child, reading captured output; at the deadline sends SIGTERM, then SIGKILL
  // after kill_grace_s. Later calls return the same result.
  SubprocessResult Wait();
  // Sends `sig` to the child (to its group with own_process_group); never after it was reaped.
  void Kill(int sig);
  // Sends `sig` (none when 0), waits up to `grace_s`, then SIGKILLs; with own_process_group
  // the group is SIGKILLed once the leader is gone, for helpers it left behind.
  SubprocessResult Stop(int sig, double grace_s);

 private:
  Subprocess() = default;
  // Reads the capture pipes for up to `timeout_ms`; false once both are closed.
  bool Pump(int timeout_ms);
  // Reaps with `flags` (0 or WNOHANG); true once reaped.
  bool Reap(int flags);

  SubprocessOptions options_;
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  size_t line_start_ = 0;  // bytes of result_.out already returned by ReadLine
  double start_ = 0;
  double deadline_ = 0;    // 0: none
  bool reaped_ = false;
  SubprocessResult result_;
};

// Starts the child, waits for it (see Subprocess::Wait) and returns how it ended.
StatusOr<SubprocessResult> RunSubprocess(const SubprocessOptions& options);

// Starts the child detached (a double fork: it is nobody's zombie) and returns once it has
// exec'd. Errors as Subprocess::Start.
Status StartDetached(const SubprocessOptions& options);

// `command` if it is a path to an executable, else its first executable match on PATH (as
// execvp searches); empty when there is none.
std::string FindExecutable(const std::string& command);

// The exit code a shell reports for wait status `status`: the code, or 128 + signal.
int ExitCodeOfWaitStatus(int status);

// Seconds on a monotonic clock.
double MonotonicSeconds();

}  // namespace otpu

#endif  // OTPU_BASE_SUBPROCESS_H_
