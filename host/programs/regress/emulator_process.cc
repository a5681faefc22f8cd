#include "host/programs/regress/emulator_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

namespace otpu::regress {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool Mounted(const std::string& path) {
  std::ifstream in("/proc/self/mountinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.find(" " + path + " ") != std::string::npos) return true;
  }
  return false;
}

}  // namespace

StatusOr<std::unique_ptr<EmulatorProcess>> EmulatorProcess::Start(
    const std::string& binary, const std::vector<std::string>& args, double timeout_s) {
  std::unique_ptr<EmulatorProcess> emu(new EmulatorProcess());
  char tmpl[] = "/tmp/otpu_regress_card.XXXXXX";
  if (!::mkdtemp(tmpl)) return Internal(std::string("mkdtemp: ") + std::strerror(errno));
  emu->dir_ = tmpl;
  emu->mount_ = emu->dir_ + "/mnt";
  std::filesystem::create_directory(emu->mount_);

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Internal(std::string("pipe: ") + std::strerror(errno));
  std::vector<std::string> argv = {binary, emu->mount_, "--foreground"};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t pid = ::fork();
  if (pid < 0) return Internal(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, 0);
    std::vector<char*> ptrs;
    for (std::string& a : argv) ptrs.push_back(a.data());
    ptrs.push_back(nullptr);
    ::execv(ptrs[0], ptrs.data());
    std::_Exit(127);
  }
  ::close(fds[1]);
  emu->pid_ = pid;
  emu->out_fd_ = fds[0];

  // The first line is the device prefix; anything else is why it did not start.
  std::string out;
  const double deadline = Now() + timeout_s;
  while (Now() < deadline) {
    const size_t nl = out.find('\n');
    if (nl != std::string::npos) {
      const std::string line = out.substr(0, nl);
      if (line == emu->mount_ + "/xdma0") {
        emu->prefix_ = line;
        return emu;
      }
      break;
    }
    pollfd p{emu->out_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) > 0) {
      char buf[4096];
      const ssize_t n = ::read(emu->out_fd_, buf, sizeof buf);
      if (n <= 0) break;
      out.append(buf, size_t(n));
    }
  }
  std::string said = out;
  while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
  return Unavailable(binary + " did not mount " + emu->mount_ + " within " +
                     std::to_string(int(timeout_s)) + " s" +
                     (said.empty() ? std::string() : ": " + said));
}

EmulatorProcess::~EmulatorProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    const double deadline = Now() + 20;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (Now() > deadline) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  if (out_fd_ >= 0) ::close(out_fd_);
  if (!mount_.empty() && Mounted(mount_)) {
    const std::string cmd = "fusermount3 -u -z '" + mount_ + "' >/dev/null 2>&1";
    if (std::system(cmd.c_str()) != 0) {
      // Left mounted: the directory removal below fails too, and says nothing more useful.
    }
  }
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

}  // namespace otpu::regress
