// Nominal work and DRAM port transfers of one instruction (docs/isa.md "Cost model").
// Shared by the ISA simulator's analytic timing and every profile builder.
#ifndef OTPU_WORKLOADS_ISA_COST_H_
#define OTPU_WORKLOADS_ISA_COST_H_

#include <cstdint>

#include "workloads/isa/config.h"
#include "workloads/isa/instr.h"

namespace otpu::isa {

struct Cost {
  int64_t work = 0;    // nominal busy cycles of its unit (>= 1 for unit instructions)
  int64_t port_b = 0;  // D-byte chunk transfers on DRAM port B
  int64_t port_a = 0;  // 32-bit word transfers on DRAM port A
  int64_t macs = 0;    // multiply-accumulates (MM)
  int64_t bytes = 0;   // DRAM bytes moved
};

// Cost of an instruction given its effective operands (regs resolves address operands;
// only LD/ST alignment depends on them). Sequencer-only instructions cost nothing.
Cost CostOf(const Instr& in, const uint32_t* regs, const Config& cfg);

// Chunks of D bytes that the byte range [addr, addr+len) touches.
int64_t ChunksTouched(uint64_t addr, uint64_t len, int d);

}  // namespace otpu::isa

#endif  // OTPU_WORKLOADS_ISA_COST_H_
