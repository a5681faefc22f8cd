// Disassembler: the profile's `name` ("MM", "VOP.ADD") and `detail` ("3x128 . 256x128^T +acc").
#ifndef OTPU_WORKLOADS_ISA_DISASM_H_
#define OTPU_WORKLOADS_ISA_DISASM_H_

#include <string>

#include "workloads/isa/instr.h"

namespace otpu::isa {

// "LD", "MM", "VOP.EXP2", ...; "ILLEGAL(0xNN)" for an unknown opcode or function.
std::string InstrName(const Instr& in);
// Shapes and operands in a compact form; `regs` (may be nullptr) resolves addresses.
std::string InstrDetail(const Instr& in, const uint32_t* regs);
// Name and detail in one line, as an assembler listing shows it.
std::string Disassemble(const Instr& in, const uint32_t* regs = nullptr);

}  // namespace otpu::isa

#endif  // OTPU_WORKLOADS_ISA_DISASM_H_
