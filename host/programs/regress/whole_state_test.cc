// Whole-state correctness on a captured DRAM image: a random program and the state dump on the
// ISA simulator, then one word of a copy (the "board's") corrupted in each memory the dump
// covers; the verdict names that memory, the address, both values and the writer.
#include "host/programs/regress/whole_state.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "workloads/random_workload.h"

namespace otpu::regress {
namespace {

class WholeStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StatusOr<workloads::WorkloadRun> run = workloads::MakeRandomWorkload(cfg_, 1);
    ASSERT_TRUE(run.ok());
    ASSERT_TRUE(lens::Record(*run, log_).ok());
    ASSERT_TRUE(DumpOnIsa(isa_, dump_).ok());
    written_ = log_.DramWrites(cfg_);
    ASSERT_FALSE(written_.empty());
  }
  Verdict Judge(const SparseMemory& board) {
    return WholeState(cfg_, dump_, written_, isa_.dram(), board, &log_);
  }

  isa::Config cfg_ = isa::Config::Sim();
  lens::IsaStepRunner isa_;
  WriteLog log_{&isa_};
  workloads::StateDump dump_ = workloads::MakeStateDump(cfg_);
  std::vector<workloads::DramRange> written_;
};

TEST_F(WholeStateTest, EqualStatePasses) {
  const Verdict v = Judge(isa_.dram());
  EXPECT_EQ(v.outcome, Outcome::kPass) << v.message;
  EXPECT_NE(v.message.find("whole state equals"), std::string::npos);
}

TEST_F(WholeStateTest, DifferingTmemWordIsNamedWithItsAddress) {
  // A TMEM word the program wrote: the last word of the first LD/MM/VOP destination found.
  uint64_t word = 0;
  for (; word < cfg_.TMEM_WORDS; ++word) {
    if (!log_.LastWriter(cfg_, "TMEM", word).empty()) break;
  }
  ASSERT_LT(word, cfg_.TMEM_WORDS);
  SparseMemory board = isa_.dram();
  const uint64_t at = dump_.tmem.addr + 4 * word;
  const uint32_t want = board.Read32(at);
  board.Write32(at, want ^ 0x10u);
  const Verdict v = Judge(board);
  EXPECT_EQ(v.outcome, Outcome::kFail);
  char head[128];
  std::snprintf(head, sizeof head,
                "TMEM word 0x%llx differs from the ISA simulator's: 0x%08x (board) vs 0x%08x (ISA)",
                (unsigned long long)word, want ^ 0x10u, want);
  EXPECT_EQ(v.message.rfind(head, 0), 0u) << v.message;
  EXPECT_NE(v.message.find("last written by step 0 unit instruction #"), std::string::npos)
      << v.message;
}

TEST_F(WholeStateTest, DifferingDramByteNamesTheWordAndWriter) {
  SparseMemory board = isa_.dram();
  const uint64_t at = written_.back().addr;
  board.Write8(at, uint8_t(board.Read8(at) ^ 1));
  const Verdict v = Judge(board);
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(v.message.rfind("DRAM 0x", 0), 0u) << v.message;
  EXPECT_TRUE(v.message.find(" ST ") != std::string::npos ||
              v.message.find(" QST ") != std::string::npos) << v.message;
}

TEST_F(WholeStateTest, DifferingActSignatureIsNamedAsAct) {
  SparseMemory board = isa_.dram();
  const uint64_t at = dump_.act.addr + 4 * (uint64_t(cfg_.D) * 3 + 2);  // block 0, row 3, lane 2
  board.Write32(at, board.Read32(at) ^ 0x80000000u);
  const Verdict v = Judge(board);
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(v.message.rfind("ACT row 3 block 0 element 2", 0), 0u) << v.message;
}

TEST(WithWholeState, OutputsFailureComesFirst) {
  const Verdict out{"correctness", Outcome::kFail, "outputs", ""};
  const Verdict whole{"correctness", Outcome::kFail, "whole", ""};
  EXPECT_EQ(WithWholeState(out, whole).message, "outputs");
  EXPECT_EQ(WithWholeState({"correctness", Outcome::kPass, "a", ""}, whole).message, "whole");
  EXPECT_EQ(WithWholeState({"correctness", Outcome::kPass, "a", ""},
                           {"correctness", Outcome::kPass, "b", ""}).message, "a; b");
}

}  // namespace
}  // namespace otpu::regress
