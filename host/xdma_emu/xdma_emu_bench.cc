// Measures, never asserts: host register accesses per second and DMA bandwidth through
// otpu-xdma-emu (XdmaBoard -> FUSE -> SimBoard), against the same accesses made on a SimBoard
// in this process, so the cost of the XDMA path (FUSE round trips) shows as a ratio. Prints one
// JSON object (the "xdma_emu" key of scripts/bench.sh).
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "host/board_iface.h"
#include "host/xdma/xdma_board.h"
#include "host/programs/board_factory.h"
#include "host/xdma_emu/test_emulator.h"
#include "workloads/isa/defs.h"

namespace otpu::xdma_emu {
namespace {

using Clock = std::chrono::steady_clock;

constexpr double kSecondsPerMeasure = 1.0;
constexpr uint32_t kScratch = static_cast<uint32_t>(isa::Reg::kSCRATCH);
constexpr size_t kDmaBytes = size_t{1} << 20;
constexpr uint64_t kDmaAddr = uint64_t{1} << 20;

// Calls `op` until kSecondsPerMeasure passed; operations per second (0 on the first failure).
double PerSecond(const std::function<bool()>& op) {
  const Clock::time_point start = Clock::now();
  int64_t n = 0;
  double elapsed = 0;
  do {
    if (!op()) return 0;
    ++n;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < kSecondsPerMeasure);
  return n / elapsed;
}

struct Rates {
  double reg_reads = 0, reg_writes = 0, dma_write_mb = 0, dma_read_mb = 0;
};

Rates Measure(host::BoardIface* board) {
  Rates r;
  r.reg_reads = PerSecond([&] { return board->ReadReg(kScratch).ok(); });
  uint32_t value = 0;
  r.reg_writes = PerSecond([&] { return board->WriteReg(kScratch, ++value).ok(); });
  std::vector<uint8_t> buf(kDmaBytes, 0x5A);
  const double mb = static_cast<double>(kDmaBytes) / 1e6;
  r.dma_write_mb =
      mb * PerSecond([&] { return board->WriteDma(kDmaAddr, buf.data(), buf.size()).ok(); });
  r.dma_read_mb =
      mb * PerSecond([&] { return board->ReadDma(kDmaAddr, buf.data(), buf.size()).ok(); });
  return r;
}

int Main() {
  testing::Emulator emu;
  if (!emu.ready()) {
    std::fprintf(stderr, "xdma_emu_bench: the emulator did not start: %s\n",
                 emu.startup_output().c_str());
    return 1;
  }
  StatusOr<std::unique_ptr<host::XdmaBoard>> xdma = host::XdmaBoard::Create(emu.prefix());
  if (!xdma.ok()) {
    std::fprintf(stderr, "xdma_emu_bench: %s\n", xdma.status().message().c_str());
    return 1;
  }
  const Rates via = Measure(xdma->get());
  StatusOr<std::unique_ptr<host::BoardIface>> direct = host::MakeBoard({.sim = true});
  if (!direct.ok()) {
    std::fprintf(stderr, "xdma_emu_bench: %s\n", direct.status().message().c_str());
    return 1;
  }
  const Rates local = Measure(direct->get());
  std::printf(
      "{\"reg_reads_per_s\": %.0f, \"reg_writes_per_s\": %.0f, \"dma_write_mb_s\": %.1f, "
      "\"dma_read_mb_s\": %.1f, \"board_model_reg_reads_per_s\": %.0f, "
      "\"board_model_dma_read_mb_s\": %.1f, \"reg_read_cost_ratio\": %.2f}\n",
      via.reg_reads, via.reg_writes, via.dma_write_mb, via.dma_read_mb, local.reg_reads,
      local.dma_read_mb, via.reg_reads > 0 ? local.reg_reads / via.reg_reads : 0.0);
  return 0;
}

}  // namespace
}  // namespace otpu::xdma_emu

int main() { return otpu::xdma_emu::Main(); }
