// Whole-file reads and atomic writes (temp name + rename) for everything Lens writes.
#ifndef OTPU_LENS_FILE_IO_H_
#define OTPU_LENS_FILE_IO_H_

#include <string>
#include <string_view>

#include "base/status.h"

namespace otpu::lens {

// The whole regular file at `path`; NotFound or Internal naming it, DataLoss for anything
// but a regular file (a FIFO, a device, a directory).
StatusOr<std::string> ReadWholeFile(const std::string& path);

// Writes `data` to `path` through `path.tmp.<pid>` and a rename, so `path` is never half
// written; on failure the temporary is removed and the error names the path.
Status WriteFileAtomically(const std::string& path, std::string_view data);

}  // namespace otpu::lens

#endif  // OTPU_LENS_FILE_IO_H_
