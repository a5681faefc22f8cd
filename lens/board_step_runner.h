// Runs a workload's steps on a board through the host runtime (host/card.h): every step on the
// board, the traced ones with the trace buffer on, untraced ones with it off. Profiles are `hw`
// (rebuilt from the drained records, lens/build_hw_profile.h) or, on a bitstream without a
// trace buffer, `board` (counters only, lens/build_board_profile.h). It never knows whether
// the board is the model or a card.
#ifndef OTPU_LENS_BOARD_STEP_RUNNER_H_
#define OTPU_LENS_BOARD_STEP_RUNNER_H_

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "host/card.h"
#include "lens/build_hw_profile.h"
#include "lens/recorder.h"

namespace otpu::lens {

// How a traced step keeps its trace (--keep).
enum class TraceKeep {
  kAuto,    // streaming when the card has it (CAPS bit2), keep first otherwise
  kStream,  // drained while the core runs: the whole run (a card without it: InvalidArgument)
  kFirst,   // the buffer keeps the run's first DEPTH records
  kLast,    // the buffer is a ring and keeps the last DEPTH records
};

// "auto", "stream", "first", "last".
const char* TraceKeepName(TraceKeep keep);

struct BoardRunnerOptions {
  TraceKeep keep = TraceKeep::kAuto;         // --keep
  std::chrono::milliseconds timeout{10000};  // per run (host::RunOptions::timeout)
  std::string mem = "card";  // config.MEM of the profiles ("card", or the model's memory)
  // Keep the drained records in last().trace once decoded (tests that look at them); by
  // default they are decoded and freed, so a step never holds its records.
  bool keep_records = false;
};

class BoardStepRunner : public StepRunner {
 public:
  // `card` is borrowed and must outlive the runner.
  BoardStepRunner(host::Card* card, const BoardRunnerOptions& opts);

  // hw when the card has a trace buffer, board otherwise.
  ProfileKind kind() const override;
  // Writes the image (zeroing the DRAM between its pages and up to its outputs, so nothing a
  // previous run left is read) and the program at DRAM 0. InvalidArgument when the workload
  // was built for another configuration than the card's, or its image overlaps the program.
  Status Load(const workloads::WorkloadRun& run) override;
  Status WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) override;
  // One run on the card; afterwards the workload's outputs are read back into dram(). The
  // events hold only cycles and retired: the profile is rebuilt from the records.
  StatusOr<trace::RunEvents> Run(const workloads::Step& step) override;
  // The image, the host's writes, and the outputs as the card left them after the last run.
  const SparseMemory& dram() const override { return *dram_; }
  // InvalidArgument when `bucket_cycles` is not the card's counter window (a hw profile's
  // buckets are the core's own windows).
  StatusOr<Profile> BuildStepProfile(const std::string& name, const workloads::WorkloadRun& run,
                                     const trace::RunEvents& events, int bucket_cycles) override;

  // Records of the traced run in progress, oldest first, in chunks of any size as the drain
  // delivers them (the card's record sink): decoded at once, so the step never holds them.
  // Without a call during a run, Run feeds the records the card drained after it instead.
  // FailedPrecondition outside a traced run; a decoding error comes back here and from
  // BuildStepProfile.
  Status FeedRecords(const uint64_t* records, size_t n);

  // Trace records fed (or drained) in the traced run in progress or just run, and the latest
  // cycle they reached (-1: none): a status line's view of a long run.
  int64_t records_so_far() const { return builder_ ? builder_->records() : 0; }
  int64_t cycle_so_far() const { return builder_ ? builder_->cycle() : -1; }

  // The last run: its counters and, when traced, the drained trace (its records only with
  // BoardRunnerOptions::keep_records).
  const host::RunResult& last() const { return last_; }
  // The last traced run's records, oldest first, as the card's drain delivered them (the
  // trace sink, host::TraceSink: chunk by chunk while a streamed run runs); only with
  // BoardRunnerOptions::keep_records, else empty.
  const std::vector<uint64_t>& records() const { return records_; }

 private:
  host::Card* card_;
  BoardRunnerOptions opts_;
  std::unique_ptr<SparseMemory> dram_;
  std::vector<workloads::DramRange> outputs_;
  host::RunResult last_;
  std::vector<uint64_t> records_;
  const isa::Program* program_ = nullptr;  // the loaded workload's (it outlives the steps)
  bool tracing_ = false;                   // a traced run is in progress
  int64_t cycle_bound_ = -1;               // CYCLES of the run, once known: bounds record cycles
  std::unique_ptr<HwProfileBuilder> builder_;  // the traced run's records, decoded
};

}  // namespace otpu::lens

#endif  // OTPU_LENS_BOARD_STEP_RUNNER_H_
