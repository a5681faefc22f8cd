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

  // The last run: its counters and, when traced, the drained trace (its records are in
  // records()).
  const host::RunResult& last() const { return last_; }
  // The last traced run's records, oldest first, as the card's drain delivered them (the
  // trace sink, host::TraceSink: chunk by chunk while a streamed run runs).
  const std::vector<uint64_t>& records() const { return records_; }

 private:
  host::Card* card_;
  BoardRunnerOptions opts_;
  std::unique_ptr<SparseMemory> dram_;
  std::vector<workloads::DramRange> outputs_;
  host::RunResult last_;
  std::vector<uint64_t> records_;
};

}  // namespace otpu::lens

#endif  // OTPU_LENS_BOARD_STEP_RUNNER_H_
