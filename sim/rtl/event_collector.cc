#include "sim/rtl/event_collector.h"

#include <string>

#include "workloads/isa/cost.h"

namespace otpu::rtl {
namespace {

constexpr uint32_t kZeroRegs[isa::kNumRegs] = {};  // resolved instructions need no registers

}  // namespace

void EventCollector::OnRunStart() {
  events_ = trace::RunEvents{};
  windows_.clear();
  ports_ = {};
  slot_idx_.fill(-1);
  halted_ = false;
  status_ = OkStatus();
}

trace::InstrEvent* EventCollector::InSlot(int slot, int64_t cycle, const char* what) {
  const int64_t idx = slot_idx_[size_t(slot)];
  if (idx < 0) {
    if (status_.ok()) {
      status_ = Internal("cycle " + std::to_string(cycle) + ": " + what + " event for slot " +
                         std::to_string(slot) + ", which holds no instruction");
    }
    return nullptr;
  }
  return &events_.instrs[size_t(idx)];
}

void EventCollector::OnClock(const CoreCycle& c) {
  if (!c.any) return;
  const int64_t now = c.cycle;
  // Within a cycle: dispatch, start, release, end (an instruction can only move forward).
  if (c.dispatch.valid) {
    trace::InstrEvent e;
    e.idx = int64_t(events_.instrs.size());
    e.pc = c.dispatch.pc;
    e.resolved = c.dispatch.instr;
    isa::UnitOf(static_cast<isa::Opcode>(e.resolved.opcode()), &e.unit);
    e.dispatch = now;
    const isa::Cost cost = isa::CostOf(e.resolved, kZeroRegs, cfg_);
    e.work = cost.work;
    e.port_b = cost.port_b;
    e.port_a = cost.port_a;
    slot_idx_[size_t(c.dispatch.slot)] = e.idx;
    events_.instrs.push_back(std::move(e));
  }
  for (int u = 0; u < kCoreUnits; ++u) {
    const CoreCycle::Start& s = c.start[size_t(u)];
    if (!s.valid) continue;
    trace::InstrEvent* e = InSlot(s.slot, now, "start");
    if (e == nullptr) continue;
    e->start = now;
    // The RTL's ready cycle has 32 bits; it lies at most 2^32 - 1 cycles before the start.
    e->ready = now - int64_t(uint32_t(uint32_t(now) - s.ready));
  }
  if (c.release.valid) {
    if (trace::InstrEvent* e = InSlot(c.release.slot, now, "release")) e->release = now;
  }
  for (int u = 0; u < kCoreUnits; ++u) {
    const CoreCycle::End& s = c.end[size_t(u)];
    if (!s.valid) continue;
    trace::InstrEvent* e = InSlot(s.slot, now, "end");
    if (e == nullptr) continue;
    if (e->start < 0 && status_.ok()) {
      status_ = Internal("cycle " + std::to_string(now) + ": slot " + std::to_string(s.slot) +
                         " ended before it started");
    }
    e->end = now + 1;  // the first cycle the unit is free again
    trace::NameUnitCounters(e->unit, s.counters, &e->counters);
    slot_idx_[size_t(s.slot)] = -1;
  }
  if (c.window.valid) {
    WindowRecord w;
    w.last = now;
    w.n = c.window.n;
    for (int i = 0; i < kWindowColumns; ++i) w.columns[size_t(i)] = c.window.columns[size_t(i)];
    windows_.push_back(w);
  }
  if (c.halt.valid) {
    halted_ = true;
    events_.cycles = now + 1;
    for (int i = 0; i < 4; ++i) ports_[size_t(i)] = c.halt.ports[size_t(i)];
  }
}

}  // namespace otpu::rtl
