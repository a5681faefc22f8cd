// The JSON form of a profile file (SPEC 6, docs/profile.md), without compression.
#ifndef OTPU_LENS_PROFILE_JSON_H_
#define OTPU_LENS_PROFILE_JSON_H_

#include <string>
#include <string_view>

#include "lens/profile.h"
#include "lens/read_limits.h"
#include "base/status.h"

namespace otpu::lens {

// Serializes `file` as compact JSON (streaming writer, no DOM). InvalidArgument when a number
// cannot be written (NaN or infinity), naming its key.
StatusOr<std::string> ProfileFileToJson(const ProfileFile& file);

// Parses a profile file from JSON text, within the default ReadLimits.
// Rejects another `format`, a newer `version`, invalid JSON (naming the byte offset), missing
// required keys and wrong types (naming the key path, e.g. "profiles[0].instrs[3]"); optional
// keys take their defaults. Every failure is DataLoss.
StatusOr<ProfileFile> ProfileFileFromJson(std::string_view text);

// Parses a profile file from its bytes (gzip, detected by the 1f 8b magic, or plain JSON),
// inflating while parsing, within `limits`: the same checks as ProfileFileFromJson, and
// DataLoss naming the limit when the text, an array or the file's values exceed it.
StatusOr<ProfileFile> ProfileFileFromBytes(std::string_view bytes, const ReadLimits& limits);

}  // namespace otpu::lens

#endif  // OTPU_LENS_PROFILE_JSON_H_
