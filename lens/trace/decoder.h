// The third decoding layer: tokenized records back into what the run did (trace::RunEvents, the
// counter windows and the port totals), the inverse of the trace unit
// (sim/rtl/trace/trace_unit_model.h). The rest of each instruction comes from the program by
// pc; 32-bit record cycles are extended to 64 bits monotonically.
#ifndef OTPU_LENS_TRACE_DECODER_H_
#define OTPU_LENS_TRACE_DECODER_H_

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lens/trace/tokenizer.h"
#include "workloads/isa/run_events.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"

namespace otpu::lens::decode {

using ::otpu::trace::InstrEvent;
using ::otpu::trace::RunEvents;

inline constexpr int kWindowColumns = kWindowPColumns + kWindowQColumns;

// One counter window (P + Q): columns bm bd am aq mx fm fq fv fc bs as ms mb ff ld.
struct WindowCounts {
  int64_t last = 0;  // last cycle of the window
  int64_t n = 0;     // cycles in it
  std::array<int64_t, kWindowColumns> columns{};
  bool operator==(const WindowCounts&) const = default;
};

// What a run did, as the harness's event collector or a decoded trace sees it: the common
// input of the rtl and hw profile builders (lens/build_hw_profile.h).
struct TraceRun {
  trace::RunEvents events;  // `retired` stays 0 from a trace: sequencer instructions leave none
  std::vector<WindowCounts> windows;
  std::array<int64_t, 4> ports{};  // bmxu bdma amxu aq, from the halt
  bool halted = false;
};

// What decoding could not place: never fatal, reported in hwtrace and notes.
struct DecodeStats {
  int64_t groups = 0;       // groups decoded
  int64_t orphans = 0;      // S/G/E/U/Q whose D, E or P was lost (dropped or cut away)
  int64_t open_at_end = 0;  // instructions without an end record
  // Groups skipped as damage: a cycle going backwards, at or past CYCLES, after the halt, a
  // ready cycle before the run, or a start naming another unit than its instruction's. A
  // corrupt record never moves the run's clock.
  int64_t damaged = 0;
  int64_t first_cycle = -1; // first cycle the trace covers (-1: no records)
  int64_t traced_to = -1;   // last cycle the trace covers
};

struct Decoded {
  TraceRun run;
  DecodeStats stats;
};

// What a stream of records gave: the decoded run and, from the tokenizer, how many records
// came and whether groups were cut at either end of the stream (Tokens::cut_head, cut_tail).
struct StreamDecoded {
  Decoded decoded;
  int64_t records = 0;
  int64_t cut_head = 0;
  int64_t cut_tail = 0;
};

// Tokenizes and decodes records as they arrive (a drain loop's chunks, split anywhere, even
// inside a group): memory grows with the decoded run, never with the records, of which at most
// one group is held. Feeding the records of a buffer in any chunks gives what Tokenize and
// Decode give on the whole buffer, errors included.
class StreamDecoder {
 public:
  // As Decode; `program` and `cfg` are borrowed and must outlive the decoder. `cycles`
  // (CYCLES) bounds record cycles only when known before the records come; a live drain that
  // feeds during the run passes -1.
  StreamDecoder(const isa::Program& program, const isa::Config& cfg, int64_t cycles = -1);
  ~StreamDecoder();
  StreamDecoder(const StreamDecoder&) = delete;
  StreamDecoder& operator=(const StreamDecoder&) = delete;

  // The next `n` records, oldest first. DataLoss from the tokenizer or the decoder (naming the
  // record's index in the whole stream); after one, every later call returns it again.
  Status Feed(const Record* records, size_t n);
  // Ends the stream and gives what it decoded (the decoder is spent afterwards).
  StatusOr<StreamDecoded> Finish();
  // The latest cycle the records fed so far reached (-1 before any): how far the run has got.
  int64_t cycle() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Decodes `tokens` of a run of `program` on `cfg` that took `cycles` (the CYCLES register;
// -1 when unknown, then only backward cycles count as damage). DataLoss (naming the record
// index and pc) when a dispatch names a pc outside the program, an opcode other than the
// program's, or an operand other than the program's immediate where it has no register.
// Memory is bounded by the number of records, never by a cycle number.
StatusOr<Decoded> Decode(const Tokens& tokens, const isa::Program& program,
                         const isa::Config& cfg, int64_t cycles = -1);

}  // namespace otpu::lens::decode

#endif  // OTPU_LENS_TRACE_DECODER_H_
