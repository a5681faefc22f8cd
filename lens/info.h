// `lens info`: a profile file summarised as text, one block per profile, or as JSON.
#ifndef OTPU_LENS_INFO_H_
#define OTPU_LENS_INFO_H_

#include <string>

#include "lens/profile.h"

namespace otpu::lens {

// Per profile: kind, name, cycles, roofline bound and efficiency, instruction count,
// configuration, card counters and trace losses when present, and the notes.
std::string InfoText(const ProfileFile& file, const std::string& path);

// `lens info --json`: the same facts as one JSON object, one line, fields stable across
// releases (docs/cli.md "lens info --json" lists them): file, format, version, created, tool,
// tool_version, and per profile index, name, kind, cycles, clock_mhz, time_us, roofline
// {bound, efficiency}, instructions, macs, peak_macs, bytes, peak_bytes, config {S, D, MCOLS,
// LANES, CL, WIN, ACT_BLOCKS, TMEM_WORDS, IMEM_WORDS, DRAM_BYTES, FIFO_DEPTH, MEM}, board
// ({NAME: value} or null), hwtrace ({records, count, depth, keep, drop, lost, damaged,
// wrapped, complete} or null), notes [{level, text}].
std::string InfoJson(const ProfileFile& file, const std::string& path);

}  // namespace otpu::lens

#endif  // OTPU_LENS_INFO_H_
