// The otpu-xdma-emu command line of a card cell (host/xdma_emu/main.cc): the cell's
// configuration and DRAM model, so the emulated card runs what the in-process board model runs.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_EMULATOR_ARGS_H_
#define OTPU_HOST_PROGRAMS_REGRESS_EMULATOR_ARGS_H_

#include <string>
#include <vector>

#include "host/programs/regress/matrix.h"

namespace otpu::regress {

// The emulator's arguments for `cell` of `m`: --config, --regmap 2, --mem, --seed and the
// matrix's DRAM timing (--latency, --queue-beats, --beats-per-cycle) when it sets them.
std::vector<std::string> EmulatorArgs(const Matrix& m, const Cell& cell);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_EMULATOR_ARGS_H_
