// Legality of unit instructions (docs/isa.md "Errors"): shapes, alignment and memory ranges,
// checked on the decoded operands (effective addresses) before anything is touched, so an
// illegal instruction never reads or writes outside a memory. Messages give the reason only;
// the simulator prefixes the pc and the instruction name.
#ifndef OTPU_SIM_ISA_CHECKS_H_
#define OTPU_SIM_ISA_CHECKS_H_

#include <cstdint>

#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/instr.h"

namespace otpu::sim {

// Sizes of the memories an instruction may touch.
struct MemSizes {
  uint64_t tmem_words = 0;
  uint64_t dram_bytes = 0;
};

// True when the `count` rows [base + r*stride, + len) all lie inside [0, size), computed
// without overflow. count and len are at least 1.
bool RangeFits(uint64_t base, uint64_t count, uint64_t stride, uint64_t len, uint64_t size);

Status CheckDma(const isa::DmaOp& op, const isa::Config& cfg, const MemSizes& mem);
Status CheckMm(const isa::MmOp& op, const isa::Config& cfg, const MemSizes& mem);
Status CheckQact(const isa::QactOp& op, const isa::Config& cfg, const MemSizes& mem);
Status CheckQst(const isa::QstOp& op, const isa::Config& cfg, const MemSizes& mem);
// `fn_bits` is w4[7:0] as encoded (the decoded op's fn may not be a defined function).
Status CheckVop(const isa::VopOp& op, uint32_t fn_bits, const isa::Config& cfg,
                const MemSizes& mem);

// Whether a VOP function reads its A / B operand (FILL reads no A; COPY and the row
// reductions read no B). Unread operands are not range-checked.
bool VopReadsA(isa::VopFn fn);
bool VopReadsB(isa::VopFn fn);

}  // namespace otpu::sim

#endif  // OTPU_SIM_ISA_CHECKS_H_
