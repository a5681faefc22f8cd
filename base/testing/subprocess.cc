#include "base/testing/subprocess.h"

#include <fstream>

namespace otpu::testutil {
namespace {

// Variables of an enclosing otpu-lock must not leak into the processes a test starts.
constexpr const char* kScrubbed[] = {"OTPU_LOCK_HELD", "OTPU_LOCK_PID", "OTPU_LOCK_FDS", "OTPU_LOCK_WAIT",
                                     "OTPU_PREBUILD", "OTPU_LOCK_TEST_EXEC_DELAY_MS"};

}  // namespace

double NowSeconds() { return MonotonicSeconds(); }

TestProcess::TestProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  SubprocessOptions options;
  options.argv = argv;
  for (const char* name : kScrubbed) options.env.push_back(std::string("-") + name);
  options.env.insert(options.env.end(), env.begin(), env.end());
  options.out = Stream::Capture();
  options.err = Stream::Capture();
  // Tests signal their processes: the defaults, whatever the test runner ignores or blocks.
  options.default_signals = {SIGTERM, SIGINT, SIGHUP};
  sigset_t none;
  sigemptyset(&none);
  options.exec_sigmask = none;
  options.kill_grace_s = 0;
  options.inherit_fds = true;  // as a plain fork and exec: tests pass lock descriptors down
  StatusOr<std::unique_ptr<Subprocess>> process = Subprocess::Start(options);
  if (!process.ok()) {
    // Like a failed exec in a forked child: exit 127, the reason on stderr.
    options.argv = {"sh", "-c", "echo \"$0\" >&2; exit 127", process.status().message()};
    process = Subprocess::Start(options);
  }
  if (!process.ok()) std::abort();
  process_ = std::move(process).value();
}

TestProcess::~TestProcess() = default;

ProcessResult ToProcessResult(const SubprocessResult& r) {
  ProcessResult result;
  result.exited = r.exited;
  result.exit_code = r.exited ? r.exit_code : -1;
  result.signal = r.signal;
  result.timed_out = r.timed_out;
  result.out = r.out;
  result.err = r.err;
  result.seconds = r.seconds;
  return result;
}

ProcessResult TestProcess::Wait(double timeout_s) {
  process_->SetTimeout(timeout_s);
  return ToProcessResult(process_->Wait());
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
