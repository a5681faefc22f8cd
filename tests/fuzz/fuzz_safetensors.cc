// libFuzzer target: a safetensors file (8-byte header length, JSON header, data) opened and
// every tensor read as floats. Hostile input must give an error, never a crash, a hang or runaway memory.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "workloads/models/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const int fd = ::memfd_create("fuzz.safetensors", 0);
  if (fd < 0 || ::ftruncate(fd, 0) != 0) return 0;
  if (size > 0 && ::pwrite(fd, data, size, 0) != ssize_t(size)) return 0;
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  auto file = otpu::models::SafetensorsFile::Open(path);
  if (!file.ok()) return 0;
  for (const auto& [name, info] : (*file)->tensors()) {
    if (info.NumElements() <= (1 << 20)) (void)(*file)->ReadFloat(name, {});
  }
  return 0;
}
