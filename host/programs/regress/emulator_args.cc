#include "host/programs/regress/emulator_args.h"

#include "base/strings.h"

namespace otpu::regress {

std::vector<std::string> EmulatorArgs(const Matrix& m, const Cell& cell) {
  const rtl::DramOptions mem = m.DramOf(cell);
  std::vector<std::string> args = {"--config", cell.config, "--regmap", "2", "--mem", cell.memory.Name(), "--seed",
                                   std::to_string(mem.seed)};
  if (m.dram.latency > 0) args.insert(args.end(), {"--latency", std::to_string(m.dram.latency)});
  if (m.dram.queue_beats > 0) {
    args.insert(args.end(), {"--queue-beats", std::to_string(m.dram.queue_beats)});
  }
  if (m.dram.beats_per_cycle > 0) {
    args.insert(args.end(), {"--beats-per-cycle", StrFormat("%.17g", m.dram.beats_per_cycle)});
  }
  return args;
}

}  // namespace otpu::regress
