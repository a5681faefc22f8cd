#include "lens/otpuprof.h"

#include <atomic>
#include <cstdio>
#include <new>

#include "lens/file_io.h"
#include "lens/gzip.h"
#include "lens/profile_json.h"

namespace otpu::lens {
namespace {

std::atomic<int64_t> files_parsed{0};

}  // namespace

int64_t ProfileFilesParsed() { return files_parsed.load(std::memory_order_relaxed); }

Status Write(const std::string& path, const ProfileFile& file) {
  StatusOr<std::string> json = ProfileFileToJson(file);
  if (!json.ok()) return json.status().WithContext(path);
  StatusOr<std::string> gz = GzipCompress(*json, kGzipLevel);
  if (!gz.ok()) return gz.status().WithContext(path);
  *json = std::string();  // the JSON text can be large: free it before the write

  return WriteFileAtomically(path, *gz);
}

StatusOr<ProfileFile> ReadBytes(std::string_view bytes, const std::string& name,
                                const ReadLimits& limits) {
  files_parsed.fetch_add(1, std::memory_order_relaxed);
  try {
    StatusOr<ProfileFile> file = ProfileFileFromBytes(bytes, limits);
    if (!file.ok()) return file.status().WithContext(name);
    return file;
  } catch (const std::bad_alloc&) {
    // The limits bound what a file may ask for, but not what this machine (or ulimit) has.
    return Internal(name + ": out of memory reading the profile (" +
                             std::to_string(bytes.size()) + " bytes of file)");
  }
}

StatusOr<ProfileFile> Read(const std::string& path, const ReadLimits& limits) {
  try {
    ASSIGN_OR_RETURN(std::string bytes, ReadWholeFile(path));
    return ReadBytes(bytes, path, limits);
  } catch (const std::bad_alloc&) {
    return Internal(path + ": out of memory reading the file");
  }
}

}  // namespace otpu::lens
