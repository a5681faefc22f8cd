// Legality of unit instructions (docs/isa.md "Errors"): shapes, alignment and memory ranges,
// checked on the decoded operands (effective addresses) before anything is touched, so an
// illegal instruction never reads or writes outside a memory. Messages give the reason only;
// the simulator prefixes the pc and the instruction name.
#ifndef OTPU_SIM_ISA_CHECKS_H_
#define OTPU_SIM_ISA_CHECKS_H_

#include <cstdint>
#include <string>

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

// The cause number of an IsaSim::Run error message as the RTL numbers it (otpu_core_pkg::err_e:
// 1 opcode, 2 past the end, 3 VOP function, 4 weight format, 5 zero, 6 multiple, 7 alignment,
// 8 W stride, 9 TMEM, 10 DRAM, 11 ACT RAM, 12..15 LOOP body, depth, nest, end); 0 when the
// message is none of them.
int ErrorCauseOf(const std::string& message);
// What such a cause means ("a TMEM range lies outside TMEM"); "no error" for 0.
const char* ErrorCauseName(int cause);

}  // namespace otpu::sim

#endif  // OTPU_SIM_ISA_CHECKS_H_
