// libFuzzer target: a checkpoint's config.json. Hostile input must give an error, never a crash or runaway memory.
#include <cstddef>
#include <cstdint>
#include <string>

#include "workloads/models/qwen3_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)otpu::models::ParseQwen3Config(std::string(reinterpret_cast<const char*>(data), size),
                                       "config.json");
  return 0;
}
