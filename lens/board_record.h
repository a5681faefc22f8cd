// Recording on a board (SPEC 2, "the recorder"): probe it through Card, run the workload's
// steps through the board step runner with the profiles' buckets set to the core's counter
// window, and return the profiles, the DRAM the board left, the check's report and what the
// board is. The one setup around lens::Record that `otpu-lens record` (--sim and --dev) and
// `otpu-regress cell` share; also the lines `otpu-lens record` prints for each profile. Nothing
// here knows which board runs.
#ifndef OTPU_LENS_BOARD_RECORD_H_
#define OTPU_LENS_BOARD_RECORD_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/sparse_memory.h"
#include "base/status.h"
#include "host/board_iface.h"
#include "host/card.h"
#include "lens/board_step_runner.h"
#include "lens/profile.h"
#include "workloads/workload.h"

namespace otpu::lens {

// Where a recording has got (BoardRecordOptions::progress).
struct RecordProgress {
  int step = 0;             // the step running or just run, from 0
  int steps = 0;            // steps of the workload
  bool traced = false;      // the step is traced
  bool running = false;     // the step's run is in progress (else it has just ended)
  int64_t cycles_done = 0;  // core cycles of the steps that ended (CYCLES)
  int64_t step_cycles = -1; // cycles of the step: when it ended, or as far as its trace got
                            // while it runs (-1: not known yet)
  int64_t records = 0;      // trace records drained in the step so far
  int64_t expect_cycles = -1;  // the step's cycles as the previous step took (-1: none yet)
};

// How to record on a board.
struct BoardRecordOptions {
  BoardRunnerOptions runner;   // --keep, the per-run timeout, the profiles' MEM
  bool need_trace = false;     // FailedPrecondition on a board without a trace buffer
  bool capture_check = false;  // a check beyond its bound is reported, not an error
  bool greedy = false;         // take the greedy token of each traced step (lens/greedy_tap.h)
  // Called at each step's start and end and while a run goes on (at every poll of the card),
  // for a status line; it must not call into the recorder.
  std::function<void(const RecordProgress&)> progress;
};

// What one recording on a board gave.
struct BoardRecording {
  std::vector<Profile> profiles;  // one per traced step: hw, or board (counters only)
  SparseMemory dram{1};           // the image, the host's writes and the board's outputs
  workloads::CheckReport check;   // the workload's check of `dram`
  host::CardInfo info;            // what the board is (register map, configuration, trace)
  int bucket_cycles = 0;          // the profiles' counter window: the core's, in cycles
  std::vector<int> greedy_tokens;  // with BoardRecordOptions::greedy, per traced step
};

// A probed board, ready to record workloads built for its configuration.
class BoardRecorder {
 public:
  // Probes `board` (borrowed; it must outlive the recorder) through Card::Probe.
  static StatusOr<std::unique_ptr<BoardRecorder>> Probe(host::BoardIface* board);

  // What the probe found.
  const host::CardInfo& info() const { return card_->info(); }
  // The runtime over the board, for its note sink.
  host::Card& card() { return *card_; }

  // Records `run`. FailedPrecondition naming the board when it lacks a trace buffer that
  // options.need_trace asks for, or is another configuration than the workload's; otherwise
  // lens::Record's errors (DataLoss for a trace that does not decode).
  StatusOr<BoardRecording> Record(const workloads::WorkloadRun& run,
                                  const BoardRecordOptions& options);

 private:
  BoardRecorder(host::BoardIface* board, std::unique_ptr<host::Card> card)
      : board_(board), card_(std::move(card)) {}

  host::BoardIface* board_;
  std::unique_ptr<host::Card> card_;
};

// Probes `board` and records `run` on it (BoardRecorder::Probe, then Record).
StatusOr<BoardRecording> RecordOnBoard(host::BoardIface& board, const workloads::WorkloadRun& run,
                                       const BoardRecordOptions& options);

// "qwen-tiny step 3: hw profile, 81234 cycles, 45.1% of the roofline, 12345 records (count
// 12345, drop 0, lost 0, streamed)" ("wrapped" / "not wrapped" for the buffer alone); a board
// profile says "counters only" instead.
std::string ProfileLine(const Profile& p);

// "warning: NAME: ..." lines for what the trace lost (TRACE_DROP, records past the buffer,
// cut groups); none for a complete trace or a profile without one.
std::vector<std::string> LossWarnings(const Profile& p);

}  // namespace otpu::lens

#endif  // OTPU_LENS_BOARD_RECORD_H_
