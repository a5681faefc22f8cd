#include "base/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>

extern char** environ;

namespace otpu {
namespace {

// What the child reports through the error pipe when it cannot get to exec.
enum class Stage : int { kExec, kChdir, kSetup, kFork };

struct ChildError {
  Stage stage;
  int error;
};

// Everything the child needs, prepared before fork (the child may not allocate).
struct Plan {
  const SubprocessOptions* options;
  char* const* argv;
  char* const* envp;
  int stdio[3] = {-1, -1, -1};          // sources for 0, 1, 2; -1: leave as is
  std::vector<std::pair<int, int>> fds; // {source, target}, stdio included
  int max_target = 2;
  int error_fd = -1;
  pid_t parent = -1;
  bool detached = false;  // the intermediate process made the session already
  sigset_t caller_mask;
};

void Report(int fd, Stage stage, int error) {
  const ChildError e{stage, error};
  ssize_t ignored = ::write(fd, &e, sizeof e);
  (void)ignored;
}

void ResetSignals(const SubprocessOptions& o) {
  for (int sig : o.hold_signals) {
    struct sigaction old;
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_IGN) ::signal(sig, SIG_DFL);
  }
  for (int sig : o.default_signals) ::signal(sig, SIG_DFL);
}

// Puts the planned descriptors on their targets and marks every other one close-on-exec.
bool ArrangeFds(Plan& p) {
  const int above = p.max_target + 1;
  // Copies above every target first, so that no dup2 clobbers a source still to be used.
  int moved_error = ::fcntl(p.error_fd, F_DUPFD_CLOEXEC, above);
  if (moved_error < 0) return false;
  p.error_fd = moved_error;
  for (auto& [source, target] : p.fds) {
    source = ::fcntl(source, F_DUPFD_CLOEXEC, above);
    if (source < 0) return false;
  }
  for (const auto& [source, target] : p.fds) {
    if (::dup2(source, target) < 0) return false;  // dup2 clears close-on-exec on the copy
  }
  if (p.options->inherit_fds) return true;
  for (int fd = 3; fd <= p.max_target; ++fd) {
    bool target = false;
    for (const auto& entry : p.fds) target |= entry.second == fd;
    if (!target) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  }
  ::close_range(static_cast<unsigned>(above), ~0U, CLOSE_RANGE_CLOEXEC);
  return true;
}

// The child between fork and exec: async-signal-safe calls only.
[[noreturn]] void ExecChild(Plan& p) {
  const SubprocessOptions& o = *p.options;
  ResetSignals(o);
  if (o.new_session) {
    // Detached: the intermediate leads the session, so this child can never get a terminal.
    if (!p.detached) ::setsid();
  } else if (o.own_process_group) {
    ::setpgid(0, 0);
  }
  if (o.nice != 0 && ::nice(o.nice) == -1) {
    // Not being niced is no reason to fail the command.
  }
  if (o.parent_death_signal != 0) {
    ::prctl(PR_SET_PDEATHSIG, o.parent_death_signal);
    if (::getppid() != p.parent) ::_exit(128 + o.parent_death_signal);  // died before prctl
  }
  if (!o.cwd.empty() && ::chdir(o.cwd.c_str()) != 0) {
    Report(p.error_fd, Stage::kChdir, errno);
    ::_exit(127);
  }
  if (!ArrangeFds(p)) {
    Report(p.error_fd, Stage::kSetup, errno);
    ::_exit(127);
  }
  if (o.before_exec) o.before_exec();
  if (o.exec_sigmask) {
    ::sigprocmask(SIG_SETMASK, &*o.exec_sigmask, nullptr);
  } else if (!o.hold_signals.empty()) {
    ::sigprocmask(SIG_SETMASK, &p.caller_mask, nullptr);
  }
  ::execvpe(p.argv[0], p.argv, p.envp);
  Report(p.error_fd, Stage::kExec, errno);
  ::_exit(127);
}

std::vector<std::string> BuildEnvironment(const SubprocessOptions& o) {
  std::map<std::string, std::string> vars;
  if (!o.clear_env) {
    for (char** e = environ; *e; ++e) {
      const std::string entry = *e;
      const size_t eq = entry.find('=');
      if (eq != std::string::npos) vars[entry.substr(0, eq)] = entry.substr(eq + 1);
    }
  }
  for (const std::string& change : o.env) {
    if (!change.empty() && change[0] == '-') {
      vars.erase(change.substr(1));
    } else {
      const size_t eq = change.find('=');
      vars[change.substr(0, eq)] = eq == std::string::npos ? "" : change.substr(eq + 1);
    }
  }
  std::vector<std::string> env;
  for (const auto& [name, value] : vars) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

Status StartFailure(const SubprocessOptions& o, ChildError e) {
  const std::string& command = o.argv[0];
  std::string message = "cannot run '" + command + "'";
  if (e.stage == Stage::kChdir) message += " in " + o.cwd;
  if (e.stage == Stage::kSetup) message += ": setting up its descriptors";
  if (e.stage == Stage::kFork) message += ": fork";
  message += std::string(": ") + std::strerror(e.error);
  if (e.stage == Stage::kFork || e.stage == Stage::kSetup) return Internal(message);
  if (e.error == ENOENT || e.error == ENOTDIR) return NotFound(message);
  return InvalidArgument(message);
}

// Descriptors opened for the child; ours are closed when the start is over.
class ChildEnds {
 public:
  ~ChildEnds() {
    for (int fd : fds_) ::close(fd);
  }
  // Opens the child's side of `stream`; sets *ours to our read end for a capture.
  bool Open(const Stream& stream, bool input, int* child, int* ours) {
    *child = -1;
    switch (stream.kind) {
      case Stream::Kind::kInherit:
        return true;
      case Stream::Kind::kFd:
        *child = stream.fd;
        return stream.fd >= 0;
      case Stream::Kind::kNull:
        *child = ::open("/dev/null", (input ? O_RDONLY : O_WRONLY) | O_CLOEXEC);
        break;
      case Stream::Kind::kFile:
        *child = ::open(stream.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        break;
      case Stream::Kind::kCapture: {
        int p[2];
        if (::pipe2(p, O_CLOEXEC) != 0) return false;
        *ours = p[0];
        *child = p[1];
        break;
      }
    }
    if (*child >= 0) fds_.push_back(*child);
    return *child >= 0;
  }
  // Closes them now (the child has its copies).
  void Close() {
    for (int fd : fds_) ::close(fd);
    fds_.clear();
  }

 private:
  std::vector<int> fds_;
};

// Blocks `signals` in this thread for one scope.
class HeldSignals {
 public:
  explicit HeldSignals(const std::vector<int>& signals) {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : signals) sigaddset(&set, sig);
    ::pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~HeldSignals() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  const sigset_t& old() const { return old_; }

 private:
  sigset_t old_;
};

// Reads the child's report: nullopt when the pipe closed without one (exec succeeded).
std::optional<ChildError> ReadReport(int fd) {
  ChildError e{};
  ssize_t n;
  do {
    n = ::read(fd, &e, sizeof e);
  } while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof e)) return e;
  return std::nullopt;
}

void ReapBlocking(pid_t pid, int* status) {
  while (::waitpid(pid, status, 0) < 0 && errno == EINTR) {
  }
}

// Forks and execs per `o`; on success returns the pid (the intermediate's when `detached`) and
// fills *out_fd/*err_fd with capture read ends.
StatusOr<pid_t> Launch(const SubprocessOptions& o, bool detached, int* out_fd, int* err_fd) {
  *out_fd = *err_fd = -1;
  if (o.argv.empty() || o.argv[0].empty()) return InvalidArgument("no command");
  std::vector<std::string> args = o.argv;
  std::vector<char*> arg_ptrs = Pointers(args);
  std::vector<std::string> env;
  std::vector<char*> env_ptrs;
  if (o.clear_env || !o.env.empty()) {
    env = BuildEnvironment(o);
    env_ptrs = Pointers(env);
  }
  Plan plan;
  plan.options = &o;
  plan.argv = arg_ptrs.data();
  plan.envp = env_ptrs.empty() ? environ : env_ptrs.data();
  plan.parent = ::getpid();
  plan.detached = detached;
  ChildEnds ends;
  int ours[3] = {-1, -1, -1};
  bool ok = ends.Open(o.in, true, &plan.stdio[0], &ours[0]) &&
            ends.Open(o.out, false, &plan.stdio[1], &ours[1]) &&
            (o.err_to_out || ends.Open(o.err, false, &plan.stdio[2], &ours[2]));
  if (o.err_to_out) plan.stdio[2] = plan.stdio[1] >= 0 ? plan.stdio[1] : STDOUT_FILENO;
  int error_pipe[2] = {-1, -1};
  if (ok) ok = ::pipe2(error_pipe, O_CLOEXEC) == 0;
  if (!ok) {
    const int err = errno;
    for (int fd : ours) if (fd >= 0) ::close(fd);
    return StartFailure(o, {Stage::kSetup, err});
  }
  for (int i = 0; i < 3; ++i) {
    if (plan.stdio[i] >= 0) plan.fds.push_back({plan.stdio[i], i});
  }
  for (const auto& [source, target] : o.fds) {
    plan.fds.push_back({source, target});
    plan.max_target = std::max(plan.max_target, target);
  }
  plan.error_fd = error_pipe[1];

  HeldSignals held(o.hold_signals);
  plan.caller_mask = held.old();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(error_pipe[0]);
    if (detached) {
      if (o.new_session) ::setsid();
      const pid_t grandchild = ::fork();
      if (grandchild < 0) Report(plan.error_fd, Stage::kFork, errno);
      if (grandchild != 0) ::_exit(0);
    }
    ExecChild(plan);
  }
  const int fork_errno = errno;
  ::close(error_pipe[1]);
  ends.Close();
  if (pid < 0) {
    ::close(error_pipe[0]);
    for (int fd : ours) if (fd >= 0) ::close(fd);
    return StartFailure(o, {Stage::kFork, fork_errno});
  }
  if (o.own_process_group && !o.new_session && !detached) ::setpgid(pid, pid);  // no race
  std::optional<ChildError> failed = ReadReport(error_pipe[0]);
  ::close(error_pipe[0]);
  if (failed || detached) {
    int status = 0;
    ReapBlocking(pid, &status);
  }
  if (failed) {
    for (int fd : ours) if (fd >= 0) ::close(fd);
    return StartFailure(o, *failed);
  }
  *out_fd = ours[1];
  *err_fd = ours[2];
  return pid;
}

}  // namespace

double MonotonicSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string FindExecutable(const std::string& command) {
  if (command.find('/') != std::string::npos) {
    return ::access(command.c_str(), X_OK) == 0 ? command : "";
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t begin = 0;
  while (begin <= dirs.size()) {
    size_t end = dirs.find(':', begin);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(begin, end - begin);
    std::string full = (dir.empty() ? "." : dir) + "/" + command;
    if (::access(full.c_str(), X_OK) == 0) return full;
    begin = end + 1;
  }
  return "";
}

int ExitCodeOfWaitStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

StatusOr<std::unique_ptr<Subprocess>> Subprocess::Start(const SubprocessOptions& options) {
  std::unique_ptr<Subprocess> p(new Subprocess());
  p->options_ = options;
  p->start_ = MonotonicSeconds();
  ASSIGN_OR_RETURN(p->pid_, Launch(p->options_, false, &p->out_fd_, &p->err_fd_));
  if (options.timeout_s > 0) p->deadline_ = p->start_ + options.timeout_s;
  return p;
}

Subprocess::~Subprocess() {
  if (!reaped_) {
    Kill(SIGKILL);
    int status = 0;
    ReapBlocking(pid_, &status);
  }
  if (out_fd_ >= 0) ::close(out_fd_);
  if (err_fd_ >= 0) ::close(err_fd_);
}

bool Subprocess::Pump(int timeout_ms) {
  if (out_fd_ < 0 && err_fd_ < 0) return false;
  struct pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
  if (::poll(fds, 2, timeout_ms) <= 0) return true;
  int* owners[2] = {&out_fd_, &err_fd_};
  std::string* sinks[2] = {&result_.out, &result_.err};
  for (int i = 0; i < 2; ++i) {
    if (*owners[i] < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char buf[8192];
    const ssize_t n = ::read(*owners[i], buf, sizeof buf);
    if (n > 0) {
      const size_t room = options_.capture_limit - std::min(options_.capture_limit, sinks[i]->size());
      sinks[i]->append(buf, std::min(room, static_cast<size_t>(n)));
      result_.truncated |= static_cast<size_t>(n) > room;
    } else if (n == 0 || errno != EINTR) {
      ::close(*owners[i]);
      *owners[i] = -1;
    }
  }
  return out_fd_ >= 0 || err_fd_ >= 0;
}

bool Subprocess::Reap(int flags) {
  if (reaped_) return true;
  int status = 0;
  pid_t done;
  do {
    done = ::waitpid(pid_, &status, flags);
  } while (done < 0 && errno == EINTR);
  if (done == 0) return false;
  reaped_ = true;
  result_.seconds = MonotonicSeconds() - start_;
  if (done == pid_) {
    result_.exited = WIFEXITED(status);
    result_.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    result_.exit_code = ExitCodeOfWaitStatus(status);
  }
  // Collect what is left; a grandchild may hold the pipes open, so do not wait long for EOF.
  const double drain_deadline = MonotonicSeconds() + 0.2;
  while (Pump(5) && MonotonicSeconds() < drain_deadline) {
  }
  return true;
}

std::string Subprocess::ReadLine(double timeout_s) {
  const double deadline = MonotonicSeconds() + timeout_s;
  while (true) {
    const size_t newline = result_.out.find('\n', line_start_);
    if (newline != std::string::npos) {
      std::string line = result_.out.substr(line_start_, newline - line_start_);
      line_start_ = newline + 1;
      return line;
    }
    if (MonotonicSeconds() >= deadline || !Pump(10)) return "";
  }
}

void Subprocess::SetTimeout(double timeout_s) {
  deadline_ = timeout_s > 0 ? MonotonicSeconds() + timeout_s : 0;
}

std::optional<SubprocessResult> Subprocess::TryWait() {
  Pump(0);
  if (!Reap(WNOHANG)) return std::nullopt;
  return result_;
}

SubprocessResult Subprocess::Wait() {
  double kill_at = 0;  // when the SIGKILL is due, once the deadline passed
  while (!Reap(WNOHANG)) {
    const double now = MonotonicSeconds();
    if (deadline_ > 0 && now >= deadline_ && kill_at == 0) {
      result_.timed_out = true;
      Kill(options_.kill_grace_s > 0 ? SIGTERM : SIGKILL);
      kill_at = now + options_.kill_grace_s;
    } else if (kill_at > 0 && now >= kill_at) {
      Kill(SIGKILL);
      kill_at = now + 3600;  // sent; now wait for it to die
    }
    if (deadline_ == 0 && out_fd_ < 0 && err_fd_ < 0) {
      Reap(0);  // nothing to read and no deadline: block (EINTR is retried)
    } else if (!Pump(5)) {
      const struct timespec tick = {0, 5'000'000};
      ::nanosleep(&tick, nullptr);
    }
  }
  return result_;
}

void Subprocess::Kill(int sig) {
  if (!reaped_ && pid_ > 0) ::kill(options_.own_process_group ? -pid_ : pid_, sig);
}

SubprocessResult Subprocess::Stop(int sig, double grace_s) {
  if (reaped_) return result_;
  if (sig != 0) Kill(sig);
  options_.kill_grace_s = 0;
  deadline_ = MonotonicSeconds() + grace_s;
  Wait();
  if (options_.own_process_group) ::kill(-pid_, SIGKILL);  // helpers left in its group
  return result_;
}

StatusOr<SubprocessResult> RunSubprocess(const SubprocessOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<Subprocess> process, Subprocess::Start(options));
  return process->Wait();
}

Status StartDetached(const SubprocessOptions& options) {
  int out_fd = -1, err_fd = -1;
  SubprocessOptions detached = options;
  for (Stream* s : {&detached.out, &detached.err}) {
    if (s->kind == Stream::Kind::kCapture) s->kind = Stream::Kind::kNull;  // nobody reads
  }
  StatusOr<pid_t> pid = Launch(detached, true, &out_fd, &err_fd);
  return pid.status();
}

}  // namespace otpu
