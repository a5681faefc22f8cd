// The golden C++ model of the hardware trace unit (SPEC 5, docs/trace.md): a ClockHook that
// turns each core cycle with any event into one bundle of 64-bit records, passes it through a
// capture queue of QD lines (DRAIN of them leave it a cycle) into a buffer of DEPTH records,
// and keeps TRACE_COUNT and TRACE_DROP as the registers do. The halt cycle's bundle is never dropped for want of room: it
// is held until the queue can take it whole (nothing follows HALT). In streaming mode
// (TRACE_CTRL.STREAM) the buffer is a ring the host drains while the core runs: it reads the
// write index (TRACE_WIDX), reads the records and writes how far it has read (TRACE_RPTR);
// the unit never writes a record past DEPTH ahead of the read pointer, so when the host falls
// behind the queue fills and whole bundles are lost (TRACE_DROP). The RTL trace unit must
// match it record for record, so it is written as the plain per-cycle sequence the hardware
// follows (see OnClock).
#ifndef OTPU_SIM_RTL_TRACE_TRACE_UNIT_MODEL_H_
#define OTPU_SIM_RTL_TRACE_TRACE_UNIT_MODEL_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "workloads/isa/trace_records.h"
#include "sim/rtl/core_cycle.h"
#include "base/status.h"

namespace otpu::rtl {

using trace::Record;

struct TraceUnitOptions {
  int queue_depth = 64;     // QD: capture-queue lines (one record a line)
  int drain = 2;            // DRAIN: lines the queue moves into the buffer a cycle (1..8)
  int64_t depth = 65536;    // DEPTH: buffer records
  bool keep_last = false;   // false: keep first (STOP_WHEN_FULL); true: ring
  bool enable = true;       // TRACE_CTRL.ENABLE
  bool stream = false;      // TRACE_CTRL.STREAM: a ring bounded by the host's read pointer
};

class TraceUnitModel;

// The host side of streaming mode, as the model sees it (a test's stand-in for Card's drain).
class TraceReader {
 public:
  virtual ~TraceReader() = default;
  // TRACE_CTRL.CLEAR: the read pointer is 0 again.
  virtual void OnClear() {}
  // Between two clock edges: may read the ring (RingAt) below write_index() and move the
  // read pointer (SetReadPointer).
  virtual void BeforeCycle(TraceUnitModel& unit) = 0;
};

class TraceUnitModel : public ClockHook {
 public:
  // InvalidArgument naming the option when queue_depth or depth is below 1, or drain is
  // outside 1..8 (the buffer's 8 banks take one record each a cycle).
  static StatusOr<std::unique_ptr<TraceUnitModel>> Create(const TraceUnitOptions& opts);

  // The bundle of one cycle in trace order: D+O+O; S[+R] per unit in unit order; G; E and
  // U+V (units with counters) per unit in unit order; P+V×9, Q+V×6; H+V×4. Empty without events.
  static std::vector<Record> Bundle(const CoreCycle& c);

  // The most lines one cycle can produce (D+O+O, 4 × S+R, G, E, E+U+V×4, 2 × E+U+V, P+V×9,
  // Q+V×6, H+V×4).
  static constexpr int kMaxBundle = 47;

  // TRACE_CTRL.CLEAR: empty queue, held bundle and buffer, COUNT and DROP 0.
  void OnRunStart() override;
  // One cycle: drain up to DRAIN queued records into the buffer, then capture: a held halt
  // bundle that now fits enters the queue (and the cycle's own bundle, if any, is lost); otherwise the
  // cycle's bundle (when ENABLE) enters whole, or is held (the halt's, when it is at most QD
  // lines), or is lost whole.
  void OnClock(const CoreCycle& c) override;
  // After the halt the unit keeps draining (TRACE_CTRL.BUSY) until the queue is empty and
  // nothing is held.
  void OnRunEnd() override;
  // TRACE_CTRL.BUSY: records queued or a bundle held.
  bool busy() const { return !queue_.empty() || !held_.empty(); }
  // The halt bundle is waiting for room in the queue.
  bool holding() const { return !held_.empty(); }
  int queued() const { return int(queue_.size()); }  // lines in the capture queue

  // Streaming mode's host side (borrowed; may be null): runs before every cycle the unit is
  // clocked (the run's and the drain's after it).
  void set_reader(TraceReader* reader) { reader_ = reader; }
  // TRACE_RPTR: records the host has read (mod 2^32); seen from the next clock edge on. CLEAR
  // (OnRunStart) sets it to 0.
  void SetReadPointer(uint32_t rptr) { rptr_ = rptr; }
  uint32_t read_pointer() const { return rptr_; }
  // TRACE_WIDX: records written into the buffer since CLEAR (mod 2^32).
  uint32_t write_index() const { return uint32_t(written_); }
  // The buffer's record at index `i` mod DEPTH (what the DMA window serves at 8 i).
  Record RingAt(int64_t i) const { return buffer_[size_t(i % options_.depth)]; }

  uint32_t count() const { return count_; }        // TRACE_COUNT (saturating)
  uint32_t drop() const { return drop_; }          // TRACE_DROP: lines of lost cycles
  bool wrapped() const {
    return options_.keep_last && !options_.stream && written_ > options_.depth;
  }
  int64_t drain_cycles() const { return drain_cycles_; }  // BUSY cycles after the run
  const TraceUnitOptions& options() const { return options_; }
  // The buffer as the host reads it after a run without STREAM: min(COUNT, DEPTH) records,
  // oldest first (ring order).
  std::vector<Record> Records() const;

 private:
  explicit TraceUnitModel(const TraceUnitOptions& opts) : options_(opts) {}
  void Store(Record r);
  // One clock of the unit with this cycle's captured bundle (empty: none); `halt` marks the
  // halt cycle's bundle.
  void Step(const std::vector<Record>& bundle, bool halt);

  TraceUnitOptions options_;
  std::deque<Record> queue_;
  std::vector<Record> held_;  // the halt bundle waiting for room
  std::vector<Record> buffer_;
  int64_t written_ = 0;  // records that left the queue (COUNT without saturation)
  uint32_t count_ = 0, drop_ = 0;
  int64_t drain_cycles_ = 0;
  uint32_t rptr_ = 0;  // TRACE_RPTR
  TraceReader* reader_ = nullptr;
};

}  // namespace otpu::rtl

#endif  // OTPU_SIM_RTL_TRACE_TRACE_UNIT_MODEL_H_
