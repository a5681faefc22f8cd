// SimBoard: the board model as a BoardIface (SPEC 3.5). A SystemC simulation (TLM-2.0, loosely
// timed): the Verilated board (BoardModel) runs inside one SystemC process in quanta of cycles
// and synchronises at every host access; the two-channel DRAM model serves its ports by direct
// calls; host register accesses and DMA arrive as blocking transactions through sockets. A
// register access costs the core cycles a PCIe read would (about 1 us), a DMA read of the
// trace window what an XDMA transfer would (a 2 us setup, then 3.2 GB/s).
// Used by Card, the recorder and the xdma emulator through BoardIface.
#ifndef OTPU_SIM_BOARD_SIM_BOARD_H_
#define OTPU_SIM_BOARD_SIM_BOARD_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "host/board_iface.h"
#include "sim/rtl/core_cycle.h"
#include "sim/rtl/dram_model.h"
#include "sim/rtl/rtl_configs.h"
#include "base/status.h"

namespace otpu::board {

struct SimBoardOptions {
  // The RTL configuration of the board: any isa::Config a Verilated board of this build has
  // (sim/rtl/rtl_configs.h, SelectBuiltConfig: `sim` or `board`); the default is the build's
  // default (rtl::BuiltConfig()). Its DRAM_BYTES and D size the board's DRAM.
  isa::Config config = rtl::BuiltConfig();
  // The board's DRAM: two channels, latency, bandwidth cap, stalls (axi = true).
  rtl::DramOptions mem = DefaultMemory();
  int quantum_cycles = 256;      // temporal decoupling: cycles a quantum runs ahead (>= 1)
  int reg_access_ns = 1000;      // one host register access (a PCIe round trip)
  // A host DMA read of the trace window (docs/board.md "Time"): a fixed setup, then the
  // bytes at the link's bandwidth (an integer number of bytes per 10 ns core cycle).
  int dma_setup_ns = 2000;
  int dma_mb_per_s = 3200;
  int regmap = 2;                // register-map version: 2, or 1 as an old bitstream has
  static rtl::DramOptions DefaultMemory();
};

class SimBoard : public host::BoardIface {
 public:
  // SystemC has one simulation kernel per process, so at most one SimBoard exists in a process
  // (FailedPrecondition otherwise); InvalidArgument naming a bad option (a `config` no board
  // of this build has: the field, as SelectBuiltConfig names it).
  static StatusOr<std::unique_ptr<SimBoard>> Create(const SimBoardOptions& opts = {});
  ~SimBoard() override;

  StatusOr<uint32_t> ReadReg(uint32_t offset) override;
  Status WriteReg(uint32_t offset, uint32_t value) override;
  Status WriteDma(uint64_t card_addr, const void* data, size_t len) override;
  Status ReadDma(uint64_t card_addr, void* data, size_t len) override;
  std::string Describe() const override { return "board model"; }

  // The built RTL configuration the board is (options.config as selected).
  const isa::Config& config() const;

  // Simulation-only knobs (not part of BoardIface; a card has none of them).
  // The core's lossless event tap (the `rtl` path), for parity tests; borrowed.
  void AddHook(rtl::ClockHook* hook);
  // Lets the card run for `t` of simulated time (whole core cycles) with no host access, as a
  // card runs while its host is busy elsewhere (the emulator's slow fault).
  void RunFor(std::chrono::nanoseconds t);
  // Changes the DRAM behaviour (stalls, latency) between runs; the contents stay.
  void SetMemory(const rtl::DramOptions& mem);
  // Core cycles since the board was made, and the simulated time in seconds.
  int64_t cycles() const;
  double sim_seconds() const;

  class Impl;  // SystemC modules (sim_board.cc, C++17)

 private:
  explicit SimBoard(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace otpu::board

#endif  // OTPU_SIM_BOARD_SIM_BOARD_H_
