#include "sim/rtl/rtl_configs.h"

#include <cstdint>

// The build lists the configurations it verilated (sim/rtl/CMakeLists.txt):
// OTPU_RTL_CONFIG_NAMES "sim", "board" and OTPU_RTL_DEFAULT_CONFIG "sim".
#if !defined(OTPU_RTL_CONFIG_NAMES) || !defined(OTPU_RTL_DEFAULT_CONFIG)
#error "OTPU_RTL_CONFIG_NAMES and OTPU_RTL_DEFAULT_CONFIG must be defined by the build"
#endif

namespace otpu::rtl {
namespace {

// The C++ side of a configuration name (SPEC 3.1 / isa::Config).
isa::Config Named(const std::string& name) {
  if (name == "board") return isa::Config::Board();
  OTPU_CHECK(name == "sim");  // a name in OTPU_RTL_CONFIGS without an isa::Config
  return isa::Config::Sim();
}

struct Field {
  const char* name;
  uint64_t (*get)(const isa::Config&);
};

// The hardware fields a model is built with, in the order a mismatch is reported.
const Field kFields[] = {
    {"D", [](const isa::Config& c) { return uint64_t(c.D); }},
    {"MCOLS", [](const isa::Config& c) { return uint64_t(c.MCOLS); }},
    {"LANES", [](const isa::Config& c) { return uint64_t(c.LANES); }},
    {"CL", [](const isa::Config& c) { return uint64_t(c.CL); }},
    {"WIN", [](const isa::Config& c) { return uint64_t(c.WIN); }},
    {"ACT_BLOCKS", [](const isa::Config& c) { return uint64_t(c.ACT_BLOCKS); }},
    {"ACT_ROWS", [](const isa::Config& c) { return uint64_t(c.ACT_ROWS); }},
    {"TMEM_WORDS", [](const isa::Config& c) { return uint64_t(c.TMEM_WORDS); }},
    {"IMEM_WORDS", [](const isa::Config& c) { return uint64_t(c.IMEM_WORDS); }},
    {"DRAM_BYTES", [](const isa::Config& c) { return c.DRAM_BYTES; }},
    {"FIFO_DEPTH", [](const isa::Config& c) { return uint64_t(c.FIFO_DEPTH); }},
    {"S", [](const isa::Config& c) { return uint64_t(c.S); }},
};

}  // namespace

isa::Config BuiltConfig() { return Named(OTPU_RTL_DEFAULT_CONFIG); }

std::vector<isa::Config> BuiltConfigs() {
  std::vector<isa::Config> out;
  for (const char* name : {OTPU_RTL_CONFIG_NAMES}) out.push_back(Named(name));
  return out;
}

std::string BuiltConfigNames() {
  std::string out;
  for (const isa::Config& c : BuiltConfigs()) out += (out.empty() ? "" : ", ") + c.name;
  return out;
}

StatusOr<isa::Config> BuiltConfigNamed(const std::string& name) {
  for (const isa::Config& c : BuiltConfigs()) {
    if (c.name == name) return c;
  }
  return InvalidArgument("RTL configuration '" + name + "' is not built (built: " +
                         BuiltConfigNames() + ")");
}

StatusOr<std::string> SelectBuiltConfig(const isa::Config& cfg) {
  std::vector<isa::Config> left = BuiltConfigs();
  for (const Field& f : kFields) {
    std::vector<isa::Config> same;
    for (const isa::Config& c : left) {
      if (f.get(c) == f.get(cfg)) same.push_back(c);
    }
    if (same.empty()) {
      std::string have;
      for (const isa::Config& c : left) {
        have += (have.empty() ? "" : ", ") + c.name + " has " + f.name + "=" +
                std::to_string(f.get(c));
      }
      return InvalidArgument(std::string("config ") + f.name + "=" + std::to_string(f.get(cfg)) +
                             " matches no RTL model of this build (" + have + ")");
    }
    left = std::move(same);
  }
  return left.front().name;
}

}  // namespace otpu::rtl
