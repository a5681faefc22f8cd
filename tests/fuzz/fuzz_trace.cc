// libFuzzer target: trace records (as a card's buffer could hold them after any bit flip)
// through the tokenizer, the decoder and the hw profile builder. Input: 8 bytes of CYCLES
// (little-endian, negative = unknown), 1 byte of flags (bit0 keep last), then records.
// Regression: memory must follow the number of records, never a cycle number. The records fed
// in chunks must give what the whole buffer gives.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lens/build_hw_profile.h"
#include "workloads/isa/program.h"

namespace {

const otpu::isa::Program& FuzzProgram() {
  static const otpu::isa::Program* program = [] {
    using namespace otpu::isa;
    ProgramBuilder b;
    b.Vop({.fn = VopFn::kCOPY, .dst = At(4096), .a = At(0), .b = {}, .n = 256});
    b.Vop({.fn = VopFn::kCOPY, .dst = At(8192), .a = At(4096), .b = {}, .n = 64});
    return new Program(b.Finish());
  }();
  return *program;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace otpu::lens;
  if (size < 9) return 0;
  int64_t cycles = 0;
  std::memcpy(&cycles, data, 8);
  TraceRegisters regs;
  regs.cycles = cycles < 0 ? -1 : cycles;
  regs.keep_last = data[8] & 1;
  std::vector<otpu::trace::Record> records((size - 9) / 8);
  if (!records.empty()) std::memcpy(records.data(), data + 9, records.size() * 8);
  regs.count = int64_t(records.size());
  regs.depth = 16384;
  const otpu::isa::Config cfg = otpu::isa::Config::Sim();
  const otpu::StatusOr<Profile> whole =
      BuildHwProfile("fuzz", cfg, FuzzProgram(), records, regs, 64, "ideal");
  // The same records fed in chunks (sizes from the flags byte's upper bits, 1..8, then the
  // rest in one) must give the same profile or the same error (lens/build_hw_profile.h).
  HwProfileBuilder b(cfg, FuzzProgram(), regs.cycles);
  const size_t chunk = 1 + (data[8] >> 5);
  size_t at = 0;
  for (int i = 0; i < 16 && at < records.size(); ++i, at += chunk) {
    (void)b.Feed(records.data() + at, std::min(chunk, records.size() - at));
  }
  if (at < records.size()) (void)b.Feed(records.data() + at, records.size() - at);
  const otpu::StatusOr<Profile> chunked = b.Finish("fuzz", regs, 64, "ideal");
  if (whole.ok() != chunked.ok()) std::abort();
  if (whole.ok() && !(*whole == *chunked)) std::abort();
  if (!whole.ok() && whole.status().message() != chunked.status().message()) std::abort();
  return 0;
}
