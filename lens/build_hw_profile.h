// The profile builders of the event paths: `rtl` from the RTL harness's event collector and
// `hw` from the trace buffer's records (decoded by lens/trace). Both reuse BuildProfile for
// what every kind shares and take buckets, ports and TMEM losses from the core's own counter
// windows and halt; with nothing lost, the hw profile equals the rtl profile (SPEC 5 parity).
#ifndef OTPU_LENS_BUILD_HW_PROFILE_H_
#define OTPU_LENS_BUILD_HW_PROFILE_H_

#include <span>
#include <string>
#include <vector>

#include "lens/profile.h"
#include "lens/trace/decoder.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"

namespace otpu::lens {

// Where a streamed trace lost lines: somewhere after the first `from` records and no later than
// the first `to` (host::TraceGap).
struct TraceGapRange {
  int64_t from = 0;
  int64_t to = 0;
  int64_t lines = 0;
};

// The trace registers read after a run (SPEC 4: TRACE_COUNT, TRACE_DROP, the buffer's setup).
struct TraceRegisters {
  int64_t count = 0;        // TRACE_COUNT
  int64_t drop = 0;         // TRACE_DROP (lines)
  int64_t depth = 65536;    // buffer records (CAPS [15:8])
  bool keep_last = false;   // the ring (STOP_WHEN_FULL was 0)
  bool stream = false;      // drained while the core ran (TRACE_CTRL.STREAM): the whole run's
                            // records, COUNT of them unless the host read fewer
  std::vector<TraceGapRange> gaps = {};  // streaming: where TRACE_DROP's lines were lost
  int64_t cycles = -1;      // CYCLES, the run's length; bounds record cycles (-1: not read)
};

// The rtl profile of `run` (windows of `window_cycles`; `mem` is config.MEM).
StatusOr<Profile> BuildRtlProfile(const std::string& name, const isa::Config& cfg,
                                  const isa::Program& program, const decode::TraceRun& run,
                                  int window_cycles, const std::string& mem);

// Builds a hw profile from records fed as they are drained (decode::StreamDecoder): memory
// grows with the profile, never with the records. Feeding a buffer's records in any chunks
// gives the profile BuildHwProfile gives on the whole buffer.
class HwProfileBuilder {
 public:
  // A run of `program` (borrowed: it must outlive the builder) on `cfg` (copied) whose CYCLES
  // is `cycles` when known before the records come (-1 when they are fed during the run).
  HwProfileBuilder(const isa::Config& cfg, const isa::Program& program, int64_t cycles = -1);

  // The next `n` records, oldest first. DataLoss from the tokenizer or decoder, naming the
  // record's index in the whole stream; after one, every later call returns it again.
  Status Feed(const trace::Record* records, size_t n);
  // Records fed so far.
  int64_t records() const { return records_; }
  // The latest cycle they reached (-1 before any).
  int64_t cycle() const { return decoder_.cycle(); }
  // The profile, with `regs` read after the run (its `cycles` is not used again). The builder
  // is spent afterwards. The error of a Feed, or BuildRtlProfile's.
  StatusOr<Profile> Finish(const std::string& name, const TraceRegisters& regs,
                           int window_cycles, const std::string& mem);

 private:
  const isa::Config cfg_;  // before decoder_, which borrows it
  const isa::Program& program_;
  decode::StreamDecoder decoder_;
  int64_t records_ = 0;
  // Where each fed chunk starts in the stream and the cycles around that point: the drain's
  // gaps (TraceRegisters::gaps) lie between chunks, so the loss note can name their cycles
  // without the builder holding the records.
  struct ChunkMark {
    int64_t start = 0;   // index of the chunk's first record
    int64_t before = -1;  // the last cycle of any record before it, -1 none
    int64_t first = -1;   // the first cycle of a record in it, -1 none
  };
  std::vector<ChunkMark> marks_;
  int64_t last_cycle_ = -1;
};

// The hw profile of a run of `program` from the buffer's `records` (oldest first) and the
// trace registers: the rtl profile of the decoded run plus `hwtrace` and the loss notes.
// DataLoss from the tokenizer or decoder (naming the record) when the records are malformed.
// (HwProfileBuilder over the whole buffer in one Feed.)
StatusOr<Profile> BuildHwProfile(const std::string& name, const isa::Config& cfg,
                                 const isa::Program& program,
                                 std::span<const trace::Record> records,
                                 const TraceRegisters& regs, int window_cycles,
                                 const std::string& mem);

}  // namespace otpu::lens

#endif  // OTPU_LENS_BUILD_HW_PROFILE_H_
