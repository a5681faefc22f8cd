#include "workloads/isa/instr.h"

namespace otpu::isa {
namespace {

uint32_t Word0(Opcode op, uint8_t ra, uint8_t rb, uint8_t rc, uint8_t rd, uint8_t flags) {
  return uint32_t(op) | (uint32_t(ra & 0xF) << 8) | (uint32_t(rb & 0xF) << 12) |
         (uint32_t(rc & 0xF) << 16) | (uint32_t(rd & 0xF) << 20) | (uint32_t(flags) << 24);
}

Addr Resolve(uint8_t reg, uint32_t imm, const uint32_t* regs) {
  return Addr{reg, regs ? imm + (reg == 0 ? 0u : regs[reg]) : imm};
}

uint32_t Lo16(uint32_t v) { return v & 0xFFFF; }
uint32_t Hi16(uint32_t v) { return v >> 16; }

}  // namespace

Instr EncodeNop() { return Instr{}; }

Instr EncodeHalt() {
  Instr in;
  in.w[0] = Word0(Opcode::kHALT, 0, 0, 0, 0, 0);
  return in;
}

Instr EncodeLi(const LiOp& op) {
  Instr in;
  in.w[0] = Word0(Opcode::kLI, 0, 0, 0, op.rd, 0);
  in.w[1] = op.imm;
  return in;
}

Instr EncodeAddi(const AddiOp& op) {
  Instr in;
  in.w[0] = Word0(Opcode::kADDI, op.src.reg, 0, 0, op.rd, 0);
  in.w[1] = op.src.imm;
  return in;
}

Instr EncodeLoop(const LoopOp& op) {
  Instr in;
  in.w[0] = Word0(Opcode::kLOOP, op.count.reg, 0, 0, 0, 0);
  in.w[1] = op.count.imm;
  in.w[4] = op.body;
  return in;
}

static Instr EncodeDma(Opcode opc, const DmaOp& op) {
  Instr in;
  in.w[0] = Word0(opc, op.tmem.reg, op.dram.reg, 0, 0, 0);
  in.w[1] = op.tmem.imm;
  in.w[2] = op.dram.imm;
  in.w[4] = op.n;
  in.w[5] = op.rows;
  in.w[6] = op.dram_stride;
  in.w[7] = op.tmem_stride;
  return in;
}
Instr EncodeLd(const DmaOp& op) { return EncodeDma(Opcode::kLD, op); }
Instr EncodeSt(const DmaOp& op) { return EncodeDma(Opcode::kST, op); }

Instr EncodeMm(const MmOp& op) {
  uint8_t flags = (op.acc ? kMM_ACC : 0) | (op.unit ? kMM_UNIT : 0) |
                  ((uint32_t(op.wf) << kMM_WF_SHIFT) & kMM_WF_MASK);
  Instr in;
  in.w[0] = Word0(Opcode::kMM, op.out.reg, op.w.reg, op.scales.reg, 0, flags);
  in.w[1] = op.out.imm;
  in.w[2] = op.w.imm;
  in.w[3] = op.scales.imm;
  in.w[4] = op.n;
  in.w[5] = Lo16(op.k) | ((op.m & 0xFF) << 16) | ((op.act_row & 0xFF) << 24);
  in.w[6] = op.w_stride;
  in.w[7] = Lo16(op.out_stride) | (op.act_block << 16);
  return in;
}

Instr EncodeQact(const QactOp& op) {
  Instr in;
  in.w[0] = Word0(Opcode::kQACT, op.src.reg, 0, 0, 0, op.perrow ? kQ_PERROW : 0);
  in.w[1] = op.src.imm;
  in.w[4] = Lo16(op.k) | (op.rows << 16);
  in.w[5] = op.src_stride;
  in.w[6] = (op.act_row & 0xFF) | (Lo16(op.act_block) << 8);
  return in;
}

Instr EncodeQst(const QstOp& op) {
  Instr in;
  in.w[0] = Word0(Opcode::kQST, op.src.reg, op.dst.reg, op.scales.reg, 0, op.perrow ? kQ_PERROW : 0);
  in.w[1] = op.src.imm;
  in.w[2] = op.dst.imm;
  in.w[3] = op.scales.imm;
  in.w[4] = Lo16(op.n) | (op.rows << 16);
  in.w[5] = op.src_stride;
  in.w[6] = op.elem_stride;
  in.w[7] = op.dst_stride;
  return in;
}

Instr EncodeVop(const VopOp& op) {
  uint8_t flags = (uint32_t(op.bmode) & kVOP_BMODE_MASK) | (op.bzero ? kVOP_BZERO : 0);
  Instr in;
  in.w[0] = Word0(Opcode::kVOP, op.dst.reg, op.a.reg, op.b.reg, 0, flags);
  in.w[1] = op.dst.imm;
  in.w[2] = op.a.imm;
  in.w[3] = op.b.imm;
  in.w[4] = uint32_t(op.fn) | (op.b_stride << 16);
  in.w[5] = Lo16(op.n) | (op.m << 16);
  in.w[6] = Lo16(op.dst_stride) | (op.a_stride << 16);
  in.w[7] = op.c;
  return in;
}

LiOp DecodeLi(const Instr& in) { return LiOp{in.rd(), in.w[1]}; }

AddiOp DecodeAddi(const Instr& in, const uint32_t* regs) {
  return AddiOp{in.rd(), Resolve(in.ra(), in.w[1], regs)};
}

LoopOp DecodeLoop(const Instr& in, const uint32_t* regs) {
  return LoopOp{Resolve(in.ra(), in.w[1], regs), in.w[4]};
}

DmaOp DecodeDma(const Instr& in, const uint32_t* regs) {
  DmaOp op;
  op.tmem = Resolve(in.ra(), in.w[1], regs);
  op.dram = Resolve(in.rb(), in.w[2], regs);
  op.n = in.w[4];
  op.rows = in.w[5];
  op.dram_stride = in.w[6];
  op.tmem_stride = in.w[7];
  return op;
}

MmOp DecodeMm(const Instr& in, const uint32_t* regs) {
  MmOp op;
  op.out = Resolve(in.ra(), in.w[1], regs);
  op.w = Resolve(in.rb(), in.w[2], regs);
  op.scales = Resolve(in.rc(), in.w[3], regs);
  op.n = in.w[4];
  op.k = Lo16(in.w[5]);
  op.m = (in.w[5] >> 16) & 0xFF;
  op.act_row = in.w[5] >> 24;
  op.w_stride = in.w[6];
  op.out_stride = Lo16(in.w[7]);
  op.act_block = Hi16(in.w[7]);
  op.acc = in.flags() & kMM_ACC;
  op.unit = in.flags() & kMM_UNIT;
  op.wf = static_cast<WFormat>((in.flags() & kMM_WF_MASK) >> kMM_WF_SHIFT);
  return op;
}

QactOp DecodeQact(const Instr& in, const uint32_t* regs) {
  QactOp op;
  op.src = Resolve(in.ra(), in.w[1], regs);
  op.k = Lo16(in.w[4]);
  op.rows = Hi16(in.w[4]);
  op.src_stride = in.w[5];
  op.act_row = in.w[6] & 0xFF;
  op.act_block = (in.w[6] >> 8) & 0xFFFF;
  op.perrow = in.flags() & kQ_PERROW;
  return op;
}

QstOp DecodeQst(const Instr& in, const uint32_t* regs) {
  QstOp op;
  op.src = Resolve(in.ra(), in.w[1], regs);
  op.dst = Resolve(in.rb(), in.w[2], regs);
  op.scales = Resolve(in.rc(), in.w[3], regs);
  op.n = Lo16(in.w[4]);
  op.rows = Hi16(in.w[4]);
  op.src_stride = in.w[5];
  op.elem_stride = in.w[6];
  op.dst_stride = in.w[7];
  op.perrow = in.flags() & kQ_PERROW;
  return op;
}

VopOp DecodeVop(const Instr& in, const uint32_t* regs) {
  VopOp op;
  op.fn = static_cast<VopFn>(in.w[4] & 0xFF);
  op.bmode = static_cast<BMode>(in.flags() & kVOP_BMODE_MASK);
  op.bzero = in.flags() & kVOP_BZERO;
  op.dst = Resolve(in.ra(), in.w[1], regs);
  op.a = Resolve(in.rb(), in.w[2], regs);
  op.b = Resolve(in.rc(), in.w[3], regs);
  op.b_stride = Hi16(in.w[4]);
  op.n = Lo16(in.w[5]);
  op.m = Hi16(in.w[5]);
  op.dst_stride = Lo16(in.w[6]);
  op.a_stride = Hi16(in.w[6]);
  op.c = in.w[7];
  return op;
}

bool UnitOf(Opcode op, Unit* unit) {
  switch (op) {
    case Opcode::kLD:
    case Opcode::kST: *unit = Unit::kDMA; return true;
    case Opcode::kMM: *unit = Unit::kMXU; return true;
    case Opcode::kQACT:
    case Opcode::kQST: *unit = Unit::kQUANT; return true;
    case Opcode::kVOP: *unit = Unit::kVPU; return true;
    default: return false;
  }
}

bool IsCompositeFn(VopFn fn) {
  return fn == VopFn::kEXP2 || fn == VopFn::kRECIP || fn == VopFn::kRSQRT;
}

bool IsReductionFn(VopFn fn) {
  return fn == VopFn::kRSUM || fn == VopFn::kRMAX || fn == VopFn::kRSSQ;
}

}  // namespace otpu::isa
