// Helpers for the models_io tests: a scratch directory and raw file writers for building
// damaged inputs byte by byte.
#ifndef OTPU_WORKLOADS_MODELS_IO_TEST_UTIL_H_
#define OTPU_WORKLOADS_MODELS_IO_TEST_UTIL_H_

#include <string>

#include "workloads/models/qwen3_weights.h"

namespace otpu::models {

// A fresh directory under $TMPDIR (or /tmp), removed with its contents on destruction.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // The directory's path.
  const std::string& path() const { return path_; }
  // path() + "/" + name.
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Writes `bytes` to `path` (test setup; aborts the test binary on failure).
void WriteRaw(const std::string& path, const std::string& bytes);
// Reads `path` whole (aborts on failure).
std::string ReadRaw(const std::string& path);
// RandomQwen3(Qwen3Config::Tiny(), 0), built once per test binary.
const Qwen3Weights& QwenTinyWeights();
// A safetensors file image: the 8-byte length of `header`, `header`, then `data`.
std::string SafetensorsImage(const std::string& header, const std::string& data);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_IO_TEST_UTIL_H_
