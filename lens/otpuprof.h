// `.otpuprof` files: gzip-compressed profile JSON (SPEC 6, docs/profile.md).
#ifndef OTPU_LENS_OTPUPROF_H_
#define OTPU_LENS_OTPUPROF_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "lens/profile.h"
#include "lens/read_limits.h"
#include "base/status.h"

namespace otpu::lens {

// gzip level of written files, chosen by measurement (lens_bench's profile_io.gzip_levels,
// docs/profile.md): libdeflate's 2 is 9 % larger than its 6 and about 3 times faster; 3 and 4
// save 1-2 % more for a fifth to a third more time, 5 and 6 cost twice that again.
inline constexpr int kGzipLevel = 2;

// Writes `file` to `path` as gzip-compressed JSON. The data goes to `path.tmp.<pid>` first and
// is renamed over `path` only when complete, so `path` is never left half-written. Errors name
// the path (Internal for I/O, InvalidArgument for an unwritable value).
Status Write(const std::string& path, const ProfileFile& file);

// Reads a profile file, gzip-compressed (detected by the 1f 8b magic) or plain JSON, inflating
// while parsing, within `limits` (docs/profile.md). Errors start with `path`: NotFound /
// Internal for I/O, DataLoss for a file that is corrupt, not a profile, of a newer version or
// past a limit, Internal "out of memory" when this machine (or ulimit) runs out first.
StatusOr<ProfileFile> Read(const std::string& path, const ReadLimits& limits = ReadLimits());

// The same from bytes in memory (borrowed); `name` starts error messages.
StatusOr<ProfileFile> ReadBytes(std::string_view bytes, const std::string& name,
                                const ReadLimits& limits = ReadLimits());

// How many profile files this process has parsed (ReadBytes and Read calls, whatever their
// outcome): the tests check that `lens html` and `lens open` parse a file once.
int64_t ProfileFilesParsed();

}  // namespace otpu::lens

#endif  // OTPU_LENS_OTPUPROF_H_
