// The units' semantics (docs/isa.md "Instructions"): what LD, ST, MM, QACT, QST and VOP do
// to TMEM, ACT RAM and DRAM. Callers pass operands that passed checks.h, so every access
// lies inside its memory.
#ifndef OTPU_SIM_ISA_UNITS_H_
#define OTPU_SIM_ISA_UNITS_H_

#include <cstdint>
#include <vector>

#include "sim/isa/act_ram.h"
#include "base/sparse_memory.h"
#include "workloads/isa/config.h"
#include "workloads/isa/instr.h"

namespace otpu::sim {

// The memories one instruction works on, and reusable scratch buffers (so the hot loop
// allocates nothing). Borrowed references; the simulator owns the memories.
struct Machine {
  const isa::Config& cfg;
  std::vector<uint32_t>& tmem;
  ActRam& act;
  SparseMemory& dram;
  std::vector<uint8_t> bytes;   // a DRAM row as read
  std::vector<int8_t> values;   // a decoded weight row / a quantized row
  std::vector<float> floats;    // a row of fp32 values (TMEM row, DRAM scales)
  std::vector<float> scales;    // per-block scales of a row
};

void ExecLd(const isa::DmaOp& op, Machine& m);
void ExecSt(const isa::DmaOp& op, Machine& m);
void ExecMm(const isa::MmOp& op, Machine& m);
void ExecQact(const isa::QactOp& op, Machine& m);
void ExecQst(const isa::QstOp& op, Machine& m);
void ExecVop(const isa::VopOp& op, Machine& m);

// Decodes a 4-bit weight row (two elements per byte, element 2i in the low nibble of byte i)
// into k int8 values: int4 as two's complement, fp4 E2M1 as twice its value.
void DecodeNibbles(const uint8_t* bytes, uint32_t k, isa::WFormat wf, int8_t* out);

}  // namespace otpu::sim

#endif  // OTPU_SIM_ISA_UNITS_H_
