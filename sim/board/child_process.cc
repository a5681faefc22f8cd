#include "sim/board/child_process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace otpu::board {

StatusOr<std::string> RunInChild(const std::function<std::string()>& fn) {
  int fds[2];
  if (pipe(fds) != 0) return Internal(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);  // the child must not print the parent's buffered output again
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return Internal(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    const std::string text = fn();
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0) _exit(2);
      done += size_t(n);
    }
    std::fflush(nullptr);
    _exit(0);  // no destructors or atexit handlers of the parent's state
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n > 0) {
      text.append(buf, size_t(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return text;
  if (WIFSIGNALED(status)) {
    return Internal("child process " + std::to_string(pid) + " died of signal " +
                    std::to_string(WTERMSIG(status)));
  }
  return Internal("child process " + std::to_string(pid) + " exited with status " +
                  std::to_string(WEXITSTATUS(status)));
}

}  // namespace otpu::board
