// libFuzzer target: the .otpuprof reader (gzip or plain JSON) and what every command does with
// a profile it read (info text, the overview's analysis). Hostile input must give an error, never a crash, a hang or runaway memory.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lens/attribution.h"
#include "lens/info.h"
#include "lens/otpuprof.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace otpu::lens;
  otpu::StatusOr<ProfileFile> file = ReadBytes(std::string(reinterpret_cast<const char*>(data), size),
                                         "fuzz.otpuprof");
  if (!file.ok()) return 0;
  (void)InfoText(*file, "fuzz.otpuprof");
  for (const Profile& p : file->profiles) (void)Analyze(p);
  return 0;
}
