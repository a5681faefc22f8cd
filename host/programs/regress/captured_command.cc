#include "host/programs/regress/captured_command.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace otpu::regress {
namespace {

// Closes a descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() { if (fd >= 0) ::close(fd); }
};

// Reads the whole memory file `fd` from its start.
std::string ReadAll(int fd) {
  std::string text;
  if (::lseek(fd, 0, SEEK_SET) != 0) return text;
  char buf[8192];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  return text;
}

}  // namespace

StatusOr<CapturedResult> RunCaptured(const std::vector<std::string>& argv) {
  if (argv.empty()) return InvalidArgument("RunCaptured: empty command");
  const std::string& program = argv[0];
  Fd out{::memfd_create("stdout", MFD_CLOEXEC)};
  Fd err{::memfd_create("stderr", MFD_CLOEXEC)};
  Fd null{::open("/dev/null", O_RDONLY | O_CLOEXEC)};
  if (out.fd < 0 || err.fd < 0 || null.fd < 0) {
    return Internal("cannot run " + program + ": " + std::strerror(errno));
  }

  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  // dup2 clears FD_CLOEXEC on the copies, so the child keeps exactly 0, 1 and 2.
  ::posix_spawn_file_actions_adddup2(&actions, null.fd, 0);
  ::posix_spawn_file_actions_adddup2(&actions, out.fd, 1);
  ::posix_spawn_file_actions_adddup2(&actions, err.fd, 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  // glibc's posix_spawnp reports a failed exec (ENOENT, EACCES) as its return value.
  int rc = ::posix_spawnp(&pid, program.c_str(), &actions, nullptr, args.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  if (rc == ENOENT) {
    return NotFound(program + ": command not found" +
                    (program.find('/') == std::string::npos ? " in PATH" : ""));
  }
  if (rc != 0) return Internal("cannot run " + program + ": " + std::strerror(rc));

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Internal("waitpid for " + program + ": " + std::strerror(errno));
  }
  CapturedResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = ReadAll(out.fd);
  result.err = ReadAll(err.fd);
  return result;
}

std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += "'\\''"; else quoted += c;
  }
  return quoted + "'";
}

std::string CommandLine(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& a : argv) {
    if (!line.empty()) line += ' ';
    bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`;&|<>()*?[]#~") == std::string::npos;
    line += plain ? a : ShellQuote(a);
  }
  return line;
}

}  // namespace otpu::regress
