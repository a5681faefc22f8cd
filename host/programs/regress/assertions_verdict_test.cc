// The assertions verdict: the first failure with its label, file:line and run cycle, where it
// happened, and how many failed.
#include <gtest/gtest.h>

#include "host/programs/regress/verdicts.h"

namespace otpu::regress {
namespace {

rtl::AssertionFailure Failure(const std::string& name, int line, int64_t cycle) {
  rtl::AssertionFailure f;
  f.name = name;
  f.scope = "otpu_board.u_core." + name;
  f.file = "rtl/core/otpu_seq_window.sv";
  f.line = line;
  f.message = "otpu_seq_window: unit 3 started slot 4 while older slot 2 is in flight";
  f.cycle = cycle;
  return f;
}

TEST(AssertionsVerdict, PassesWithoutFailures) {
  const Verdict v = Assertions({}, {}, /*card_cell=*/true);
  EXPECT_EQ(v.name, "assertions");
  if (!rtl::AssertionsCompiled()) GTEST_SKIP() << "built with OTPU_RTL_ASSERT=OFF";
  EXPECT_EQ(v.outcome, Outcome::kPass);
  EXPECT_EQ(v.message, "no SV assertion failed in the board model nor in the card's emulator");
}

TEST(AssertionsVerdict, FailsNamingTheFirstWithFileLineAndCycle) {
  const Verdict v = Assertions({Failure("WinNoIssueWhileAConflictIsInFlight", 301, 812),
                                Failure("WinIssueAfterItsDependencies", 295, 900)},
                               {}, false);
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_EQ(v.message,
            "WinNoIssueWhileAConflictIsInFlight at rtl/core/otpu_seq_window.sv:301, run cycle 812: "
            "otpu_seq_window: unit 3 started slot 4 while older slot 2 is in flight (the board "
            "model); 2 failures in all");
  EXPECT_NE(v.detail.find("board model: WinIssueAfterItsDependencies at "
                          "rtl/core/otpu_seq_window.sv:295, run cycle 900"),
            std::string::npos)
      << v.detail;
}

TEST(AssertionsVerdict, AFailureOnlyInTheCardsEmulatorFailsToo) {
  const Verdict v = Assertions({}, {Failure("FifoNoPopWhenEmpty", 73, 5)}, true);
  EXPECT_EQ(v.outcome, Outcome::kFail);
  EXPECT_NE(v.message.find("FifoNoPopWhenEmpty at rtl/core/otpu_seq_window.sv:73, run cycle 5"),
            std::string::npos);
  EXPECT_NE(v.message.find("(the card's emulator)"), std::string::npos) << v.message;
}

}  // namespace
}  // namespace otpu::regress
