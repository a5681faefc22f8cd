#include "lens/info.h"

#include <cstdio>

#include "base/strings.h"

namespace otpu::lens {
namespace {

std::string ConfigLine(const ProfileConfig& c) {
  return StrFormat(
      "S=%d D=%d MCOLS=%d LANES=%d CL=%d WIN=%d ACT_BLOCKS=%d TMEM_WORDS=%lld "
      "IMEM_WORDS=%lld DRAM_BYTES=%lld FIFO_DEPTH=%d MEM=%s",
      c.S, c.D, c.MCOLS, c.LANES, c.CL, c.WIN, c.ACT_BLOCKS, (long long)c.TMEM_WORDS,
      (long long)c.IMEM_WORDS, (long long)c.DRAM_BYTES, c.FIFO_DEPTH, c.MEM.c_str());
}

std::string ProfileBlock(const Profile& p, size_t index) {
  std::string s = StrFormat("profile %zu: %s (%s)\n", index, p.name.c_str(), KindName(p.kind));
  double us = p.clock_mhz > 0 ? double(p.cycles) / p.clock_mhz : 0;
  s += StrFormat("  cycles        %lld (%.1f us at %g MHz)\n", (long long)p.cycles, us, p.clock_mhz);
  s += StrFormat("  roofline      bound %lld cycles, efficiency %.1f%%\n", (long long)p.roofline.bound,
           100 * p.roofline.efficiency);
  s += StrFormat("  instructions  %zu\n", p.instrs.size());
  s += StrFormat("  macs          %lld (peak %lld/cycle), DRAM bytes %lld (peak %lld/cycle)\n",
           (long long)p.macs, (long long)p.peak_macs, (long long)p.bytes, (long long)p.peak_bytes);
  s += "  config        " + ConfigLine(p.config) + "\n";
  if (p.board) {
    s += "  board        ";
    for (const CounterValue& c : *p.board) s += StrFormat(" %s=%lld", c.name.c_str(), (long long)c.value);
    s += "\n";
  }
  if (p.hwtrace) {
    const HwTrace& t = *p.hwtrace;
    s += StrFormat("  hwtrace       %lld records of %lld (depth %lld, keep %s), drop %lld, lost %lld%s%s\n",
             (long long)t.records, (long long)t.count, (long long)t.depth, t.keep.c_str(),
             (long long)t.drop, (long long)t.lost,
             t.damaged > 0 ? StrFormat(", damaged %lld", (long long)t.damaged).c_str() : "",
             t.complete ? ", complete" : ", incomplete");
  }
  s += "  notes\n";
  for (const Note& n : p.notes) s += StrFormat("    [%s] ", NoteLevelName(n.level)) + n.text + "\n";
  return s;
}

}  // namespace

std::string InfoText(const ProfileFile& file, const std::string& path) {
  std::string s = path + ": " + file.format + " version " + std::to_string(file.version) + ", " +
                  std::to_string(file.profiles.size()) + " profile" +
                  (file.profiles.size() == 1 ? "" : "s") + ", written " +
                  (file.created.empty() ? "(unknown)" : file.created) + " by " + file.tool +
                  (file.tool_version.empty() ? "" : " (" + file.tool_version + ")") + "\n";
  for (size_t i = 0; i < file.profiles.size(); ++i) s += ProfileBlock(file.profiles[i], i);
  return s;
}

}  // namespace otpu::lens
