#include "base/testing/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

extern char** environ;

namespace otpu::testutil {
namespace {

// Variables of an enclosing otpu-lock must not leak into the processes a test starts.
constexpr const char* kScrubbed[] = {"OTPU_LOCK_HELD", "OTPU_LOCK_PID", "OTPU_LOCK_FDS", "OTPU_LOCK_WAIT",
                                     "OTPU_PREBUILD", "OTPU_LOCK_TEST_EXEC_DELAY_MS"};

std::vector<std::string> BuildEnvironment(const std::vector<std::string>& changes) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; *e; ++e) {
    std::string entry = *e;
    size_t eq = entry.find('=');
    if (eq != std::string::npos) vars[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const char* name : kScrubbed) vars.erase(name);
  for (const std::string& change : changes) {
    if (!change.empty() && change[0] == '-') {
      vars.erase(change.substr(1));
    } else {
      size_t eq = change.find('=');
      vars[change.substr(0, eq)] = eq == std::string::npos ? "" : change.substr(eq + 1);
    }
  }
  std::vector<std::string> env;
  for (const auto& [name, value] : vars) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

double NowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

TestProcess::TestProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  std::vector<std::string> args = argv;
  std::vector<std::string> envs = BuildEnvironment(env);
  std::vector<char*> arg_ptrs = CStrings(args);
  std::vector<char*> env_ptrs = CStrings(envs);
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) std::abort();
  start_ = NowSeconds();
  pid_ = ::fork();
  if (pid_ < 0) std::abort();
  if (pid_ == 0) {
    int null_fd = ::open("/dev/null", O_RDONLY);
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) ::signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execvpe(arg_ptrs[0], arg_ptrs.data(), env_ptrs.data());
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  out_fd_ = out[0];
  err_fd_ = err[0];
}

TestProcess::~TestProcess() {
  if (!reaped_) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (out_fd_ >= 0) ::close(out_fd_);
  if (err_fd_ >= 0) ::close(err_fd_);
}

bool TestProcess::Pump(int timeout_ms) {
  struct pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
  if (out_fd_ < 0 && err_fd_ < 0) return false;
  int ready = ::poll(fds, 2, timeout_ms);
  if (ready <= 0) return true;
  int* owners[2] = {&out_fd_, &err_fd_};
  std::string* sinks[2] = {&out_, &err_};
  for (int i = 0; i < 2; ++i) {
    if (*owners[i] < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char buf[4096];
    ssize_t n = ::read(*owners[i], buf, sizeof(buf));
    if (n > 0) {
      sinks[i]->append(buf, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      ::close(*owners[i]);
      *owners[i] = -1;
    }
  }
  return out_fd_ >= 0 || err_fd_ >= 0;
}

std::string TestProcess::ReadLine(double timeout_s) {
  const double deadline = NowSeconds() + timeout_s;
  while (true) {
    size_t newline = out_.find('\n', out_consumed_);
    if (newline != std::string::npos) {
      std::string line = out_.substr(out_consumed_, newline - out_consumed_);
      out_consumed_ = newline + 1;
      return line;
    }
    if (NowSeconds() >= deadline || !Pump(10)) return "";
  }
}

ProcessResult TestProcess::Wait(double timeout_s) {
  ProcessResult result;
  const double deadline = NowSeconds() + timeout_s;
  int status = 0;
  while (true) {
    pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) break;
    if (NowSeconds() >= deadline) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      result.timed_out = true;
      break;
    }
    Pump(5);
  }
  reaped_ = true;
  result.seconds = NowSeconds() - start_;
  // Collect what is left; a grandchild may hold the pipes open, so do not wait for EOF long.
  const double drain_deadline = NowSeconds() + 0.2;
  while (Pump(5) && NowSeconds() < drain_deadline) {
  }
  result.exited = WIFEXITED(status);
  result.exit_code = result.exited ? WEXITSTATUS(status) : -1;
  result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  result.out = out_;
  result.err = err_;
  return result;
}

ProcessResult RunProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                         double timeout_s) {
  TestProcess process(argv, env);
  return process.Wait(timeout_s);
}

bool HasSignalBlocked(pid_t pid, int sig) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("SigBlk:", 0) != 0) continue;
    unsigned long long mask = std::strtoull(line.c_str() + 7, nullptr, 16);
    return mask & (1ULL << (sig - 1));
  }
  return false;
}

int CountLines(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n';
  if (!text.empty() && text.back() != '\n') ++lines;
  return lines;
}

}  // namespace otpu::testutil
