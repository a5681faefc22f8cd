#include "workloads/isa/disasm.h"

#include <cstdio>
#include <cstring>

#include "base/strings.h"

namespace otpu::isa {
namespace {

// "t1024" or "t1024+r3" (the register is shown only while unresolved).
std::string Operand(char space, const Addr& a, bool resolved) {
  if (space == 'd') {
    return resolved || a.reg == 0 ? StrFormat("d0x%x", a.imm) : StrFormat("d0x%x+r%d", a.imm, a.reg);
  }
  return resolved || a.reg == 0 ? StrFormat("%c%u", space, a.imm) : StrFormat("%c%u+r%d", space, a.imm, a.reg);
}

std::string FloatText(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return StrFormat("%g", double(f));
}

}  // namespace

std::string InstrName(const Instr& in) {
  const char* name = OpcodeName(static_cast<Opcode>(in.opcode()));
  if (!name) return StrFormat("ILLEGAL(0x%02x)", in.opcode());
  if (static_cast<Opcode>(in.opcode()) != Opcode::kVOP) return name;
  const char* fn = VopFnName(static_cast<VopFn>(in.w[4] & 0xFF));
  if (!fn) return StrFormat("VOP.ILLEGAL(%u)", in.w[4] & 0xFF);
  return std::string("VOP.") + fn;
}

std::string InstrDetail(const Instr& in, const uint32_t* regs) {
  bool res = regs != nullptr;
  switch (static_cast<Opcode>(in.opcode())) {
    case Opcode::kNOP:
    case Opcode::kHALT:
      return "";
    case Opcode::kLI: {
      LiOp op = DecodeLi(in);
      return StrFormat("r%d = %u", op.rd, op.imm);
    }
    case Opcode::kADDI: {
      AddiOp op = DecodeAddi(in, nullptr);
      return StrFormat("r%d = r%d + %d", op.rd, op.src.reg, int32_t(op.src.imm));
    }
    case Opcode::kLOOP: {
      LoopOp op = DecodeLoop(in, nullptr);
      if (op.count.reg) return StrFormat("x(r%d+%u) next %u", op.count.reg, op.count.imm, op.body);
      return StrFormat("x%u next %u", op.count.imm, op.body);
    }
    case Opcode::kLD:
    case Opcode::kST: {
      DmaOp op = DecodeDma(in, regs);
      bool ld = in.opcode() == uint8_t(Opcode::kLD);
      std::string t = Operand('t', op.tmem, res), d = Operand('d', op.dram, res);
      return StrFormat("%ux%u %s -> %s", op.rows, op.n, (ld ? d : t).c_str(), (ld ? t : d).c_str());
    }
    case Opcode::kMM: {
      MmOp op = DecodeMm(in, regs);
      std::string s = StrFormat("%ux%u . %ux%u^T", op.m, op.k, op.n, op.k);
      if (op.acc) s += " +acc";
      if (op.wf != WFormat::kINT8) s += std::string(" ") + WFormatName(op.wf);
      if (op.unit) s += " unit";
      s += " " + Operand('d', op.w, res) + " -> " + Operand('t', op.out, res);
      return s;
    }
    case Opcode::kQACT: {
      QactOp op = DecodeQact(in, regs);
      return StrFormat("%ux%u %s -> act[%u,%u]%s", op.rows, op.k, Operand('t', op.src, res).c_str(),
                 op.act_row, op.act_block, op.perrow ? " perrow" : "");
    }
    case Opcode::kQST: {
      QstOp op = DecodeQst(in, regs);
      std::string s = StrFormat("%ux%u %s -> %s", op.rows, op.n, Operand('t', op.src, res).c_str(),
                          Operand('d', op.dst, res).c_str());
      if (op.elem_stride != 1) s += StrFormat(" stride %u", op.elem_stride);
      if (op.perrow) s += " perrow";
      return s;
    }
    case Opcode::kVOP: {
      VopOp op = DecodeVop(in, regs);
      std::string s = StrFormat("%ux%u", op.m, op.n);
      bool uses_b = !IsReductionFn(op.fn) && op.fn != VopFn::kCOPY;
      if (uses_b) {
        if (op.bzero) s += " b=0";
        else s += std::string(" b:") + BModeName(op.bmode);
      }
      if (op.fn == VopFn::kSCALE || IsCompositeFn(op.fn) || IsReductionFn(op.fn)) {
        if (op.c != 0x3F800000u) s += " c=" + FloatText(op.c);
      }
      s += " -> " + Operand('t', op.dst, res);
      return s;
    }
    default:
      return StrFormat("w0=0x%08x", in.w[0]);
  }
}

std::string Disassemble(const Instr& in, const uint32_t* regs) {
  std::string detail = InstrDetail(in, regs);
  return detail.empty() ? InstrName(in) : InstrName(in) + " " + detail;
}

}  // namespace otpu::isa
