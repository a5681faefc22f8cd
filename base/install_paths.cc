#include "base/install_paths.h"

#include <filesystem>
#include <system_error>

namespace otpu {
namespace fs = std::filesystem;

std::string ExecutablePath() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

std::string DataDir() {
  const std::string exe = ExecutablePath();
  if (!exe.empty()) {
    std::error_code ec;
    const fs::path share = fs::path(exe).parent_path().parent_path() / "share" / "otpu";
    if (fs::is_directory(share, ec)) return share.string();
  }
  // Only this file carries the checkout's path: in every compile command it would keep ccache
  // from sharing objects between checkouts (base_dir).
  return OTPU_SOURCE_DIR;
}

}  // namespace otpu
