// The one place a program picks its board (STYLE 9): the board model (SimBoard) for
// `otpu-lens record --sim` and for what otpu-xdma-emu serves, the XDMA card (XdmaBoard) for
// `--dev`. Everything past here sees only BoardIface.
#ifndef OTPU_HOST_PROGRAMS_BOARD_FACTORY_H_
#define OTPU_HOST_PROGRAMS_BOARD_FACTORY_H_

#include <memory>
#include <optional>
#include <string>

#include "host/board_iface.h"
#include "sim/rtl/core_cycle.h"
#include "sim/rtl/dram_model.h"
#include "base/status.h"

namespace otpu::host {

struct BoardChoice {
  bool sim = false;                // the Verilator board model (SimBoard)
  std::string dev = "/dev/xdma0";  // the card's XDMA device prefix, when not sim
  // Board model only: register-map version (2, or 1 as an old bitstream has) and the percent
  // of DRAM cycles that withhold ready (seeded).
  int regmap = 2;
  int stall_percent = 0;
  // Board model only: the RTL configuration by name (`--config sim|board`: a Verilated board
  // of this build, sim/rtl/rtl_configs.h); empty for the build's default (rtl::BuiltConfig()).
  // A card's configuration is its bitstream's: the host reads it from VERSION.
  std::string config = {};
  // Board model only: the whole DRAM model (memory kind, stalls, seed, timing) instead of the
  // default two-channel one with `stall_percent`.
  std::optional<rtl::DramOptions> mem = std::nullopt;
  // Board model only: the core's lossless event tap (the `rtl` path), borrowed; for the
  // regression runner's parity verdict and tests.
  rtl::ClockHook* hook = nullptr;
};

// The board. For a card, XdmaBoard::Create's errors (NotFound naming the missing device
// file, Internal naming the file and errno); for the model, SimBoard::Create's and
// InvalidArgument naming an unknown `config` and the configurations built.
StatusOr<std::unique_ptr<BoardIface>> MakeBoard(const BoardChoice& choice);

// config.MEM of profiles recorded on the board: the model's DRAM ("axi") or "card".
std::string BoardMemoryName(const BoardChoice& choice);

}  // namespace otpu::host

#endif  // OTPU_HOST_PROGRAMS_BOARD_FACTORY_H_
