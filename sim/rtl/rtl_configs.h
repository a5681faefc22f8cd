// The RTL configurations this build has Verilated models of (SPEC 3.1: `sim` and `board`,
// listed once in rtl/core/otpu_core_sources.cmake, OTPU_RTL_CONFIGS), and how a run's
// isa::Config selects one. Every build has a bare-core model (RtlHarness) and a board model
// (BoardModel, SimBoard) of each; the harness, the board model and the programs pick theirs
// per run from the isa::Config they are given. C++17 (the SystemC units include it).
#ifndef OTPU_SIM_RTL_RTL_CONFIGS_H_
#define OTPU_SIM_RTL_RTL_CONFIGS_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "workloads/isa/config.h"

namespace otpu::rtl {

// The default configuration (the cache option OTPU_RTL_CONFIG, `sim` unless configured
// otherwise): what tests and programs use when they name none.
isa::Config BuiltConfig();

// Every configuration with Verilated models in this build, in OTPU_RTL_CONFIGS order.
std::vector<isa::Config> BuiltConfigs();

// "sim, board": the names of BuiltConfigs(), for messages and --help.
std::string BuiltConfigNames();

// The built configuration called `name` (`--config NAME`); InvalidArgument naming the
// built ones otherwise.
StatusOr<isa::Config> BuiltConfigNamed(const std::string& name);

// The name of the built configuration whose hardware fields (D, MCOLS, LANES, CL, WIN,
// ACT_BLOCKS, ACT_ROWS, TMEM_WORDS, IMEM_WORDS, DRAM_BYTES, FIFO_DEPTH, S) all equal `cfg`'s
// (its `name` and `MEM` do not matter). Otherwise InvalidArgument naming the first field, in
// that order, that no remaining candidate has: "config D=64 matches no RTL model of this
// build (sim has D=32, board has D=128)".
StatusOr<std::string> SelectBuiltConfig(const isa::Config& cfg);

}  // namespace otpu::rtl

#endif  // OTPU_SIM_RTL_RTL_CONFIGS_H_
