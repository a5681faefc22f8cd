#include "host/lock/command_runner.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <iterator>
#include <memory>

#include "base/subprocess.h"

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

  // The mask from before this scope: the one the child execs with.
  const sigset_t& old_mask() const { return old_mask_; }

 private:
  bool active_;
  sigset_t set_;
  sigset_t old_mask_;
  struct sigaction old_actions_[kNumForwarded] = {};
  bool installed_[kNumForwarded] = {};
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
    start.hold_signals.assign(std::begin(kForwarded), std::end(kForwarded));
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
