// Whole-file reads and atomic writes (temp name + rename) for everything Lens writes.
#ifndef OTPU_LENS_FILE_IO_H_
#define OTPU_LENS_FILE_IO_H_

#include <string>
#include <string_view>

#include "base/status.h"
#include "base/unique_fd.h"

namespace otpu::lens {

// The whole regular file at `path`; NotFound or Internal naming it, DataLoss for anything
// but a regular file (a FIFO, a device, a directory).
StatusOr<std::string> ReadWholeFile(const std::string& path);

// Opens `path` for reading when it is a regular file (the check is on the opened file, so a
// later swap of the path changes nothing); the same errors as ReadWholeFile.
StatusOr<UniqueFd> OpenRegularFile(const std::string& path);

// The whole contents of the open file `fd` from offset 0, by pread, so the same descriptor
// can be read again (and from several threads); errors name `path`.
StatusOr<std::string> ReadWholeFd(int fd, const std::string& path);

// Writes `data` to `path` through `path.tmp.<pid>` and a rename, so `path` is never half
// written; on failure the temporary is removed and the error names the path.
Status WriteFileAtomically(const std::string& path, std::string_view data);

}  // namespace otpu::lens

#endif  // OTPU_LENS_FILE_IO_H_
