#include "workloads/isa/instr.h"

#include <gtest/gtest.h>

#include "workloads/isa/cost.h"

namespace otpu::isa {
namespace {

TEST(Instr, Word0FieldsLandWhereTheSpecSays) {
  MmOp op;
  op.out = At(3, 100);
  op.w = At(4, 0x1000);
  op.scales = At(5, 0x2000);
  op.acc = true;
  op.wf = WFormat::kFP4;
  Instr in = EncodeMm(op);
  EXPECT_EQ(in.opcode(), 0x20);
  EXPECT_EQ(in.ra(), 3);
  EXPECT_EQ(in.rb(), 4);
  EXPECT_EQ(in.rc(), 5);
  EXPECT_EQ(in.flags(), kMM_ACC | (2u << kMM_WF_SHIFT));
  EXPECT_EQ(in.w[0], 0x09054320u);
}

TEST(Instr, MmRoundTripsEveryField) {
  MmOp op;
  op.out = At(1, 7);
  op.w = At(2, 0x40000);
  op.scales = At(0, 0x80000);
  op.n = 151936;
  op.k = 4096;
  op.m = 8;
  op.act_row = 8;
  op.act_block = 96;
  op.w_stride = 4096;
  op.out_stride = 4096;
  op.unit = true;
  op.wf = WFormat::kINT4;
  MmOp back = DecodeMm(EncodeMm(op), nullptr);
  EXPECT_EQ(back.out.reg, 1);
  EXPECT_EQ(back.out.imm, 7u);
  EXPECT_EQ(back.w.imm, 0x40000u);
  EXPECT_EQ(back.n, op.n);
  EXPECT_EQ(back.k, op.k);
  EXPECT_EQ(back.m, op.m);
  EXPECT_EQ(back.act_row, op.act_row);
  EXPECT_EQ(back.act_block, op.act_block);
  EXPECT_EQ(back.w_stride, op.w_stride);
  EXPECT_EQ(back.out_stride, op.out_stride);
  EXPECT_TRUE(back.unit);
  EXPECT_FALSE(back.acc);
  EXPECT_EQ(back.wf, WFormat::kINT4);
}

TEST(Instr, VopRoundTripsEveryField) {
  VopOp op;
  op.fn = VopFn::kEXP2;
  op.bmode = BMode::kROW;
  op.bzero = true;
  op.dst = At(1, 10);
  op.a = At(2, 20);
  op.b = At(3, 30);
  op.n = 2048;
  op.m = 4;
  op.dst_stride = 2048;
  op.a_stride = 4096;
  op.b_stride = 1;
  op.c = 0x40000000u;
  VopOp back = DecodeVop(EncodeVop(op), nullptr);
  EXPECT_EQ(back.fn, VopFn::kEXP2);
  EXPECT_EQ(back.bmode, BMode::kROW);
  EXPECT_TRUE(back.bzero);
  EXPECT_EQ(back.n, 2048u);
  EXPECT_EQ(back.m, 4u);
  EXPECT_EQ(back.dst_stride, 2048u);
  EXPECT_EQ(back.a_stride, 4096u);
  EXPECT_EQ(back.b_stride, 1u);
  EXPECT_EQ(back.c, 0x40000000u);
  EXPECT_EQ(back.b.reg, 3);
}

TEST(Instr, QactAndQstRoundTrip) {
  QactOp q;
  q.src = At(1, 5);
  q.k = 4096;
  q.rows = 8;
  q.src_stride = 4096;
  q.act_row = 8;
  q.act_block = 127;
  q.perrow = true;
  QactOp qb = DecodeQact(EncodeQact(q), nullptr);
  EXPECT_EQ(qb.k, 4096u);
  EXPECT_EQ(qb.rows, 8u);
  EXPECT_EQ(qb.act_row, 8u);
  EXPECT_EQ(qb.act_block, 127u);
  EXPECT_TRUE(qb.perrow);

  QstOp s;
  s.src = At(1, 5);
  s.dst = At(9, 0x100);
  s.scales = At(10, 0x200);
  s.n = 128;
  s.rows = 2;
  s.src_stride = 128;
  s.elem_stride = 2048;
  s.dst_stride = 128 * 2048;
  QstOp sb = DecodeQst(EncodeQst(s), nullptr);
  EXPECT_EQ(sb.dst.reg, 9);
  EXPECT_EQ(sb.n, 128u);
  EXPECT_EQ(sb.rows, 2u);
  EXPECT_EQ(sb.elem_stride, 2048u);
  EXPECT_EQ(sb.dst_stride, 128u * 2048);
}

TEST(Instr, RegistersResolveAddressOperands) {
  uint32_t regs[16] = {};
  regs[9] = 1000;
  DmaOp op;
  op.tmem = At(0, 64);
  op.dram = At(9, 24);
  op.n = 4;
  DmaOp back = DecodeDma(EncodeLd(op), regs);
  EXPECT_EQ(back.tmem.imm, 64u);
  EXPECT_EQ(back.dram.imm, 1024u);
}

TEST(Cost, LoadCountsTouchedChunks) {
  Config cfg;
  DmaOp op;
  op.dram = At(28);  // straddles the 32-byte boundary
  op.n = 2;
  op.rows = 3;
  op.dram_stride = 32;
  Cost c = CostOf(EncodeLd(op), nullptr, cfg);
  EXPECT_EQ(c.port_b, 6);
  EXPECT_EQ(c.work, 6);
  EXPECT_EQ(c.bytes, 24);
}

TEST(Cost, MatmulStreamsEveryWeightChunkOncePerPass) {
  Config cfg;  // D=32, MCOLS=8
  MmOp op;
  op.n = 256;
  op.k = 128;
  op.m = 9;  // two passes
  Cost c = CostOf(EncodeMm(op), nullptr, cfg);
  EXPECT_EQ(c.port_b, 2 * 256 * 4);
  EXPECT_EQ(c.port_a, 2 * 256 * 4);
  EXPECT_EQ(c.macs, 9 * 256 * 128);
  op.wf = WFormat::kINT4;
  op.unit = true;
  c = CostOf(EncodeMm(op), nullptr, cfg);
  EXPECT_EQ(c.port_b, 2 * 256 * 2);
  EXPECT_EQ(c.port_a, 0);
}

TEST(Cost, CompositeVopsUseTheCompositeLanes) {
  Config cfg;  // LANES 8, CL 2
  VopOp op;
  op.fn = VopFn::kADD;
  op.n = 100;
  op.m = 2;
  EXPECT_EQ(CostOf(EncodeVop(op), nullptr, cfg).work, 2 * 13);
  op.fn = VopFn::kEXP2;
  EXPECT_EQ(CostOf(EncodeVop(op), nullptr, cfg).work, 2 * 50);
}

}  // namespace
}  // namespace otpu::isa
