#include "base/mountinfo.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace otpu {
namespace {

bool IsOctal(char c) { return c >= '0' && c <= '7'; }

}  // namespace

std::string UnescapeMountField(std::string_view field) {
  std::string out;
  out.reserve(field.size());
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size() && IsOctal(field[i + 1]) &&
        IsOctal(field[i + 2]) && IsOctal(field[i + 3])) {
      out.push_back(static_cast<char>((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 +
                                      (field[i + 3] - '0')));
      i += 3;
      continue;
    }
    out.push_back(field[i]);
  }
  return out;
}

std::vector<MountEntry> ParseMountInfo(std::string_view text) {
  std::vector<MountEntry> entries;
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    // id parent major:minor root mount-point options [optional...] - type source super-options
    std::istringstream fields(line);
    MountEntry e;
    std::string devno, root, mount_point, word;
    if (!(fields >> e.id >> e.parent_id >> devno >> root >> mount_point)) continue;
    while (fields >> word && word != "-") {
    }
    if (word != "-") continue;
    std::string type, source;
    fields >> type >> source;
    e.root = UnescapeMountField(root);
    e.mount_point = UnescapeMountField(mount_point);
    e.fs_type = UnescapeMountField(type);
    e.source = UnescapeMountField(source);
    entries.push_back(std::move(e));
  }
  return entries;
}

StatusOr<std::vector<MountEntry>> ReadMountInfo(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Internal("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return ParseMountInfo(text.str());
}

bool IsMountPoint(const std::string& path) {
  StatusOr<std::vector<MountEntry>> entries = ReadMountInfo();
  if (!entries.ok()) return false;
  for (const MountEntry& e : *entries) {
    if (e.mount_point == path) return true;
  }
  return false;
}

}  // namespace otpu
