#include "host/lock/prebuild.h"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <vector>

#include "host/lock/command_runner.h"
#include "host/lock/model_dir.h"

namespace otpu::host {
namespace {

constexpr std::array<const char*, 4> kWeightFormats = {"int8", "int4", "fp4", "mix"};
constexpr std::array<const char*, 4> kHeadFormats = {"int8", "int4", "fp4", "-"};
// otpu-prebuild's --config values (workloads/models/prebuild.h).
constexpr std::array<const char*, 2> kConfigs = {"sim", "board"};
// Prebuilds only use idle CPU: they run beside somebody else's card run.
constexpr int kPrebuildNice = 19;

template <size_t N>
bool OneOf(const std::string& value, const std::array<const char*, N>& allowed) {
  for (const char* a : allowed) {
    if (value == a) return true;
  }
  return false;
}

}  // namespace

StatusOr<PrebuildSpec> ParsePrebuildSpec(const std::string& text) {
  const std::string where = "--prebuild '" + text + "'";
  size_t last = text.rfind(':');
  size_t middle = last == std::string::npos || last == 0 ? std::string::npos : text.rfind(':', last - 1);
  if (middle == std::string::npos) return InvalidArgument(where + ": expected MODEL:WF:HF");
  PrebuildSpec spec{text.substr(0, middle), text.substr(middle + 1, last - middle - 1),
                    text.substr(last + 1)};
  if (spec.model.empty()) return InvalidArgument(where + ": MODEL is empty");
  if (!OneOf(spec.weight_format, kWeightFormats)) {
    return InvalidArgument(where + ": WF '" + spec.weight_format + "' is not int8|int4|fp4|mix");
  }
  if (!OneOf(spec.head_format, kHeadFormats)) {
    return InvalidArgument(where + ": HF '" + spec.head_format + "' is not int8|int4|fp4|-");
  }
  return spec;
}

Status ValidatePrebuildConfig(const std::string& cfg) {
  if (cfg.empty() || OneOf(cfg, kConfigs)) return OkStatus();
  return InvalidArgument("--config '" + cfg + "' is not a card configuration: sim|board");
}

StatusOr<PrebuildSpec> ResolvePrebuildModel(PrebuildSpec spec) {
  if (spec.model != kDefaultModelName) return spec;
  ASSIGN_OR_RETURN(spec.model, FindDefaultModelDir(SelfExecutable()));
  return spec;
}

std::string PrebuildProgram() {
  const char* program = std::getenv(kPrebuildEnv);
  if (program && *program) return program;
  std::vector<char> self(4096);
  ssize_t n = ::readlink("/proc/self/exe", self.data(), self.size() - 1);
  if (n <= 0) return "otpu-prebuild";  // found through PATH instead
  std::string dir(self.data(), static_cast<size_t>(n));
  return dir.substr(0, dir.rfind('/') + 1) + "otpu-prebuild";
}

Status RunPrebuild(const std::string& program, const PrebuildSpec& spec, const std::string& cfg) {
  std::vector<std::string> argv = {program, spec.ToString()};
  if (!cfg.empty()) {
    argv.push_back("--config");
    argv.push_back(cfg);
  }
  CommandOptions options;
  options.nice = kPrebuildNice;
  StatusOr<int> exit_code = RunCommand(argv, options);
  if (!exit_code.ok()) return exit_code.status();
  if (*exit_code != 0) {
    return Internal("'" + program + "' exited with status " + std::to_string(*exit_code));
  }
  return OkStatus();
}

}  // namespace otpu::host
