#include "host/lock/command_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace otpu::host {
namespace {

constexpr int kForwarded[] = {SIGTERM, SIGHUP, SIGINT};
constexpr int kNumForwarded = sizeof(kForwarded) / sizeof(kForwarded[0]);

// Where the handler sends signals: the child's pid, minus its group id, or 0 for nowhere.
volatile sig_atomic_t g_forward_target = 0;
// Set when the child shares our process group: the terminal signals that group as a whole,
// so a terminal-generated signal has reached the child already and must not be sent twice.
volatile sig_atomic_t g_child_in_our_group = 0;

extern "C" void ForwardSignal(int sig, siginfo_t* info, void* /*context*/) {
  const int saved_errno = errno;
  const pid_t target = g_forward_target;
  if (target != 0 && !(g_child_in_our_group && info->si_code == SI_KERNEL)) ::kill(target, sig);
  errno = saved_errno;
}

// Blocks the forwarded signals and installs ForwardSignal for those not ignored; restores
// the previous dispositions and mask when it goes out of scope.
class SignalScope {
 public:
  explicit SignalScope(bool active) : active_(active) {
    if (!active_) return;
    sigemptyset(&set_);
    for (int sig : kForwarded) sigaddset(&set_, sig);
    ::sigprocmask(SIG_BLOCK, &set_, &old_mask_);
    for (int i = 0; i < kNumForwarded; ++i) {
      ::sigaction(kForwarded[i], nullptr, &old_actions_[i]);
      // Like a shell: a signal ignored when we started (nohup, background jobs) stays ignored.
      if (old_actions_[i].sa_handler == SIG_IGN) continue;
      struct sigaction action = {};
      action.sa_sigaction = ForwardSignal;
      action.sa_flags = SA_SIGINFO | SA_RESTART;
      sigfillset(&action.sa_mask);
      installed_[i] = ::sigaction(kForwarded[i], &action, nullptr) == 0;
    }
  }

  ~SignalScope() {
    if (!active_) return;
    ::sigprocmask(SIG_BLOCK, &set_, nullptr);
    g_forward_target = 0;
    // Signals still pending were meant for the child, which is gone: drop them so we exit
    // with the child's status instead of dying of them.
    const struct timespec zero = {0, 0};
    while (::sigtimedwait(&set_, nullptr, &zero) > 0) {
    }
    for (int i = 0; i < kNumForwarded; ++i) {
      if (installed_[i]) ::sigaction(kForwarded[i], &old_actions_[i], nullptr);
    }
    ::sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
  }

  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;

  // Lets held signals through to ForwardSignal (parent, once the child has exec'd).
  void Unblock() const {
    if (active_) ::sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
  }

  // In the child before exec: our handler must not run there (it would forward to nobody).
  void ResetHandlersInChild() const {
    if (!active_) return;
    for (int i = 0; i < kNumForwarded; ++i) {
      if (installed_[i]) ::signal(kForwarded[i], SIG_DFL);
    }
  }

 private:
  bool active_;
  sigset_t set_;
  sigset_t old_mask_;
  struct sigaction old_actions_[kNumForwarded] = {};
  bool installed_[kNumForwarded] = {};
};

// The child between fork and exec: only async-signal-safe calls from here on.
[[noreturn]] void ExecChild(char* const* argv, const CommandOptions& options,
                            const SignalScope& signals, int error_fd, pid_t parent) {
  signals.ResetHandlersInChild();
  if (options.own_process_group) ::setpgid(0, 0);
  if (options.nice != 0 && ::nice(options.nice) == -1) {
    // Not being niced is no reason to fail the command.
  }
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent) ::_exit(128 + SIGTERM);  // the parent died before prctl
  if (options.exec_delay_ms > 0) {
    struct timespec delay = {options.exec_delay_ms / 1000, (options.exec_delay_ms % 1000) * 1000000L};
    while (::nanosleep(&delay, &delay) != 0 && errno == EINTR) {
    }
  }
  signals.Unblock();
  ::execvp(argv[0], argv);
  const int exec_errno = errno;
  ssize_t ignored = ::write(error_fd, &exec_errno, sizeof(exec_errno));
  (void)ignored;
  ::_exit(127);
}

Status StartFailure(const std::string& command, int exec_errno) {
  std::string message = "cannot run '" + command + "': " + std::strerror(exec_errno);
  if (exec_errno == ENOENT || exec_errno == ENOTDIR) return NotFound(message);
  return InvalidArgument(message);
}

int ShellExitCode(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

StatusOr<int> WaitFor(pid_t pid, const std::string& command) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Internal("waiting for '" + command + "': " + std::strerror(errno));
  }
  return ShellExitCode(status);
}

}  // namespace

StatusOr<int> RunCommand(const std::vector<std::string>& argv, const CommandOptions& options) {
  if (argv.empty()) return InvalidArgument("no command");
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);

  // The child reports a failed exec through this pipe; end of file means exec succeeded.
  int error_pipe[2];
  if (::pipe2(error_pipe, O_CLOEXEC) != 0) {
    return Internal("cannot start '" + argv[0] + "': pipe: " + std::strerror(errno));
  }
  // Blocked from before fork until the child has exec'd: an early signal waits, then goes to it.
  SignalScope signals(options.forward_signals);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int fork_errno = errno;
    ::close(error_pipe[0]);
    ::close(error_pipe[1]);
    return Internal("cannot start '" + argv[0] + "': fork: " + std::strerror(fork_errno));
  }
  if (pid == 0) {
    ::close(error_pipe[0]);
    ExecChild(args.data(), options, signals, error_pipe[1], parent);
  }
  ::close(error_pipe[1]);
  if (options.own_process_group) ::setpgid(pid, pid);  // also in the parent: no race either way
  int exec_errno = 0;
  ssize_t n;
  do {
    n = ::read(error_pipe[0], &exec_errno, sizeof(exec_errno));
  } while (n < 0 && errno == EINTR);
  ::close(error_pipe[0]);
  if (n == static_cast<ssize_t>(sizeof(exec_errno))) {
    (void)WaitFor(pid, argv[0]);
    return StartFailure(argv[0], exec_errno);
  }
  g_child_in_our_group = !options.own_process_group;
  g_forward_target = options.own_process_group ? -pid : pid;
  signals.Unblock();
  return WaitFor(pid, argv[0]);
}

int ExitCodeForStartFailure(const Status& status) {
  switch (status.code()) {
    case StatusCode::kNotFound:
      return 127;
    case StatusCode::kInvalidArgument:
      return 126;
    default:
      return 1;
  }
}

bool InForeground() {
  const pid_t foreground = ::tcgetpgrp(STDIN_FILENO);
  return foreground != -1 && foreground == ::getpgrp();
}

}  // namespace otpu::host
