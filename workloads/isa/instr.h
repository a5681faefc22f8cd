// Instruction encoding (SPEC 3.3, docs/isa.md): 8 little-endian 32-bit words.
// w0 = opcode[7:0] | ra[11:8] | rb[15:12] | rc[19:16] | rd[23:20] | flags[31:24].
// Address operands are register + immediate: e1 = R[ra]+w1, e2 = R[rb]+w2, e3 = R[rc]+w3.
#ifndef OTPU_WORKLOADS_ISA_INSTR_H_
#define OTPU_WORKLOADS_ISA_INSTR_H_

#include <array>
#include <cstdint>
#include <string>

#include "workloads/isa/defs.h"

namespace otpu::isa {

struct Instr {
  std::array<uint32_t, kInstrWords> w{};

  uint8_t opcode() const { return w[0] & 0xFF; }
  uint8_t ra() const { return (w[0] >> 8) & 0xF; }
  uint8_t rb() const { return (w[0] >> 12) & 0xF; }
  uint8_t rc() const { return (w[0] >> 16) & 0xF; }
  uint8_t rd() const { return (w[0] >> 20) & 0xF; }
  uint8_t flags() const { return w[0] >> 24; }
  bool operator==(const Instr& o) const { return w == o.w; }
};

// A register + immediate address operand.
struct Addr {
  uint8_t reg = 0;
  uint32_t imm = 0;
};
inline Addr At(uint32_t imm) { return Addr{0, imm}; }
inline Addr At(uint8_t reg, uint32_t imm) { return Addr{reg, imm}; }

// Per-opcode operand structs: what a program builder fills and what the decoder returns
// (with `imm` then holding the effective address and `reg` the register it came from).
struct LiOp { uint8_t rd = 0; uint32_t imm = 0; };
struct AddiOp { uint8_t rd = 0; Addr src; };                   // R[rd] = R[src.reg] + imm
struct LoopOp { Addr count; uint32_t body = 1; };              // repeat next `body` instrs
struct DmaOp {                                                 // LD (DRAM->TMEM) / ST
  Addr tmem, dram;
  uint32_t n = 0, rows = 1;               // fp32 words per row, rows
  uint32_t dram_stride = 0, tmem_stride = 0;  // bytes, words
};
struct MmOp {
  Addr out, w, scales;
  uint32_t n = 0, k = 0, m = 1;           // out[m x n] (+)= act[m x k] . W[n x k]^T
  uint32_t act_row = 0, act_block = 0;    // act = ACT RAM rows act_row.., blocks act_block..
  uint32_t w_stride = 0;                  // bytes between W rows in DRAM
  uint32_t out_stride = 0;                // words between out rows in TMEM
  bool acc = false, unit = false;
  WFormat wf = WFormat::kINT8;
};
struct QactOp {
  Addr src;
  uint32_t k = 0, rows = 1, src_stride = 0;
  uint32_t act_row = 0, act_block = 0;
  bool perrow = false;
};
struct QstOp {
  Addr src, dst, scales;
  uint32_t n = 0, rows = 1, src_stride = 0;
  uint32_t elem_stride = 1, dst_stride = 0;  // bytes between elements / rows in DRAM
  bool perrow = false;
};
struct VopOp {
  VopFn fn = VopFn::kCOPY;
  BMode bmode = BMode::kFULL;
  bool bzero = false;                     // B reads as +0 (no TMEM read)
  Addr dst, a, b;
  uint32_t n = 1, m = 1;                  // columns, rows
  uint32_t dst_stride = 0, a_stride = 0, b_stride = 0;  // words between rows
  uint32_t c = 0x3F800000u;               // fp32 constant C (bits), 1.0 by default
};

Instr EncodeNop();
Instr EncodeHalt();
Instr EncodeLi(const LiOp& op);
Instr EncodeAddi(const AddiOp& op);
Instr EncodeLoop(const LoopOp& op);
Instr EncodeLd(const DmaOp& op);
Instr EncodeSt(const DmaOp& op);
Instr EncodeMm(const MmOp& op);
Instr EncodeQact(const QactOp& op);
Instr EncodeQst(const QstOp& op);
Instr EncodeVop(const VopOp& op);

// Decoders: field extraction only (no legality checks). `regs` (16 values) resolves address
// operands to effective addresses; nullptr leaves the immediates as they are.
LiOp DecodeLi(const Instr& in);
AddiOp DecodeAddi(const Instr& in, const uint32_t* regs);
LoopOp DecodeLoop(const Instr& in, const uint32_t* regs);
DmaOp DecodeDma(const Instr& in, const uint32_t* regs);
MmOp DecodeMm(const Instr& in, const uint32_t* regs);
QactOp DecodeQact(const Instr& in, const uint32_t* regs);
QstOp DecodeQst(const Instr& in, const uint32_t* regs);
VopOp DecodeVop(const Instr& in, const uint32_t* regs);

// The unit an opcode runs on; false for sequencer-only opcodes (NOP HALT LI ADDI LOOP).
bool UnitOf(Opcode op, Unit* unit);

// Composite (CL-lane) VOP functions and row reductions.
bool IsCompositeFn(VopFn fn);
bool IsReductionFn(VopFn fn);

}  // namespace otpu::isa

#endif  // OTPU_WORKLOADS_ISA_INSTR_H_
