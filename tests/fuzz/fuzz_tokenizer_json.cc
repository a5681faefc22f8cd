// libFuzzer target: a checkpoint's tokenizer.json, then an encode through what it set up
// (its pre-tokenizer patterns run in PCRE2). Hostile input must give an error, never a crash or a hang.
#include <cstddef>
#include <cstdint>
#include <string>

#include "workloads/models/tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto t = otpu::models::Tokenizer::FromJson(
      std::string(reinterpret_cast<const char*>(data), size), "tokenizer.json");
  if (!t.ok()) return 0;
  (void)(*t)->Encode("What is the capital of France? 12345 <|im_end|>");
  return 0;
}
