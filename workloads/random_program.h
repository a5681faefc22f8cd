// Random programs for the RTL-vs-ISA parity tests and the regression's `random` workload: legal by construction (every address range
// of every iteration fits the region it was given), with hardware loops (nested, counts from
// registers, bodies that end together), register + immediate addressing (ARG registers
// included) and every unit instruction kind asked for. Small regions make the instructions
// fight over the same TMEM words and DRAM bytes (the hazard variant). InjectFault then makes
// such a program illegal in one of the ways docs/isa.md "Errors" lists.
#ifndef OTPU_WORKLOADS_RANDOM_PROGRAM_H_
#define OTPU_WORKLOADS_RANDOM_PROGRAM_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/sparse_memory.h"
#include "workloads/isa/config.h"
#include "workloads/isa/instr.h"

namespace otpu::workloads {

struct RandomProgramOptions {
  uint64_t seed = 1;
  int segments = 16;               // straight instructions and loops, before HALT
  uint32_t tmem_words = 2048;      // TMEM words [0, tmem_words) the program uses
  uint32_t dram_bytes = 16384;     // DRAM bytes [dram_base, dram_base + dram_bytes) it uses
  // Where its DRAM region starts (a multiple of D). A workload keeps the bytes below
  // kImageBase for the host's program image; the default 0 keeps the parity tests' programs.
  uint64_t dram_base = 0;
  // Unit instruction kinds to draw from (LD ST MM QACT QST VOP).
  std::vector<isa::Opcode> kinds = {isa::Opcode::kLD, isa::Opcode::kST};
  // Constraints toward the edges the regression's functional coverage counts (docs/regress.md
  // "Coverage"): the VOP forms (fn x B mode, and BZERO) in turn, as SystemVerilog's randc, and
  // more one-element PERROW QSTs and QACTs and MMs at the ACT RAM's last block. Off: the
  // parity tests' programs as they were.
  bool edges = false;
  // ACT RAM blocks [0, act_blocks) that QACT and MM use (0: all of them); a few make them
  // meet, so ACT RAM hazards of every kind and distance happen.
  uint32_t act_blocks = 0;
};

struct RandomProgram {
  std::vector<isa::Instr> code;    // ends with HALT
  std::array<uint32_t, 8> args{};  // ARG0..7 the program expects
};

RandomProgram MakeRandomProgram(const isa::Config& cfg, const RandomProgramOptions& opts);

// Fills DRAM bytes [base, base + bytes) with fp32 values of moderate magnitude (|x| in 2^-8..2^8,
// either sign), a few zeros and a few special values (inf, NaN, subnormals); or, for half the
// seeds, values on rounding boundaries (blocks whose quantizer scale is exact and whose values
// quantize to exact halves, rne's ties), which the other half have in a third of their 512-byte chunks.
void FillRandomDram(uint64_t seed, uint32_t bytes, SparseMemory* dram, uint64_t base = 0);

// The program with one fault: an undefined opcode or VOP function, a zero shape, a
// misaligned or out-of-range address, a bad LOOP, or the HALT removed. `what` names it.
std::vector<isa::Instr> InjectFault(const isa::Config& cfg, std::vector<isa::Instr> code,
                                    uint64_t seed, std::string* what);

// The illegal instructions a program can end in: one for each legality check the sequencer
// makes (rtl/core/otpu_seq_check.sv's branches and otpu_seq.sv's LOOP and end checks), so every
// error cause of docs/isa.md "Errors" and every check that raises it.
int IllegalKindCount();
// `code` (legal, ending with HALT) made to end in illegal kind `kind` (0 ..
// IllegalKindCount() - 1): the illegal instruction (or LOOP nest) goes just before the HALT,
// or the HALT becomes a NOP (running past the end). Operands are immediates (register R0), so
// the effective operands are the ones named. `what` gets a name such as "LD past the end of TMEM".
std::vector<isa::Instr> EndInIllegal(const isa::Config& cfg, std::vector<isa::Instr> code,
                                     int kind, std::string* what);

// One line per instruction ("12: LD 1x8 d0x40 -> t16"), for failure messages.
std::string Listing(const std::vector<isa::Instr>& code);

}  // namespace otpu::workloads

#endif  // OTPU_WORKLOADS_RANDOM_PROGRAM_H_
