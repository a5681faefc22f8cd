// A Verilated otpu_trace (rtl/board/otpu_trace.sv) as a ClockHook: each core cycle the harness
// shows it is driven onto the unit's event inputs and clocked once, as the board does. A run
// start pulses CLEAR; a run end clocks idle cycles while BUSY. The buffer is read back through
// either read port (TRACE_LO/HI's rd_addr or the DMA window's 8-record beats).
#ifndef OTPU_TESTS_RTL_TRACE_RTL_TRACE_UNIT_H_
#define OTPU_TESTS_RTL_TRACE_RTL_TRACE_UNIT_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/rtl/core_cycle.h"
#include "sim/rtl/trace/trace_unit_model.h"
#include "tests/rtl/units/vl_bits.h"
#include "base/status.h"
#include "workloads/isa/trace_records.h"

namespace otpu::rtl {

// How the host reads the buffer back.
enum class ReadPort { kRecord, kWindow };

// A host draining a streaming unit (TRACE_CTRL.STREAM), the same for the RTL unit and the
// model: every `every`-th cycle it reads the records of one 64-byte beat from its read pointer
// up to the write index, and publishes the new read pointer (TRACE_RPTR) before the next
// cycle. A large `every` is a host that falls behind.
class StreamHost : public TraceReader {
 public:
  explicit StreamHost(int every) : every_(every) {}

  // How many records to read before this cycle's edge, from rptr() on, with TRACE_WIDX `widx`.
  uint32_t Due(uint32_t widx) {
    if (tick_++ % every_ != 0) return 0;
    return std::min<uint32_t>(8 - rptr_ % 8, widx - rptr_);
  }
  void Got(trace::Record r) {
    got_.push_back(r);
    ++rptr_;
  }
  uint32_t rptr() const { return rptr_; }
  const std::vector<trace::Record>& got() const { return got_; }

  void OnClear() override {
    rptr_ = 0;
    tick_ = 0;
    got_.clear();
  }
  void BeforeCycle(TraceUnitModel& unit) override {
    unit.SetReadPointer(rptr_);
    const uint32_t n = Due(unit.write_index());
    const uint32_t from = rptr_;
    for (uint32_t i = 0; i < n; ++i) Got(unit.RingAt(int64_t(from + i)));
  }

 private:
  int every_;
  uint32_t rptr_ = 0;
  int64_t tick_ = 0;
  std::vector<trace::Record> got_;
};

// `V` is the Verilated otpu_trace of some QD and DEPTH (given here, as the model cannot say).
template <typename V>
class RtlTraceUnit : public ClockHook {
 public:
  // `host` (borrowed, may be null) drains a streaming unit; with it the unit runs STREAM.
  RtlTraceUnit(int64_t depth, bool keep_last, bool enable = true, StreamHost* host = nullptr)
      : depth_(depth), keep_last_(keep_last), enable_(enable), host_(host),
        context_(std::make_unique<VerilatedContext>()),
        top_(std::make_unique<V>(context_.get(), "otpu_trace")) {
    top_->clk_i = 0;
    top_->rst_ni = 0;
    top_->rptr_i = 0;
    top_->rd_en_i = 1;   // both read ports read every cycle
    top_->win_rd_i = 1;
    top_->eval();
    top_->rst_ni = 1;
    top_->eval();
  }

  void OnRunStart() override {
    Idle();
    top_->clear_i = 1;
    Tick();
    top_->clear_i = 0;
    drain_cycles_ = 0;
    if (host_) host_->OnClear();
  }

  void OnClock(const CoreCycle& c) override {
    Drive(c);
    Clock();
  }

  // Clocks the unit with this cycle's events and a CLEAR pulse (which wins over them).
  void ClockWithClear(const CoreCycle& c) {
    Drive(c);
    top_->clear_i = 1;
    Tick();
    top_->clear_i = 0;
    if (host_) host_->OnClear();
  }

  void OnRunEnd() override {
    Idle();
    while (top_->busy_o) {
      OTPU_CHECK(drain_cycles_ < (int64_t{1} << 24));
      Clock();
      ++drain_cycles_;
    }
  }

  uint32_t widx() const { return top_->widx_o; }

  uint32_t count() const { return top_->count_o; }
  uint32_t drop() const { return top_->drop_o; }
  bool busy() const { return top_->busy_o; }
  int64_t drain_cycles() const { return drain_cycles_; }

  // The buffer as the host reads it: min(COUNT, DEPTH) records, oldest first (the ring's
  // oldest at COUNT mod DEPTH once it wrapped).
  std::vector<trace::Record> Records(ReadPort port) {
    Idle();
    const int64_t n = std::min<int64_t>(count(), depth_);
    const int64_t first = keep_last_ && count() > depth_ ? count() % depth_ : 0;
    std::vector<trace::Record> out;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t at = (first + i) % depth_;
      out.push_back(port == ReadPort::kRecord ? ReadRecord(at) : ReadBeat(at / 8)[size_t(at % 8)]);
    }
    return out;
  }

  // One record through rd_addr (1-cycle latency).
  trace::Record ReadRecord(int64_t index) {
    units::SetBits(top_->rd_addr_i, 0, 32, uint64_t(index));
    Tick();
    return top_->rd_data_o;
  }

  // Records [8 beat, 8 beat + 8) through the DMA window port (1-cycle latency).
  std::array<trace::Record, 8> ReadBeat(int64_t beat) {
    units::SetBits(top_->win_beat_i, 0, 32, uint64_t(beat));
    Tick();
    std::array<trace::Record, 8> out;
    for (int i = 0; i < 8; ++i) out[size_t(i)] = units::GetBits(top_->win_data_o, 64 * i, 64);
    return out;
  }

 private:
  void Tick() {
    top_->eval();
    top_->clk_i = 1;
    top_->eval();
    top_->clk_i = 0;
    top_->eval();
  }

  void Idle() { Drive(CoreCycle{}); }

  bool stream() const { return host_ != nullptr; }

  // One clock edge with the host's side of streaming: it publishes its read pointer and reads
  // one beat through the window port in the same cycle (the records it reads are below the
  // write index, so this edge cannot overwrite them).
  void Clock() {
    if (!host_) {
      Tick();
      return;
    }
    top_->rptr_i = host_->rptr();
    const uint32_t n = host_->Due(top_->widx_o);
    const uint32_t from = host_->rptr();
    units::SetBits(top_->win_beat_i, 0, 32, uint64_t(from % uint64_t(depth_) / 8));
    Tick();
    for (uint32_t i = 0; i < n; ++i) {
      host_->Got(units::GetBits(top_->win_data_o, 64 * int((from + i) % 8), 64));
    }
  }

  // Every field, valid or not: the unit must ignore what is not flagged valid.
  void Drive(const CoreCycle& c) {
    V& t = *top_;
    t.enable_i = enable_;
    t.stop_when_full_i = !keep_last_;
    t.stream_i = stream();
    t.cycle_i = uint32_t(c.cycle);
    t.ev_disp_i = c.dispatch.valid;
    t.ev_disp_slot_i = uint8_t(c.dispatch.slot);
    t.ev_disp_pc_i = uint16_t(c.dispatch.pc);
    for (int i = 0; i < isa::kInstrWords; ++i) {
      units::SetBits(t.ev_disp_instr_i, 32 * i, 32, c.dispatch.instr.w[size_t(i)]);
    }
    t.ev_start_i = 0;
    t.ev_end_i = 0;
    for (int u = 0; u < kCoreUnits; ++u) {
      const CoreCycle::Start& s = c.start[size_t(u)];
      units::SetBits(t.ev_start_i, u, 1, s.valid);
      units::SetBits(t.ev_start_slot_i, 4 * u, 4, uint64_t(s.slot));
      units::SetBits(t.ev_start_rdy_i, 32 * u, 32, s.ready);
      const CoreCycle::End& e = c.end[size_t(u)];
      units::SetBits(t.ev_end_i, u, 1, e.valid);
      units::SetBits(t.ev_end_slot_i, 4 * u, 4, uint64_t(e.slot));
      for (int k = 0; k < 4; ++k) {
        units::SetBits(t.ev_end_cnt_i, 32 * (4 * u + k), 32, e.counters[size_t(k)]);
      }
    }
    t.ev_rel_i = c.release.valid;
    t.ev_rel_slot_i = uint8_t(c.release.slot);
    t.ev_halt_i = c.halt.valid;
    for (int i = 0; i < 4; ++i) units::SetBits(t.ev_halt_ports_i, 32 * i, 32, c.halt.ports[size_t(i)]);
    t.ev_win_i = c.window.valid;
    t.ev_win_n_i = c.window.n;
    for (int i = 0; i < kWindowColumns; ++i) {
      units::SetBits(t.ev_win_cnt_i, 32 * i, 32, c.window.columns[size_t(i)]);
    }
  }

  int64_t depth_;
  bool keep_last_, enable_;
  StreamHost* host_;
  std::unique_ptr<VerilatedContext> context_;  // one per model: no name clashes, no sharing
  std::unique_ptr<V> top_;
  int64_t drain_cycles_ = 0;
};

}  // namespace otpu::rtl

#endif  // OTPU_TESTS_RTL_TRACE_RTL_TRACE_UNIT_H_
