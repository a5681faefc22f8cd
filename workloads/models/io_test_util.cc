#include "workloads/models/io_test_util.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/status.h"

namespace otpu::models {

ScratchDir::ScratchDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmp != nullptr && *tmp ? tmp : "/tmp") + "/otpu_models_XXXXXX";
  OTPU_CHECK(::mkdtemp(tmpl.data()) != nullptr);
  path_ = tmpl;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void WriteRaw(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  OTPU_CHECK(out.good());
}

std::string ReadRaw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  OTPU_CHECK(in.good());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const Qwen3Weights& QwenTinyWeights() {
  static const Qwen3Weights weights = RandomQwen3(Qwen3Config::Tiny(), 0);
  return weights;
}

std::string SafetensorsImage(const std::string& header, const std::string& data) {
  const uint64_t len = header.size();
  return std::string(reinterpret_cast<const char*>(&len), 8) + header + data;
}

}  // namespace otpu::models
