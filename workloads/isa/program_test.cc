#include "workloads/isa/program.h"

#include <gtest/gtest.h>

namespace otpu::isa {
namespace {

TEST(ProgramBuilder, LoopBodyLengthIsPatched) {
  ProgramBuilder b;
  R r = b.Alloc();
  b.Li(r, 0);
  b.Loop(4, [&] {
    b.Ld({.tmem = At(r.n, 0), .dram = At(64), .n = 8});
    b.Addi(r, r, 8);
  });
  Program p = b.Finish();
  ASSERT_EQ(p.size(), 5u);
  EXPECT_EQ(p.code[1].opcode(), uint8_t(Opcode::kLOOP));
  EXPECT_EQ(DecodeLoop(p.code[1], nullptr).body, 2u);
  EXPECT_EQ(DecodeLoop(p.code[1], nullptr).count.imm, 4u);
  EXPECT_EQ(p.code.back().opcode(), uint8_t(Opcode::kHALT));
}

TEST(ProgramBuilder, EveryInstructionKnowsItsSourceLine) {
  ProgramBuilder b;
  b.Nop(); int line = __LINE__;
  Program p = b.Finish();
  ASSERT_GE(p.source[0], 0);
  const SourceLine& s = p.sources[p.source[0]];
  EXPECT_EQ(s.line, line);
  EXPECT_EQ(s.file, "workloads/isa/program_test.cc");
  EXPECT_NE(s.text.find("b.Nop();"), std::string::npos);
  EXPECT_NE(s.func.find("TestBody"), std::string::npos);
}

TEST(ProgramBuilder, RegistersAllocateAndFree) {
  ProgramBuilder b;
  R a = b.Alloc();
  R c = b.Alloc();
  EXPECT_EQ(a.n, 1);
  EXPECT_EQ(c.n, 2);
  b.Free(a);
  EXPECT_EQ(b.Alloc().n, 1);
  EXPECT_EQ(Arg(0).n, 8);
  EXPECT_EQ(Arg(7).n, 15);
}

TEST(Program, BytesAreLittleEndianWords) {
  ProgramBuilder b;
  b.Li(R{3}, 0x11223344);
  Program p = b.Finish();
  std::vector<uint8_t> bytes = p.Bytes();
  ASSERT_EQ(bytes.size(), 64u);
  EXPECT_EQ(bytes[0], 0x02);
  EXPECT_EQ(bytes[2], 0x30);
  EXPECT_EQ(bytes[4], 0x44);
  EXPECT_EQ(bytes[7], 0x11);
}

}  // namespace
}  // namespace otpu::isa
