#include "workloads/isa/disasm.h"

#include <gtest/gtest.h>

namespace otpu::isa {
namespace {

TEST(Disasm, MatmulShowsShapesAndAccumulate) {
  MmOp op;
  op.m = 3;
  op.k = 128;
  op.n = 256;
  op.acc = true;
  op.w = At(0x1000);
  op.out = At(64);
  Instr in = EncodeMm(op);
  EXPECT_EQ(InstrName(in), "MM");
  EXPECT_EQ(InstrDetail(in, nullptr), "3x128 . 256x128^T +acc d0x1000 -> t64");
}

TEST(Disasm, VopNameCarriesTheFunction) {
  VopOp op;
  op.fn = VopFn::kRSSQ;
  op.n = 128;
  op.m = 3;
  EXPECT_EQ(InstrName(EncodeVop(op)), "VOP.RSSQ");
  EXPECT_EQ(InstrDetail(EncodeVop(op), nullptr), "3x128 -> t0");
}

TEST(Disasm, UnresolvedRegistersAreShown) {
  DmaOp op;
  op.tmem = At(0, 16);
  op.dram = At(9, 0x40);
  op.n = 128;
  EXPECT_EQ(Disassemble(EncodeLd(op)), "LD 1x128 d0x40+r9 -> t16");
  uint32_t regs[16] = {};
  regs[9] = 0x100;
  EXPECT_EQ(Disassemble(EncodeLd(op), regs), "LD 1x128 d0x140 -> t16");
}

TEST(Disasm, IllegalOpcodeIsNamed) {
  Instr in;
  in.w[0] = 0x7F;
  EXPECT_EQ(InstrName(in), "ILLEGAL(0x7f)");
}

}  // namespace
}  // namespace otpu::isa
