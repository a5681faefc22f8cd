// Illegal programs: every error of docs/isa.md "Errors", each checked for what its message
// names (the pc, the instruction and the reason).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/isa/test_util.h"

namespace otpu::sim {
namespace {

using isa::At;
using ::testing::HasSubstr;

isa::DmaOp Dma(uint32_t tmem, uint32_t dram, uint32_t n, uint32_t rows = 1) {
  isa::DmaOp op;
  op.tmem = At(tmem);
  op.dram = At(dram);
  op.n = n;
  op.rows = rows;
  op.dram_stride = 4 * n;
  op.tmem_stride = n;
  return op;
}

isa::MmOp Mm(uint32_t k, uint32_t n = 4) {
  isa::MmOp op;
  op.out = At(0);
  op.w = At(0x1000);
  op.scales = At(0x8000);
  op.n = n;
  op.k = k;
  op.w_stride = k;
  return op;
}

TEST_F(IsaSimTest, UndefinedOpcodeIsNamed) {
  isa::Instr bad;
  bad.w[0] = 0x55;
  EXPECT_EQ(ErrorOf({isa::EncodeNop(), bad}), "pc 1 (ILLEGAL(0x55)): opcode 0x55 is not defined");
}

TEST_F(IsaSimTest, UndefinedVopFunctionIsNamed) {
  isa::Instr in = isa::EncodeVop(Vop(isa::VopFn::kADD, 0, 0, 0, 1));
  in.w[4] = (in.w[4] & ~0xFFu) | 14;
  EXPECT_EQ(ErrorOf({in}), "pc 0 (VOP.ILLEGAL(14)): VOP function 14 is not defined");
}

TEST_F(IsaSimTest, WeightFormat3IsIllegal) {
  isa::Instr in = isa::EncodeMm(Mm(32));
  in.w[0] |= 0x0Cu << 24;
  EXPECT_THAT(ErrorOf({in}), HasSubstr("pc 0 (MM): weight format WF=3 is not defined"));
}

TEST_F(IsaSimTest, KNotAMultipleOfDIsNamed) {
  EXPECT_EQ(ErrorOf({isa::EncodeMm(Mm(100))}), "pc 0 (MM): k=100 is not a multiple of D=32");
}

TEST_F(IsaSimTest, FourBitKMustBeAMultipleOfTwoD) {
  isa::MmOp op = Mm(32);
  op.wf = isa::WFormat::kINT4;
  EXPECT_THAT(ErrorOf({isa::EncodeMm(op)}), HasSubstr("k=32 is not a multiple of 2*D"));
}

TEST_F(IsaSimTest, ZeroShapesAreNamed) {
  EXPECT_EQ(ErrorOf({isa::EncodeLd(Dma(0, 0, 0))}), "pc 0 (LD): n=0: must be at least 1");
  EXPECT_EQ(ErrorOf({isa::EncodeSt(Dma(0, 0, 4, 0))}), "pc 0 (ST): rows=0: must be at least 1");
  EXPECT_THAT(ErrorOf({isa::EncodeMm(Mm(32, 0))}), HasSubstr("(MM): n=0"));
  EXPECT_THAT(ErrorOf({isa::EncodeVop(Vop(isa::VopFn::kADD, 0, 0, 0, 4, 0))}),
              HasSubstr("(VOP.ADD): m=0"));
  isa::QactOp q;
  q.k = 0;
  EXPECT_THAT(ErrorOf({isa::EncodeQact(q)}), HasSubstr("(QACT): k=0"));
}

TEST_F(IsaSimTest, MmRowsBeyondActRowsAreNamed) {
  isa::MmOp op = Mm(32);
  op.m = 17;
  EXPECT_THAT(ErrorOf({isa::EncodeMm(op)}),
              HasSubstr("ACT RAM rows [0, 17) lie outside ACT RAM (ACT_ROWS=16)"));
}

TEST_F(IsaSimTest, MisalignedDramAddressesAreNamed) {
  EXPECT_EQ(ErrorOf({isa::EncodeLd(Dma(0, 2, 1))}),
            "pc 0 (LD): DRAM address 0x2 is not 4-byte aligned");
  isa::DmaOp strided = Dma(0, 0, 1, 2);
  strided.dram_stride = 6;
  EXPECT_THAT(ErrorOf({isa::EncodeLd(strided)}), HasSubstr("DRAM row stride 6 is not 4-byte aligned"));
  isa::MmOp mm = Mm(32);
  mm.w = At(0x1010);
  EXPECT_THAT(ErrorOf({isa::EncodeMm(mm)}), HasSubstr("W address 0x1010 is not 32-byte aligned"));
  mm = Mm(32);
  mm.scales = At(0x8002);
  EXPECT_THAT(ErrorOf({isa::EncodeMm(mm)}), HasSubstr("scale address 0x8002 is not 4-byte"));
  isa::QstOp qst;
  qst.n = 32;
  qst.scales = At(0x11);
  EXPECT_THAT(ErrorOf({isa::EncodeQst(qst)}), HasSubstr("(QST): scale address 0x11"));
}

TEST_F(IsaSimTest, BadWeightRowStrideIsNamed) {
  isa::MmOp op = Mm(64);
  op.w_stride = 48;
  EXPECT_THAT(ErrorOf({isa::EncodeMm(op)}), HasSubstr("W row stride=48 is not a multiple of D=32"));
  op.w_stride = 32;
  EXPECT_THAT(ErrorOf({isa::EncodeMm(op)}),
              HasSubstr("W row stride 32 is shorter than a W row (64 bytes)"));
}

TEST_F(IsaSimTest, QstNeedsAnElementStride) {
  isa::QstOp op;
  op.n = 32;
  op.elem_stride = 0;
  EXPECT_THAT(ErrorOf({isa::EncodeQst(op)}), HasSubstr("(QST): element stride=0"));
  op.elem_stride = 1;
  op.n = 33;
  EXPECT_THAT(ErrorOf({isa::EncodeQst(op)}), HasSubstr("n=33 is not a multiple of D=32"));
}

TEST_F(IsaSimTest, TmemRangeOutsideTmemIsNamed) {
  EXPECT_EQ(ErrorOf({isa::EncodeLd(Dma(65530, 0, 16))}),
            "pc 0 (LD): TMEM rows words [65530, 65546) lie outside TMEM (65536 words)");
  isa::VopOp op = Vop(isa::VopFn::kADD, 0, 65535, 0, 2);
  EXPECT_THAT(ErrorOf({isa::EncodeVop(op)}), HasSubstr("TMEM A words [65535, 65537)"));
  op = Vop(isa::VopFn::kADD, 0, 0, 65535, 1, 2);
  op.bmode = isa::BMode::kROW;
  op.b_stride = 1;
  EXPECT_THAT(ErrorOf({isa::EncodeVop(op)}), HasSubstr("TMEM B words [65535, 65537)"));
}

TEST_F(IsaSimTest, HugeStridesAreCaughtWithoutOverflow) {
  isa::DmaOp op = Dma(0, 0, 1, 0xFFFFFFFFu);
  op.tmem_stride = 0xFFFFFFFFu;
  op.dram_stride = 0;
  EXPECT_THAT(ErrorOf({isa::EncodeLd(op)}), HasSubstr("lie outside TMEM"));
  isa::MmOp mm = Mm(32, 0xFFFFFFFFu);
  mm.w_stride = 0xFFFFFFE0u;
  mm.out_stride = 0;
  mm.out = At(0);
  EXPECT_THAT(ErrorOf({isa::EncodeMm(mm)}), HasSubstr("lie outside"));
}

TEST_F(IsaSimTest, DramRangeOutsideDramIsNamed) {
  uint32_t end = uint32_t(dram.size());
  EXPECT_EQ(ErrorOf({isa::EncodeSt(Dma(0, end - 8, 4))}),
            "pc 0 (ST): DRAM rows bytes [0xfffff8, 0x1000008) lie outside DRAM (0x1000000 bytes)");
  isa::MmOp mm = Mm(32);
  mm.scales = At(end - 8);
  EXPECT_THAT(ErrorOf({isa::EncodeMm(mm)}), HasSubstr("DRAM scales bytes [0xfffff8, 0x1000008)"));
  isa::QstOp qst;
  qst.n = 32;
  qst.elem_stride = 1024;
  qst.dst = At(end - 31 * 1024);  // the last element lands one past the end
  EXPECT_THAT(ErrorOf({isa::EncodeQst(qst)}), HasSubstr("DRAM values bytes"));
  qst.dst = At(end - 31 * 1024 - 1);  // the last element lands on the last byte
  EXPECT_EQ(ErrorOf({isa::EncodeQst(qst)}), "");
}

TEST_F(IsaSimTest, ActRamRangeIsNamed) {
  isa::QactOp q;
  q.k = 64;
  q.rows = 8;
  q.act_row = 10;
  EXPECT_EQ(ErrorOf({isa::EncodeQact(q)}),
            "pc 0 (QACT): ACT RAM rows [10, 18) lie outside ACT RAM (ACT_ROWS=16)");
  isa::MmOp mm = Mm(256);
  mm.act_block = 121;
  EXPECT_THAT(ErrorOf({isa::EncodeMm(mm)}),
              HasSubstr("ACT RAM blocks [121, 129) lie outside ACT RAM (ACT_BLOCKS=128)"));
}

TEST_F(IsaSimTest, LoopNestedFiveDeepIsIllegal) {
  EXPECT_EQ(ErrorOf({Loop(1, 5), Loop(1, 4), Loop(1, 3), Loop(1, 2), Loop(1, 1), isa::EncodeNop()}),
            "pc 4 (LOOP): LOOP nested more than 4 deep");
}

TEST_F(IsaSimTest, LoopBodyOfZeroIsIllegal) {
  EXPECT_EQ(ErrorOf({Loop(3, 0)}), "pc 0 (LOOP): LOOP body of 0 instructions");
}

TEST_F(IsaSimTest, LoopBodyPastItsEnclosingBodyIsIllegal) {
  EXPECT_EQ(ErrorOf({Loop(2, 2), Loop(2, 3), isa::EncodeNop(), isa::EncodeNop()}),
            "pc 1 (LOOP): LOOP body [2, 5) runs past the end of its enclosing body (pc 3)");
}

TEST_F(IsaSimTest, LoopBodyPastTheProgramIsIllegal) {
  EXPECT_EQ(ErrorOf({isa::EncodeNop(), Loop(2, 5)}),
            "pc 1 (LOOP): LOOP body [2, 7) runs past the end of the program (3 instructions)");
}

TEST_F(IsaSimTest, RunningOffTheEndIsNamed) {
  auto r = RunRaw({isa::EncodeNop(), isa::EncodeNop()});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "pc 2: ran past the end of the program (2 instructions) without HALT");
}

TEST_F(IsaSimTest, EmptyProgramRunsOffTheEnd) {
  auto r = RunRaw({});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("pc 0: ran past the end"));
}

TEST_F(IsaSimTest, MaxInstructionsStopsARunawayLoop) {
  IsaRunOptions opts;
  opts.max_instructions = 100;
  EXPECT_EQ(ErrorOf({Loop(1000000, 1), isa::EncodeNop()}, opts),
            "pc 1 (NOP): max_instructions=100 exceeded (a runaway loop?)");
  opts.max_instructions = 3;  // NOP, NOP, HALT: exactly enough
  EXPECT_EQ(ErrorOf({isa::EncodeNop(), isa::EncodeNop()}, opts), "");
}

TEST_F(IsaSimTest, ProgramLargerThanImemIsRefused) {
  std::vector<isa::Instr> code(cfg.IMEM_WORDS + 1, isa::EncodeNop());
  Status st = sim.LoadProgram(code);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "program of 4097 instructions does not fit IMEM (IMEM_WORDS=4096)");
}

TEST_F(IsaSimTest, StateBeforeTheErrorStays) {
  dram.Write32(0x40, 0x12345678u);
  auto r = RunCode({isa::EncodeLd(Dma(7, 0x40, 1)), isa::EncodeMm(Mm(3))});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("pc 1 (MM)"));
  EXPECT_EQ(sim.tmem()[7], 0x12345678u);
}

TEST_F(IsaSimTest, ErrorsUseEffectiveAddresses) {
  EXPECT_EQ(ErrorOf({Li(5, 65000), isa::EncodeLd([] {
                       isa::DmaOp op = Dma(600, 0, 1);
                       op.tmem = At(5, 600);
                       return op;
                     }())}),
            "pc 1 (LD): TMEM rows words [65600, 65601) lie outside TMEM (65536 words)");
}

}  // namespace
}  // namespace otpu::sim
