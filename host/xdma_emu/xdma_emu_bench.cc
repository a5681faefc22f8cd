// Measures, never asserts: host register accesses per second and DMA bandwidth through
// otpu-xdma-emu (XdmaBoard -> FUSE -> SimBoard), against the same accesses made on a SimBoard
// in this process, so the cost of the XDMA path (FUSE round trips) shows as a ratio; then a
// soak: 1000 runs through Card on one emulator with a fault injected every 50th
// (EIO, short, timeout in turn), sampling the emulator's RSS every 100 runs. Prints one JSON
// object (the "xdma_emu" key of scripts/bench.sh).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <functional>
#include <memory>
#include <vector>

#include "host/board_iface.h"
#include "host/card.h"
#include "host/xdma/xdma_board.h"
#include "host/programs/board_factory.h"
#include "host/xdma_emu/test_emulator.h"
#include "workloads/isa/defs.h"
#include "workloads/isa/program.h"

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

// Resident set of process `pid` in KiB, from /proc (0 when unreadable).
int64_t RssKb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      int64_t kb = 0;
      status >> kb;
      return kb;
    }
    status.ignore(1 << 16, '\n');
  }
  return 0;
}

constexpr int kSoakRuns = 1000;
constexpr int kSoakFaultEvery = 50;
constexpr int kSoakSampleEvery = 100;

// The soak as a JSON object: runs, faults injected and seen, failures other than the injected
// ones, the emulator's RSS (KiB) after each kSoakSampleEvery runs, and the growth from the
// first sample to the last.
std::string Soak() {
  // Each run writes its program once through h2c, so h2c request 50·i is run 50·i's.
  std::vector<std::string> args;
  const char* kinds[] = {"eio", "short", "timeout"};
  for (int i = 1; i * kSoakFaultEvery <= kSoakRuns; ++i) {
    args.push_back("--fault");
    args.push_back(std::string(kinds[i % 3]) + ":h2c:" + std::to_string(i * kSoakFaultEvery));
  }
  testing::Emulator emu(args);
  if (!emu.ready()) return "{\"error\": \"the emulator did not start\"}";
  StatusOr<std::unique_ptr<host::XdmaBoard>> xdma = host::XdmaBoard::Create(emu.prefix());
  if (!xdma.ok()) return "{\"error\": \"no board\"}";
  StatusOr<std::unique_ptr<host::Card>> card = host::Card::Probe(xdma->get());
  if (!card.ok()) return "{\"error\": \"no card\"}";
  isa::ProgramBuilder b;
  b.Loop(4, [&] {
    b.Vop({.fn = isa::VopFn::kCOPY, .dst = isa::At(4096), .a = isa::At(0), .b = {}, .n = 256});
  });
  const isa::Program program = b.Finish();
  int faults_seen = 0, other_failures = 0;
  std::string samples;
  int64_t first = 0, last = 0;
  const Clock::time_point start = Clock::now();
  for (int run = 1; run <= kSoakRuns; ++run) {
    const bool faulted = run % kSoakFaultEvery == 0;
    Status s = (*card)->WriteProgram(program, 0);
    if (s.ok()) s = (*card)->Run({}).status();
    if (!s.ok()) (faulted ? faults_seen : other_failures) += 1;
    if (run % kSoakSampleEvery == 0) {
      last = RssKb(emu.pid());
      if (first == 0) first = last;
      samples += (samples.empty() ? "" : ", ") + std::to_string(last);
    }
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  char out[512];
  std::snprintf(out, sizeof out,
                "{\"runs\": %d, \"faults_injected\": %d, \"faults_seen\": %d, "
                "\"other_failures\": %d, \"wall_s\": %.1f, \"emu_rss_kb\": [%s], "
                "\"emu_rss_growth_kb\": %lld}",
                kSoakRuns, kSoakRuns / kSoakFaultEvery, faults_seen, other_failures, seconds,
                samples.c_str(), (long long)(last - first));
  return out;
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
      "\"board_model_dma_read_mb_s\": %.1f, \"reg_read_cost_ratio\": %.2f, \"soak\": %s}\n",
      via.reg_reads, via.reg_writes, via.dma_write_mb, via.dma_read_mb, local.reg_reads,
      local.dma_read_mb, via.reg_reads > 0 ? local.reg_reads / via.reg_reads : 0.0,
      Soak().c_str());
  return 0;
}

}  // namespace
}  // namespace otpu::xdma_emu

int main() { return otpu::xdma_emu::Main(); }
