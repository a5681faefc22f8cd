#include "host/xdma_emu/fuse_server.h"

#define FUSE_USE_VERSION 31
#include <fuse.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>

namespace otpu::xdma_emu {
namespace {

constexpr DeviceFile kFiles[] = {DeviceFile::kUser, DeviceFile::kH2c, DeviceFile::kC2h};

EmulatedXdma* Device() { return static_cast<EmulatedXdma*>(fuse_get_context()->private_data); }

// The device file a path names ("/xdma0_user" ...), if any.
std::optional<DeviceFile> FileAt(const char* path) {
  if (path[0] != '/') return std::nullopt;
  for (DeviceFile file : kFiles) {
    if (DeviceFileName(file) == path + 1) return file;
  }
  return std::nullopt;
}

void* Init(struct fuse_conn_info* conn, struct fuse_config* cfg) {
  cfg->direct_io = 1;     // every read/write reaches us with its offset and size
  cfg->kernel_cache = 0;
  return fuse_get_context()->private_data;
}

int GetAttr(const char* path, struct stat* st, struct fuse_file_info* fi) {
  std::memset(st, 0, sizeof(*st));
  st->st_uid = ::getuid();
  st->st_gid = ::getgid();
  if (std::strcmp(path, "/") == 0) {
    st->st_mode = S_IFDIR | 0755;
    st->st_nlink = 2;
    return 0;
  }
  std::optional<DeviceFile> file = FileAt(path);
  if (!file) return -ENOENT;
  st->st_mode = S_IFREG | 0666;
  st->st_nlink = 1;
  st->st_size = static_cast<off_t>(EmulatedXdma::FileSize(*file));
  return 0;
}

int ReadDir(const char* path, void* buf, fuse_fill_dir_t fill, off_t offset,
            struct fuse_file_info* fi, enum fuse_readdir_flags flags) {
  if (std::strcmp(path, "/") != 0) return -ENOENT;
  fill(buf, ".", nullptr, 0, static_cast<fuse_fill_dir_flags>(0));
  fill(buf, "..", nullptr, 0, static_cast<fuse_fill_dir_flags>(0));
  for (DeviceFile file : kFiles) {
    fill(buf, DeviceFileName(file).c_str(), nullptr, 0, static_cast<fuse_fill_dir_flags>(0));
  }
  return 0;
}

int Open(const char* path, struct fuse_file_info* fi) {
  std::optional<DeviceFile> file = FileAt(path);
  if (!file) return -ENOENT;
  fi->fh = static_cast<uint64_t>(*file);
  fi->direct_io = 1;
  fi->keep_cache = 0;
  return 0;
}

int Read(const char* path, char* buf, size_t size, off_t offset, struct fuse_file_info* fi) {
  return static_cast<int>(
      Device()->Read(static_cast<DeviceFile>(fi->fh), buf, size, static_cast<uint64_t>(offset)));
}

int Write(const char* path, const char* buf, size_t size, off_t offset,
          struct fuse_file_info* fi) {
  return static_cast<int>(
      Device()->Write(static_cast<DeviceFile>(fi->fh), buf, size, static_cast<uint64_t>(offset)));
}

// Opening with O_TRUNC or touching a device file changes nothing, as on a character device.
int Truncate(const char* path, off_t size, struct fuse_file_info* fi) {
  return FileAt(path) ? 0 : -ENOENT;
}
int Utimens(const char* path, const struct timespec tv[2], struct fuse_file_info* fi) {
  return FileAt(path) ? 0 : -ENOENT;
}

struct fuse_operations Operations() {
  struct fuse_operations ops;
  std::memset(&ops, 0, sizeof(ops));
  ops.init = Init;
  ops.getattr = GetAttr;
  ops.readdir = ReadDir;
  ops.open = Open;
  ops.read = Read;
  ops.write = Write;
  ops.truncate = Truncate;
  ops.utimens = Utimens;
  return ops;
}

sigset_t StopSignals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, sig);
  return set;
}

// Stops the FUSE loop on SIGINT, SIGTERM or SIGHUP. libfuse's own handlers only set a flag
// that the loop reads between requests, so a signal that lands just before the loop blocks in
// read() on /dev/fuse is not seen until the next request, which may never come. Here the
// signals are blocked (in every thread: see BlockStopSignals) and taken by sigwait in a thread of their own,
// which ends the session and then interrupts the serving thread's read (SIGUSR1, no
// SA_RESTART) until the loop has returned.
class SignalStopper {
 public:
  explicit SignalStopper(struct fuse* fuse) : fuse_(fuse) {
    stop_signals_ = StopSignals();
    struct sigaction kick {};
    kick.sa_handler = [](int) {};  // only interrupts a blocking read
    sigemptyset(&kick.sa_mask);
    sigaction(SIGUSR1, &kick, nullptr);
    BlockStopSignals();
    server_ = pthread_self();
    waiter_ = std::thread([this] { Wait(); });
  }
  // Call once the loop has returned.
  ~SignalStopper() {
    loop_done_ = true;
    pthread_kill(waiter_.native_handle(), SIGHUP);  // wakes sigwait if no signal came
    waiter_.join();
  }

 private:
  void Wait() {
    int sig = 0;
    sigwait(&stop_signals_, &sig);
    if (loop_done_) return;
    fuse_exit(fuse_);
    while (!loop_done_) {
      pthread_kill(server_, SIGUSR1);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  struct fuse* fuse_;
  sigset_t stop_signals_;
  pthread_t server_;
  std::atomic<bool> loop_done_{false};
  std::thread waiter_;
};

}  // namespace

void BlockStopSignals() {
  const sigset_t set = StopSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

Status ServeDevice(const std::string& mountpoint, EmulatedXdma* device,
                   const std::function<void()>& on_mounted) {
  struct fuse_args args = FUSE_ARGS_INIT(0, nullptr);
  fuse_opt_add_arg(&args, "otpu-xdma-emu");
  // Root mounts for every user, as the driver's device files serve every user udev lets in.
  const char* mount_options = ::geteuid() == 0
                                  ? "-ofsname=otpu-xdma-emu,subtype=otpu-xdma-emu,allow_other"
                                  : "-ofsname=otpu-xdma-emu,subtype=otpu-xdma-emu";
  fuse_opt_add_arg(&args, mount_options);
  const struct fuse_operations ops = Operations();
  struct fuse* fuse = fuse_new(&args, &ops, sizeof(ops), device);
  fuse_opt_free_args(&args);
  if (!fuse) return Internal("FUSE: cannot create the file system (libfuse says why above)");
  std::optional<SignalStopper> stopper(std::in_place, fuse);
  if (fuse_mount(fuse, mountpoint.c_str()) != 0) {
    stopper.reset();
    fuse_destroy(fuse);
    return Internal(mountpoint + ": FUSE mount failed (libfuse says why above; is /dev/fuse "
                                 "there and fusermount3 installed?)");
  }
  on_mounted();
  const int loop = fuse_loop(fuse);
  stopper.reset();
  fuse_unmount(fuse);
  fuse_destroy(fuse);
  if (loop < 0) return Internal(mountpoint + ": FUSE loop failed: " + std::strerror(-loop));
  return OkStatus();
}

}  // namespace otpu::xdma_emu
