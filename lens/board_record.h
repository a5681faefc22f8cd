// Recording on a board (SPEC 2, "the recorder"): probe it through Card, run the workload's
// steps through the board step runner with the profiles' buckets set to the core's counter
// window, and return the profiles, the DRAM the board left, the check's report and what the
// board is. The one setup around lens::Record that `otpu-lens record` (--sim and --dev) and
// `otpu-regress cell` share; also the lines `otpu-lens record` prints for each profile. Nothing
// here knows which board runs.
#ifndef OTPU_LENS_BOARD_RECORD_H_
#define OTPU_LENS_BOARD_RECORD_H_

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

// How to record on a board.
struct BoardRecordOptions {
  BoardRunnerOptions runner;   // --keep, the per-run timeout, the profiles' MEM
  bool need_trace = false;     // FailedPrecondition on a board without a trace buffer
  bool capture_check = false;  // a check beyond its bound is reported, not an error
  bool greedy = false;         // take the greedy token of each traced step (lens/greedy_tap.h)
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
