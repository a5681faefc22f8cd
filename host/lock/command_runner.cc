#include "host/lock/command_runner.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <iterator>
#include <memory>
#include <vector>

#include "base/subprocess.h"

namespace otpu::host {
namespace {

// Signals the kernel raises in this very process for a fault of its own: a handler that
// returns re-runs the faulting instruction, so they keep their default action.
constexpr int kSynchronous[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
// Signals that stop the process: forwarded, then we stop too, so the shell sees the job
// stopped as it would without us (and `fg` or CONT resumes both).
constexpr int kStopping[] = {SIGTSTP, SIGTTIN, SIGTTOU};

template <size_t N>
bool OneOf(int sig, const int (&list)[N]) {
  for (int s : list) {
    if (s == sig) return true;
  }
  return false;
}

// Every signal a process can catch, less KILL and STOP (they cannot be caught), CHLD (it is
// about our own child, not for it) and the synchronous fault signals; realtime signals
// included, except the ones below SIGRTMIN that the C library keeps for itself.
std::vector<int> ForwardedSignals() {
  std::vector<int> signals;
  for (int sig = 1; sig <= SIGRTMAX; ++sig) {
    if (sig == SIGKILL || sig == SIGSTOP || sig == SIGCHLD || OneOf(sig, kSynchronous)) continue;
    if (sig > SIGSYS && sig < SIGRTMIN) continue;
    signals.push_back(sig);
  }
  return signals;
}

// Where the handler sends signals: the child's pid, minus its group id, or 0 for nowhere.
volatile sig_atomic_t g_forward_target = 0;
// Set when the child shares our process group: the terminal signals that group as a whole,
// so a terminal-generated signal has reached the child already and must not be sent twice.
volatile sig_atomic_t g_child_in_our_group = 0;
// Our pid: a signal we raised ourselves (SIGPIPE from a write to a closed stderr, abort's
// ABRT) is about us, not about the command.
volatile sig_atomic_t g_self_pid = 0;

extern "C" void ForwardSignal(int sig, siginfo_t* info, void* /*context*/) {
  const int saved_errno = errno;
  const pid_t target = g_forward_target;
  const bool from_terminal = g_child_in_our_group && info->si_code == SI_KERNEL;
  const bool from_self = (info->si_code == SI_USER || info->si_code == SI_TKILL) &&
                         info->si_pid == g_self_pid;
  if (target != 0 && !from_terminal && !from_self) ::kill(target, sig);
  if (OneOf(sig, kStopping)) ::kill(g_self_pid, SIGSTOP);
  errno = saved_errno;
}

// Blocks the forwarded signals and installs ForwardSignal for those not ignored; restores
// the previous dispositions and mask when it goes out of scope.
class SignalScope {
 public:
  explicit SignalScope(bool active) : active_(active) {
    if (!active_) return;
    g_self_pid = ::getpid();
    signals_ = ForwardedSignals();
    old_actions_.resize(signals_.size());
    installed_.assign(signals_.size(), false);
    sigemptyset(&set_);
    for (int sig : signals_) sigaddset(&set_, sig);
    ::sigprocmask(SIG_BLOCK, &set_, &old_mask_);
    for (size_t i = 0; i < signals_.size(); ++i) {
      ::sigaction(signals_[i], nullptr, &old_actions_[i]);
      // Like a shell: a signal ignored when we started (nohup, background jobs) stays ignored.
      if (old_actions_[i].sa_handler == SIG_IGN) continue;
      struct sigaction action = {};
      action.sa_sigaction = ForwardSignal;
      action.sa_flags = SA_SIGINFO | SA_RESTART;
      sigfillset(&action.sa_mask);
      installed_[i] = ::sigaction(signals_[i], &action, nullptr) == 0;
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
    for (size_t i = 0; i < signals_.size(); ++i) {
      if (installed_[i]) ::sigaction(signals_[i], &old_actions_[i], nullptr);
    }
    ::sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
  }

  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;

  // Lets held signals through to ForwardSignal (parent, once the child has exec'd).
  void Unblock() const {
    if (active_) ::sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
  }

  // The signals forwarded (empty when inactive).
  const std::vector<int>& signals() const { return signals_; }
  // The mask from before this scope: the one the child execs with.
  const sigset_t& old_mask() const { return old_mask_; }

 private:
  bool active_;
  std::vector<int> signals_;
  sigset_t set_;
  sigset_t old_mask_;
  std::vector<struct sigaction> old_actions_;
  std::vector<bool> installed_;
};

}  // namespace

StatusOr<int> RunCommand(const std::vector<std::string>& argv, const CommandOptions& options) {
  if (argv.empty()) return InvalidArgument("no command");
  // Blocked from before fork until the child has exec'd: an early signal waits, then goes to it.
  SignalScope signals(options.forward_signals);
  SubprocessOptions start;
  start.argv = argv;
  start.in = Stream::Inherit();
  start.inherit_fds = true;  // like a shell: the shared lock descriptor and a jobserver's pass
  start.own_process_group = options.own_process_group;
  start.nice = options.nice;
  start.parent_death_signal = SIGTERM;  // a command must not run on after its lock is gone
  if (options.forward_signals) {
    start.hold_signals = signals.signals();
    start.exec_sigmask = signals.old_mask();
  }
  if (const int ms = options.exec_delay_ms; ms > 0) {
    start.before_exec = [ms] {
      struct timespec delay = {ms / 1000, (ms % 1000) * 1000000L};
      while (::nanosleep(&delay, &delay) != 0 && errno == EINTR) {
      }
    };
  }
  ASSIGN_OR_RETURN(std::unique_ptr<Subprocess> child, Subprocess::Start(start));
  g_child_in_our_group = !options.own_process_group;
  g_forward_target = options.own_process_group ? -child->pid() : child->pid();
  signals.Unblock();
  const SubprocessResult result = child->Wait();
  if (!result.exited && result.signal == 0) {
    return Internal("waiting for '" + argv[0] + "': its exit status was lost (SIGCHLD ignored?)");
  }
  return result.exit_code;
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
