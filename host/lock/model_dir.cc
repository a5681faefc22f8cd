#include "host/lock/model_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

namespace otpu::host {
namespace {

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// "/a/b/c" -> "/a/b"; "/a" -> "/"; "/" -> "".
std::string Parent(const std::string& dir) {
  if (dir == "/" || dir.empty()) return "";
  const size_t slash = dir.rfind('/');
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : dir.substr(0, slash);
}

std::string Join(const std::string& dir, const std::string& rest) {
  return dir == "/" ? "/" + rest : dir + "/" + rest;
}

}  // namespace

std::string SelfExecutable() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, size_t(n)) : std::string();
}

std::vector<std::string> DefaultModelCandidates(const std::string& exe) {
  std::vector<std::string> candidates;
  if (const char* src = std::getenv(kSourceDirEnv); src && *src) {
    candidates.push_back(Join(src, kDefaultModelSubdir));
  }
  for (std::string dir = Parent(exe); !dir.empty(); dir = Parent(dir)) {
    candidates.push_back(Join(dir, kDefaultModelSubdir));
    candidates.push_back(Join(dir, std::string("share/otpu/") + kDefaultModelSubdir));
  }
  candidates.push_back(kDefaultModelSubdir);  // the working directory, as before
  return candidates;
}

StatusOr<std::string> FindDefaultModelDir(const std::string& exe) {
  const std::vector<std::string> candidates = DefaultModelCandidates(exe);
  for (const std::string& dir : candidates) {
    if (IsDirectory(dir)) return dir;
  }
  std::string looked;
  for (const std::string& dir : candidates) looked += (looked.empty() ? "" : ", ") + dir;
  const char* src = std::getenv(kSourceDirEnv);
  return NotFound(std::string(kDefaultModelName) + ": no checkpoint " + kDefaultModelSubdir +
                  " found; looked in " + looked +
                  (src && *src ? "" : std::string(" (") + kSourceDirEnv + " is unset)") +
                  "; download Qwen/Qwen3-0.6B into the checkout's models/ or set " +
                  kSourceDirEnv);
}

}  // namespace otpu::host
