// The JSON form of a profile file (SPEC 6, docs/profile.md), without compression.
#ifndef OTPU_LENS_PROFILE_JSON_H_
#define OTPU_LENS_PROFILE_JSON_H_

#include <string>

#include "lens/profile.h"
#include "base/status.h"

namespace otpu::lens {

// Serializes `file` as compact JSON (streaming writer, no DOM). InvalidArgument when a number
// cannot be written (NaN or infinity), naming its key.
StatusOr<std::string> ProfileFileToJson(const ProfileFile& file);

// Parses a profile file from JSON. `text` is parsed in place (strings are not copied twice).
// Rejects another `format`, a newer `version`, invalid JSON (naming the byte offset), missing
// required keys and wrong types (naming the key path, e.g. "profiles[0].instrs[3]"); optional
// keys take their defaults. Every failure is DataLoss.
StatusOr<ProfileFile> ProfileFileFromJson(std::string text);

}  // namespace otpu::lens

#endif  // OTPU_LENS_PROFILE_JSON_H_
