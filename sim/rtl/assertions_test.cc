// Assertion failures as data: the text a verdict shows and the line that carries a failure out
// of another process (the card's emulator).
#include "sim/rtl/assertions.h"

#include <gtest/gtest.h>

namespace otpu::rtl {
namespace {

AssertionFailure Example() {
  AssertionFailure f;
  f.name = "FifoNoPushWhenFull";
  f.scope = "otpu_board.u_core.u_seq.u_window.gen_unit_queue[1].u_queue.FifoNoPushWhenFull";
  f.file = "rtl/core/otpu_fifo.sv";
  f.line = 71;
  f.message = "otpu_fifo: push when full";
  f.cycle = 1234;
  return f;
}

TEST(Assertions, TextNamesTheLabelFileLineCycleAndMessage) {
  EXPECT_EQ(Example().Text(),
            "FifoNoPushWhenFull at rtl/core/otpu_fifo.sv:71, run cycle 1234: otpu_fifo: push when full");
  AssertionFailure outside = Example();
  outside.cycle = -1;
  EXPECT_NE(outside.Text().find(", outside a run: "), std::string::npos);
}

TEST(Assertions, TheLineOfAnotherProcessParsesBackToTheSameFailure) {
  const std::string line = AssertionLine(Example());
  EXPECT_EQ(line.rfind("otpu-rtl: assertion failed: FifoNoPushWhenFull at rtl/core/otpu_fifo.sv:71, "
                       "cycle 1234, in otpu_board.", 0),
            0u)
      << line;
  AssertionFailure back;
  ASSERT_TRUE(ParseAssertionLine(line, &back));
  EXPECT_EQ(back, Example());
  AssertionFailure colon = Example();
  colon.message = "a: b: c";  // a message may hold ": " itself
  ASSERT_TRUE(ParseAssertionLine(AssertionLine(colon), &back));
  EXPECT_EQ(back, colon);
}

TEST(Assertions, OtherLinesAreNotFailures) {
  AssertionFailure f;
  EXPECT_FALSE(ParseAssertionLine("otpu-xdma-emu: serving /tmp/x/xdma0", &f));
  EXPECT_FALSE(ParseAssertionLine("otpu-rtl: assertion failed: garbage", &f));
  EXPECT_FALSE(ParseAssertionLine("otpu-rtl: assertion failed: A at f.sv:x, cycle 1, in s: m", &f));
}

}  // namespace
}  // namespace otpu::rtl
