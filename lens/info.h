// `lens info`: a profile file summarised as text, one block per profile.
#ifndef OTPU_LENS_INFO_H_
#define OTPU_LENS_INFO_H_

#include <string>

#include "lens/profile.h"

namespace otpu::lens {

// Per profile: kind, name, cycles, roofline bound and efficiency, instruction count,
// configuration, card counters and trace losses when present, and the notes.
std::string InfoText(const ProfileFile& file, const std::string& path);

}  // namespace otpu::lens

#endif  // OTPU_LENS_INFO_H_
