// `lens summary`: per profile the overview (cycles, time, roofline, port-B busy, MACs per cycle,
// unit utilisation, TMEM losses, findings, instruction classes) and where port B's cycles went,
// as text for people or JSON for scripts (docs/lens-app.md).
#ifndef OTPU_LENS_SUMMARY_H_
#define OTPU_LENS_SUMMARY_H_

#include <string>

#include "lens/profile.h"

namespace otpu::lens {

// The summary as aligned text; `path` names the file in the first line.
std::string SummaryText(const ProfileFile& file, const std::string& path);

// The same as one JSON object: {"file", "profiles": [{name, kind, cycles, ..., "cycles_went":
// {stream: cycles, ...}, "classes": [...]}]}.
std::string SummaryJson(const ProfileFile& file, const std::string& path);

}  // namespace otpu::lens

#endif  // OTPU_LENS_SUMMARY_H_
