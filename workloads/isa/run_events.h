// What one run did, instruction by instruction: the common input of every profile builder.
// The ISA simulator fills it with analytic timing; the RTL harness and the trace decoder fill
// it from events. Times are core cycles from the first cycle of the run (cycle 0).
#ifndef OTPU_WORKLOADS_ISA_RUN_EVENTS_H_
#define OTPU_WORKLOADS_ISA_RUN_EVENTS_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "workloads/isa/defs.h"
#include "workloads/isa/instr.h"

namespace otpu::trace {

struct InstrEvent {
  int slice = 0;
  int64_t idx = 0;              // dispatch order among unit instructions
  uint32_t pc = 0;
  isa::Unit unit = isa::Unit::kDMA;
  isa::Instr resolved;          // w1..w3 = effective operands, ra/rb/rc = 0
  int64_t dispatch = -1, ready = -1, release = -1, start = -1, end = -1;  // -1: did not happen
  int64_t work = 0, port_b = 0, port_a = 0;  // nominal work and port transfers (isa::CostOf)
  std::map<std::string, int64_t> counters;   // unit counters (rtl/hw: starve bp frz deny ...)
};

// Names the unit counters of an instruction's end (SPEC 5 U records) into `out`: MXU
// starve bp frz deny, QUANT and VPU frz, DMA none. Shared by the RTL event collector and the
// trace decoder so both name them alike.
inline void NameUnitCounters(isa::Unit unit, const std::array<uint32_t, 4>& v,
                             std::map<std::string, int64_t>* out) {
  switch (unit) {
    case isa::Unit::kMXU:
      (*out)["starve"] = v[0];
      (*out)["bp"] = v[1];
      (*out)["frz"] = v[2];
      (*out)["deny"] = v[3];
      break;
    case isa::Unit::kQUANT:
    case isa::Unit::kVPU:
      (*out)["frz"] = v[0];
      break;
    default:
      break;
  }
}

struct RunEvents {
  int64_t cycles = 0;              // cycles from RUN to HALTED
  int64_t retired = 0;             // instructions retired, sequencer ones included
  std::vector<InstrEvent> instrs;  // unit instructions in dispatch order
};

}  // namespace otpu::trace

#endif  // OTPU_WORKLOADS_ISA_RUN_EVENTS_H_
