// The mount point otpu-xdma-emu takes: an existing, empty directory that nothing is mounted
// on. Anything else is refused before the board is built, so a second emulator cannot hide
// the first one's files and a mount never covers somebody's data.
#ifndef OTPU_HOST_XDMA_EMU_MOUNTPOINT_H_
#define OTPU_HOST_XDMA_EMU_MOUNTPOINT_H_

#include <string>

#include "base/status.h"

namespace otpu::xdma_emu {

// The absolute path of `path` when it can take the mount. NotFound when it does not exist;
// InvalidArgument when it is not a directory; Unavailable (busy) when something is mounted
// on it (a dead FUSE mount included) or it is not empty. Messages name the path.
StatusOr<std::string> CheckMountpoint(const std::string& path);

}  // namespace otpu::xdma_emu

#endif  // OTPU_HOST_XDMA_EMU_MOUNTPOINT_H_
