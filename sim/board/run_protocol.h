// The run protocol of SPEC 4 spelled out register by register through BoardIface, for the
// board model's own tests and bench: they sit below host/ and check what the host sees
// access by access (every STATUS poll), which Card (host/card.h, the real runtime) hides.
// C++20 (no SystemC).
#ifndef OTPU_SIM_BOARD_RUN_PROTOCOL_H_
#define OTPU_SIM_BOARD_RUN_PROTOCOL_H_

#include <array>
#include <cstdint>
#include <vector>

#include "host/board_iface.h"
#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/defs.h"
#include "workloads/isa/program.h"

namespace otpu::board {

// Where the tests put programs: DRAM below workloads::kImageBase is the host's.
inline constexpr uint64_t kProgAddr = 0;

struct BoardRunOptions {
  std::array<uint32_t, isa::kNumArgs> args{};
  bool trace = false;          // TRACE_CTRL CLEAR, then ENABLE | STOP_WHEN_FULL
  int64_t max_polls = 10000000;  // STATUS polls before DeadlineExceeded
};

// What the host saw of one run.
struct BoardRun {
  std::vector<uint32_t> load_polls;  // STATUS values read while waiting for LOADING = 0
  std::vector<uint32_t> run_polls;   // STATUS values read from RUN until HALTED or ERROR
  uint64_t cycles = 0;               // CYCLES
  // ICOUNT B_RD B_WR A_RD A_WR B_STALL
  std::array<uint32_t, 6> run_counters{};
  std::array<uint64_t, isa::kNumCounters> free_running{};  // read after the halt
  uint32_t trace_count = 0, trace_drop = 0;  // with `trace`
};

// Writes every page `image` holds to the board by DMA.
Status WriteImage(host::BoardIface* board, const SparseMemory& image);
// Writes `prog` at kProgAddr by DMA.
Status WriteProgram(host::BoardIface* board, const isa::Program& prog);
// Loads the written program of `n` instructions into IMEM and runs it once (SPEC 4's run
// protocol), polling STATUS back to back. Internal naming STATUS when the run ends in ERROR
// or AXI_ERR; DeadlineExceeded naming STATUS after max_polls.
StatusOr<BoardRun> RunProgram(host::BoardIface* board, uint32_t n, const BoardRunOptions& opts);
// Reads the pages of `pages` (SparseMemory page indices) from the board by DMA into `out`.
Status ReadPages(host::BoardIface* board, const std::vector<uint64_t>& pages, SparseMemory* out);

}  // namespace otpu::board

#endif  // OTPU_SIM_BOARD_RUN_PROTOCOL_H_
