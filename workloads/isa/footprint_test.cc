#include "workloads/isa/footprint.h"

#include <gtest/gtest.h>

namespace otpu::isa {
namespace {

Instr Ld(uint32_t tmem, uint32_t dram, uint32_t n, uint32_t rows = 1) {
  DmaOp op;
  op.tmem = At(tmem);
  op.dram = At(dram);
  op.n = n;
  op.rows = rows;
  op.tmem_stride = n;
  op.dram_stride = 4 * n;
  return EncodeLd(op);
}

Instr St(uint32_t tmem, uint32_t dram, uint32_t n) {
  DmaOp op;
  op.tmem = At(tmem);
  op.dram = At(dram);
  op.n = n;
  return EncodeSt(op);
}

TEST(Footprint, LdWritesTmemAndReadsDramRowsAsBoundingIntervals) {
  const Footprint fp = FootprintOf(Ld(0x100, 0x4000, 8, 3), Config::Sim());
  EXPECT_TRUE(fp.tm[0].v && fp.tm[0].wr);
  EXPECT_EQ(fp.tm[0].lo, 0x100u);
  EXPECT_EQ(fp.tm[0].hi, 0x100u + 2 * 8 + 8);
  EXPECT_TRUE(fp.dr[0].v && !fp.dr[0].wr);
  EXPECT_EQ(fp.dr[0].hi, 0x4000u + 2 * 32 + 32);
  EXPECT_FALSE(fp.tm[1].v || fp.dr[1].v || fp.act_rows.v);
}

TEST(Footprint, StAfterLdOfTheSameWordsIsRawOnTmem) {
  const Conflict c = ConflictOf(FootprintOf(Ld(0x100, 0x4000, 8), Config::Sim()),
                                FootprintOf(St(0x104, 0x8000, 8), Config::Sim()), true);
  EXPECT_TRUE(c.any);
  EXPECT_FALSE(c.dram);
  EXPECT_EQ(c.what, "RAW on TMEM [0x100, 0x108) / [0x104, 0x10c)");
}

TEST(Footprint, LdIntoWordsAnOlderStReadsIsWarAndDisjointWordsDoNotConflict) {
  const Footprint st = FootprintOf(St(0x100, 0x8000, 8), Config::Sim());
  EXPECT_EQ(ConflictOf(st, FootprintOf(Ld(0x100, 0x0, 8), Config::Sim()), true).what.substr(0, 3),
            "WAR");
  EXPECT_EQ(ConflictOf(FootprintOf(Ld(0x100, 0x0, 8), Config::Sim()),
                       FootprintOf(Ld(0x104, 0x0, 8), Config::Sim()), true).what.substr(0, 3),
            "WAW");
  EXPECT_FALSE(ConflictOf(st, FootprintOf(Ld(0x108, 0x0, 8), Config::Sim())).any);
  EXPECT_TRUE(ConflictOf(st, FootprintOf(Ld(0x300, 0x8000, 8), Config::Sim())).dram);
}

TEST(Footprint, TwoReadsNeverConflict) {
  EXPECT_FALSE(ConflictOf(FootprintOf(St(0x100, 0x8000, 8), Config::Sim()),
                          FootprintOf(St(0x100, 0x9000, 8), Config::Sim()))
                   .any);
}

TEST(Footprint, MmAfterQactConflictsOnlyWhereRowsAndBlocksBothOverlap) {
  QactOp q;
  q.src = At(0);
  q.k = 64;  // two blocks of D = 32
  q.rows = 2;
  q.src_stride = 64;
  q.act_row = 0;
  q.act_block = 0;
  MmOp mm;
  mm.out = At(0x1000);
  mm.w = At(0x10000);
  mm.scales = At(0x20000);
  mm.n = 4;
  mm.k = 32;
  mm.m = 1;
  mm.w_stride = 32;
  mm.act_row = 1;
  mm.act_block = 1;
  const Footprint qf = FootprintOf(EncodeQact(q), Config::Sim());
  const Conflict c = ConflictOf(qf, FootprintOf(EncodeMm(mm), Config::Sim()), true);
  EXPECT_TRUE(c.any);
  EXPECT_FALSE(c.dram);
  EXPECT_EQ(c.what.substr(0, 14), "RAW on ACT RAM");
  mm.act_block = 2;  // row 1 overlaps, block 2 does not
  EXPECT_FALSE(ConflictOf(qf, FootprintOf(EncodeMm(mm), Config::Sim())).any);
}

TEST(Footprint, MmReadsWeightsAndScalesAndUnitDropsTheScales) {
  MmOp mm;
  mm.out = At(0);
  mm.w = At(0x10000);
  mm.scales = At(0x20000);
  mm.n = 4;
  mm.k = 64;
  mm.m = 1;
  mm.w_stride = 64;
  const Footprint fp = FootprintOf(EncodeMm(mm), Config::Sim());
  EXPECT_EQ(fp.dr[0].hi, 0x10000u + 3 * 64 + 64);
  EXPECT_TRUE(fp.dr[1].v);
  EXPECT_EQ(fp.dr[1].hi, 0x20000u + 4 * 4 * 2);
  const Conflict c = ConflictOf(FootprintOf(St(0, 0x20010, 1), Config::Sim()), fp, true);
  EXPECT_TRUE(c.dram && c.any);
  EXPECT_EQ(c.what.substr(0, 12), "RAW on DRAM ");
  mm.unit = true;
  EXPECT_FALSE(FootprintOf(EncodeMm(mm), Config::Sim()).dr[1].v);
}

TEST(Footprint, VopFillReadsNoAAndBzeroReadsNoB) {
  VopOp v;
  v.fn = VopFn::kFILL;
  v.dst = At(0);
  v.a = At(0x100);
  v.b = At(0x200);
  v.n = 8;
  v.m = 2;
  v.dst_stride = 8;
  v.a_stride = 8;
  v.b_stride = 8;
  Footprint fp = FootprintOf(EncodeVop(v), Config::Sim());
  EXPECT_FALSE(fp.tm[1].v);
  EXPECT_TRUE(fp.tm[2].v);
  v.fn = VopFn::kADD;
  v.bzero = true;
  fp = FootprintOf(EncodeVop(v), Config::Sim());
  EXPECT_TRUE(fp.tm[1].v);
  EXPECT_FALSE(fp.tm[2].v);
  v.fn = VopFn::kRSUM;  // a reduction writes one word per row
  v.bzero = false;
  fp = FootprintOf(EncodeVop(v), Config::Sim());
  EXPECT_EQ(fp.tm[0].hi, 8u + 1);
  EXPECT_FALSE(fp.tm[2].v);
}

}  // namespace
}  // namespace otpu::isa
