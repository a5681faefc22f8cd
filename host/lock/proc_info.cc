#include "host/lock/proc_info.h"

#include "base/proc_stat.h"

#include <sys/sysmacros.h>

#include <charconv>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace otpu::host {
namespace {

std::optional<std::string> ReadProcFile(pid_t pid, const char* name) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/" + name, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

std::optional<pid_t> ParsePid(const std::string& text) {
  pid_t pid = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, pid);
  if (text.empty() || ec != std::errc() || ptr != end || pid <= 0) return std::nullopt;
  return pid;
}

std::optional<pid_t> ParentPid(pid_t pid) {
  const std::optional<std::string> ppid = ProcStatField(pid, 4);
  if (!ppid) return std::nullopt;
  if (*ppid == "0") return pid_t{0};  // init and kthreadd
  return ParsePid(*ppid);
}

bool IsAncestor(pid_t ancestor, pid_t pid) {
  // Bounded walk: pids can be reused while we read, so never trust the chain to end.
  for (int depth = 0; depth < 4096; ++depth) {
    std::optional<pid_t> parent = ParentPid(pid);
    if (!parent || *parent <= 0) return false;
    if (*parent == ancestor) return true;
    pid = *parent;
  }
  return false;
}

std::vector<pid_t> FlockHoldersIn(const std::string& proc_locks, dev_t dev, ino_t ino) {
  // "1: FLOCK  ADVISORY  WRITE 4242 00:2d:131 0 EOF"; a waiter's line has "->" after the id.
  // The device is "major:minor" in hex (fs/locks.c, lock_get_status).
  std::vector<pid_t> holders;
  std::istringstream lines(proc_locks);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::string id, type, mode, access, where;
    long pid = 0;
    if (!(in >> id >> type) || type == "->" || type != "FLOCK") continue;
    if (!(in >> mode >> access >> pid >> where) || access != "WRITE" || pid <= 0) continue;
    unsigned major_dev = 0, minor_dev = 0;
    unsigned long long inode = 0;
    if (std::sscanf(where.c_str(), "%x:%x:%llu", &major_dev, &minor_dev, &inode) != 3) continue;
    if (major_dev == major(dev) && minor_dev == minor(dev) && inode == ino) {
      holders.push_back(pid_t(pid));
    }
  }
  return holders;
}

std::vector<pid_t> FlockHolders(dev_t dev, ino_t ino) {
  std::ifstream in("/proc/locks");
  if (!in) return {};
  return FlockHoldersIn(
      std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()), dev, ino);
}

std::string CommandLine(pid_t pid, size_t max_chars) {
  std::optional<std::string> raw = ReadProcFile(pid, "cmdline");
  if (!raw || raw->empty()) return "unknown command line";
  while (!raw->empty() && raw->back() == '\0') raw->pop_back();
  for (char& c : *raw) {
    if (c == '\0' || c == '\n') c = ' ';
  }
  if (raw->size() > max_chars) *raw = raw->substr(0, max_chars) + "...";
  return *raw;
}

}  // namespace otpu::host
