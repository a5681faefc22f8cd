#include "base/proc_stat.h"

#include <fstream>
#include <iterator>
#include <sstream>

namespace otpu {

std::optional<std::string> ProcStatFieldIn(std::string_view stat, int n) {
  const size_t comm_end = stat.rfind(')');
  if (comm_end == std::string_view::npos || n < 3) return std::nullopt;
  std::istringstream fields{std::string(stat.substr(comm_end + 1))};
  std::string f;
  for (int i = 3; i <= n; ++i) {
    if (!(fields >> f)) return std::nullopt;
  }
  return f;
}

std::optional<std::string> ProcStatField(pid_t pid, int n) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  if (!in) return std::nullopt;
  const std::string stat((std::istreambuf_iterator<char>(in)), {});
  return ProcStatFieldIn(stat, n);
}

}  // namespace otpu
