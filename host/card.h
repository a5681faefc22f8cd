// Card: the host runtime (SPEC 4, docs/host.md). It probes a board through BoardIface (map
// version, ID, VERSION, CAPS, clock), writes DRAM images and programs, runs the resident
// program with ARGs following the run protocol of SPEC 4, reads the per-run and free-running
// counters and drains the trace buffer (the DMA window when CAPS says so, the registers
// otherwise, in ring order when it wrapped). It sees only BoardIface: the same code drives the
// board model and a card.
#ifndef OTPU_HOST_CARD_H_
#define OTPU_HOST_CARD_H_

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/board_iface.h"
#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/defs.h"
#include "workloads/isa/program.h"

namespace otpu::host {

// What Probe learned about the board.
struct CardInfo {
  int regmap = 2;         // register-map version: 2, or 1 (an old bitstream: no REGMAP)
  uint32_t version = 0;   // VERSION: D[31:16] | MCOLS[15:8] | LANES[7:0]
  uint32_t caps = 0;      // CAPS (0 on map 1)
  uint32_t core_khz = 0;  // CORE_KHZ (0 on map 1: unknown)
  uint32_t build_id = 0;  // BUILD_ID (0 on map 1)
  isa::Config config;     // the known configuration VERSION matched (sim or board)

  bool has_trace() const { return (caps & isa::kCAPS_TRACE) != 0; }
  bool has_trace_window() const { return (caps & isa::kCAPS_TRACE_DMA) != 0; }
  // Streaming trace mode (TRACE_CTRL.STREAM, TRACE_WIDX, TRACE_RPTR): CAPS bit2.
  bool has_trace_stream() const { return has_trace() && (caps & isa::kCAPS_TRACE_STREAM) != 0; }
  bool has_counters() const { return regmap >= 2; }
  // Trace buffer records (2^CAPS[15:8]); 0 without a trace buffer.
  int64_t trace_depth() const { return has_trace() ? int64_t{1} << ((caps >> 8) & 0xFF) : 0; }
  // The core's counter window (P/Q records), cycles: 2^CAPS[23:16]; 0 without a trace buffer.
  int64_t counter_window() const { return has_trace() ? int64_t{1} << ((caps >> 16) & 0xFF) : 0; }
  // Core clock in MHz; 100 when the map does not say (map 1).
  double clock_mhz() const { return core_khz ? core_khz / 1000.0 : 100.0; }
};

// "HALTED ERROR" style names of the STATUS bits set in `status` ("none" when 0).
std::string StatusBitNames(uint32_t status);

// Where drained trace records go: `n` records, oldest first, each chunk continuing the last,
// as Card reads them (streaming: while the core runs; otherwise after the run). An error
// stops the run (CTRL=0) and Run returns it.
using TraceSink = std::function<Status(const uint64_t* records, size_t n)>;

// How one run records its trace.
struct TraceOptions {
  bool enable = false;     // TRACE_CTRL ENABLE for this run (off: the buffer records nothing)
  bool keep_last = false;  // a ring instead of STOP_WHEN_FULL (without `stream`)
  // TRACE_CTRL.STREAM: Card drains the ring while the core runs, the whole run's records
  // (InvalidArgument on a card without CAPS bit2). Wins over keep_last.
  bool stream = false;
  // Receives the records (streaming: as they are drained); unset: they are collected in
  // TraceDrain::records.
  TraceSink sink = nullptr;
};

struct RunOptions {
  std::array<uint32_t, isa::kNumArgs> args{};  // ARG0..7 -> R8..R15
  TraceOptions trace;
  // Wall time HALTED may take; past it the run is stopped (CTRL=0) and DeadlineExceeded
  // names STATUS. A board model runs far slower than a card: give it more.
  std::chrono::milliseconds timeout{10000};
};

// The counters of one run (SPEC 4).
struct RunCounters {
  int64_t cycles = 0;                                           // CYCLES: RUN to HALTED
  int64_t icount = 0;                                           // ICOUNT: instructions retired
  int64_t b_rd = 0, b_wr = 0, a_rd = 0, a_wr = 0, b_stall = 0;  // per-run port counters
  // Free-running counters' growth over the run (index = isa::Counter), map 2 only.
  std::optional<std::array<int64_t, isa::kNumCounters>> free_running;
};

// Where a streamed trace lost lines, as a range of the drained record stream. The unit drops
// a bundle when its capture queue is full: because the ring is full (the host fell behind: the
// write index stands at the read pointer + DEPTH, so the loss is at `to`) or, rarely, in a
// burst denser than the queue. Lines counted at one drain (TRACE_DROP, read right after the new
// TRACE_RPTR) were lost while the previous read pointer stood: after the records it covered and
// no later than where it held the ring full.
struct TraceGap {
  int64_t from = 0;   // records drained before the lines were lost: at least this many ...
  int64_t to = 0;     // ... and at most this many (from + DEPTH)
  int64_t lines = 0;  // lines (records) lost, in whole bundles
};

// What the trace of a traced run gave.
struct TraceDrain {
  // min(count, depth) records, oldest first (streaming: every record drained); empty when
  // TraceOptions::sink took them.
  std::vector<uint64_t> records;
  int64_t drained = 0;            // records read (and given to the sink, if any)
  int64_t count = 0;              // TRACE_COUNT
  int64_t drop = 0;               // TRACE_DROP (lines)
  int64_t depth = 0;              // buffer records
  bool keep_last = false;
  bool stream = false;      // drained while the core ran (TRACE_CTRL.STREAM)
  int64_t drains = 0;       // streaming: reads of new records during and after the run
  std::vector<TraceGap> gaps;  // streaming: where the dropped lines were lost, in order
  bool wrapped = false;     // the ring overwrote its oldest records
  bool via_window = false;  // read through the DMA window, not TRACE_LO/HI
};

// What Run is waiting for when it polls a register.
enum class PollWait {
  kEarlierRun,  // STATUS: a run it found still running to stop (RUNNING = 0)
  kLoad,        // STATUS: the program to load into IMEM (LOADING = 0)
  kHalt,        // STATUS: the run to end (HALTED, ERROR or AXI_ERR)
  kTraceDrain,  // TRACE_CTRL: the trace to drain (BUSY = 0)
};

// What Card does between two polls, while it waits: true when it did some work (then the
// next poll comes at once).
using PollWork = std::function<StatusOr<bool>()>;

// Sees every value Run reads while it polls, in order, with what it waits for: a board
// model's tests check what the host saw access by access; a run is unchanged by it.
using PollObserver = std::function<void(PollWait wait, uint32_t value)>;

struct RunResult {
  uint32_t status = 0;  // STATUS at the halt
  RunCounters counters;
  std::optional<TraceDrain> trace;  // when the run was traced
};

class Card {
 public:
  // Probes `board` (borrowed; it must outlive the Card): REGMAP first, then ID, VERSION and,
  // on map 2, CAPS, CORE_KHZ and BUILD_ID; a map-1 card is never asked for more. InvalidArgument
  // naming the register and the values when ID is not "OTPU", REGMAP is neither 2 nor absent,
  // VERSION matches no known configuration, or it differs from `expected` (both named).
  static StatusOr<std::unique_ptr<Card>> Probe(BoardIface* board,
                                               const std::optional<isa::Config>& expected = {});

  const CardInfo& info() const { return info_; }
  const isa::Config& config() const { return info_.config; }
  BoardIface& board() { return *board_; }

  // Zeroes DRAM [addr, addr + bytes).
  Status ScrubDram(uint64_t addr, uint64_t bytes);
  // Writes the pages an image holds (unwritten pages are left alone: scrub them if needed).
  Status WriteImage(const SparseMemory& image);
  Status WriteDram(uint64_t addr, const void* data, size_t len);
  Status ReadDram(uint64_t addr, void* data, size_t len);

  // Writes `program` into DRAM at `prog_addr` (chunk aligned) and remembers it: every Run
  // loads it into IMEM (CTRL=LOAD) as the run protocol says. InvalidArgument when it does not
  // fit IMEM or the address is not a multiple of D.
  Status WriteProgram(const isa::Program& program, uint64_t prog_addr);

  // One run of the written program (SPEC 4's run protocol). DeadlineExceeded naming STATUS on
  // timeout, after writing CTRL=0 (the message says whether the core stopped); Internal naming
  // ERROR or AXI_ERR when STATUS has them, or STATUS when an earlier run is still running;
  // InvalidArgument when tracing is asked of a board without a trace buffer, when a map-1
  // card (no ARG registers) is given a non-zero ARG, or before WriteProgram.
  StatusOr<RunResult> Run(const RunOptions& opts);

  // Where Card says what it did on its own (one line each, no trailing newline): stopping an
  // earlier run it found still running. Unset: such notes are dropped.
  void set_note_sink(std::function<void(const std::string&)> sink) { note_sink_ = std::move(sink); }

  // Called with each polled value (PollObserver); unset: no one watches.
  void set_poll_observer(PollObserver observer) { poll_observer_ = std::move(observer); }

  // TRACE_COUNT, TRACE_DROP and the buffer as the last traced run (with `keep_last` as it
  // had) left it: what Run drains; reading again gives the same records.
  StatusOr<TraceDrain> ReadTrace(bool keep_last);

 private:
  Card(BoardIface* board, const CardInfo& info) : board_(board), info_(info) {}

  StatusOr<uint32_t> Read(isa::Reg reg, uint32_t offset = 0);
  Status Write(isa::Reg reg, uint32_t value, uint32_t offset = 0);
  // A 64-bit counter (lo at `offset`, hi at offset + 4) read without tearing.
  StatusOr<int64_t> Read64(uint32_t offset);
  StatusOr<std::array<int64_t, isa::kNumCounters>> ReadFreeRunning();
  // Polls `reg` until some bit of `mask` is set (`until_set`) or all are clear; returns the
  // last value. Every value read goes to the poll observer as `wait`. Polls back to back at
  // first, then at most one per kPollInterval (a card needs no faster; a board model's reads
  // take longer than that anyway). DeadlineExceeded naming `what` and the register's value
  // when `timeout` passes.
  // `work` (optional) runs after every poll that does not end the wait. `alive` (optional)
  // runs when `timeout` passes: true gives the wait another `timeout` (a run still making
  // progress, Run's card-time rule).
  StatusOr<uint32_t> Poll(isa::Reg reg, uint32_t mask, bool until_set,
                          std::chrono::milliseconds timeout, PollWait wait,
                          const std::string& what, const PollWork& work = {},
                          const PollWork& alive = {});
  // Records [first, first + n) of the buffer (indices mod DEPTH) into `out`: through the DMA
  // window when CAPS has it, TRACE_ADDR/LO/HI otherwise.
  Status ReadRing(int64_t first, int64_t n, uint64_t* out);
  // Streaming: reads TRACE_WIDX, gives the records from the host's read pointer up to it to
  // the sink and writes TRACE_RPTR; true when there were any.
  StatusOr<bool> DrainStream(const TraceSink& sink, TraceDrain* t);
  uint32_t stream_rptr_ = 0;              // records of this run read so far (mod 2^32)
  uint32_t stream_drop_ = 0;              // TRACE_DROP at the last drain
  std::vector<uint64_t> stream_chunk_;    // DrainStream's buffer
  Status LoadImem();
  // Writes CTRL=0 after a run that did not halt and says what became of it (for the error).
  std::string Stop();

  // Before a run: a core still running (a recorder killed under the lock we now hold left it)
  // is stopped with CTRL=0 and waited for up to `timeout`; Internal naming STATUS if it runs on.
  Status StopEarlierRun(std::chrono::milliseconds timeout);

  BoardIface* board_;
  CardInfo info_;
  std::function<void(const std::string&)> note_sink_;
  PollObserver poll_observer_;
  uint64_t prog_addr_ = 0;
  uint32_t prog_n_ = 0;
};

}  // namespace otpu::host

#endif  // OTPU_HOST_CARD_H_
