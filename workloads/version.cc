#include "workloads/version.h"

#include <cstdio>
#include <cstring>

#include "workloads/isa/defs.h"

namespace otpu {
namespace version_gen {
extern const char kGitDescribe[];  // build/workloads/version_git.cc
extern const char kRtlConfigs[];
}  // namespace version_gen

const std::string& VersionString() {
  // Map 1 is an old bitstream without REGMAP; the current map is the ISA's definition.
  static const std::string s = std::string("otpu ") + version_gen::kGitDescribe +
                               " (rtl configurations: " + version_gen::kRtlConfigs +
                               "; register maps: 1 " + std::to_string(isa::kREGMAP_VERSION) + ")";
  return s;
}

bool PrintVersionIfAsked(const char* program, int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--version") != 0) return false;
  std::printf("%s %s\n", program, VersionString().c_str());
  return true;
}

}  // namespace otpu
