#include "lens/otpuprof.h"

#include <cstdio>

#include "lens/file_io.h"
#include "lens/gzip.h"
#include "lens/profile_json.h"

namespace otpu::lens {
Status Write(const std::string& path, const ProfileFile& file) {
  StatusOr<std::string> json = ProfileFileToJson(file);
  if (!json.ok()) return json.status().WithContext(path);
  StatusOr<std::string> gz = GzipCompress(*json, kGzipLevel);
  if (!gz.ok()) return gz.status().WithContext(path);
  *json = std::string();  // the JSON text can be large: free it before the write

  return WriteFileAtomically(path, *gz);
}

StatusOr<ProfileFile> ReadBytes(std::string bytes, const std::string& name) {
  if (IsGzip(bytes)) {
    StatusOr<std::string> inflated = GzipDecompress(bytes);
    if (!inflated.ok()) return inflated.status().WithContext(name);
    bytes = std::move(inflated).value();
  }
  StatusOr<ProfileFile> file = ProfileFileFromJson(std::move(bytes));
  if (!file.ok()) return file.status().WithContext(name);
  return file;
}

StatusOr<ProfileFile> Read(const std::string& path) {
  ASSIGN_OR_RETURN(std::string bytes, ReadWholeFile(path));
  return ReadBytes(std::move(bytes), path);
}

}  // namespace otpu::lens
