// Serves an EmulatedXdma as files through FUSE 3 (the high-level API, one thread: the board
// behind it is not thread safe). The files use direct I/O, so every read and write reaches the
// emulator with its own offset and size, as they reach the driver; the file position is never
// used.
#ifndef OTPU_HOST_XDMA_EMU_FUSE_SERVER_H_
#define OTPU_HOST_XDMA_EMU_FUSE_SERVER_H_

#include <functional>
#include <string>

#include "host/xdma_emu/emulated_xdma.h"
#include "base/status.h"

namespace otpu::xdma_emu {

// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread, and so in every thread it starts
// later; ServeDevice takes them with sigwait. Call it before anything starts threads (the
// board model's SystemC kernel does), or a thread that has them unblocked dies of them.
void BlockStopSignals();

// Mounts the three device files at `mountpoint` (an absolute path to an empty directory) and
// serves them on this thread until SIGINT, SIGTERM or SIGHUP arrives or the file system is
// unmounted from outside; then unmounts. `on_mounted` runs once, after the mount exists and
// before the first request is served (a request made earlier waits for it). `device` is
// borrowed. Internal when the mount fails (libfuse's reason is on stderr) or the loop fails.
Status ServeDevice(const std::string& mountpoint, EmulatedXdma* device,
                   const std::function<void()>& on_mounted);

}  // namespace otpu::xdma_emu

#endif  // OTPU_HOST_XDMA_EMU_FUSE_SERVER_H_
