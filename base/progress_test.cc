#include "base/progress.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace otpu {
namespace {

// Everything written to `f` so far.
std::string Contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s.push_back(char(c));
  return s;
}

TEST(ProgressLine, SaysNothingOnANonTerminalByDefault) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    ProgressLine line(f, /*forced=*/false);
    EXPECT_FALSE(line.enabled());
    line.Update("step 1");
    line.Done();
  }
  EXPECT_EQ(Contents(f), "");
  std::fclose(f);
}

TEST(ProgressLine, ForcedOnANonTerminalWritesWholeLinesAtMostOnceASecond) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    ProgressLine line(f, /*forced=*/true);
    EXPECT_TRUE(line.enabled());
    for (int i = 0; i < 1000; ++i) line.Update("step " + std::to_string(i));
    line.Done();
  }
  // The first at once, the last at the end: the 998 between came within a second.
  EXPECT_EQ(Contents(f), "step 0\nstep 999\n");
  std::fclose(f);
}

TEST(ProgressLine, RedrawsInPlaceOnATerminal) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  std::FILE* tty = std::fopen(::ptsname(master), "w");
  ASSERT_NE(tty, nullptr);
  {
    ProgressLine line(tty, /*forced=*/false);
    EXPECT_TRUE(line.enabled());
    line.Update("step 1 of 2, long text");
    line.Update("step 2 of 2");  // held back: within a quarter second
    line.Done();
  }
  std::fclose(tty);
  std::string got;
  char buf[256];
  ::fcntl(master, F_SETFL, O_NONBLOCK);
  for (ssize_t n; (n = ::read(master, buf, sizeof buf)) > 0;) got.append(buf, size_t(n));
  ::close(master);
  // The terminal turns "\n" into "\r\n".
  EXPECT_EQ(got, "\rstep 1 of 2, long text\rstep 2 of 2           \r\n");
}

TEST(ProgressFormat, DurationsCountsAndTimeLeft) {
  EXPECT_EQ(FormatDuration(42.4), "42s");
  EXPECT_EQ(FormatDuration(187), "3m07s");
  EXPECT_EQ(FormatDuration(3720), "1h02m");
  EXPECT_EQ(FormatCount(950), "950");
  EXPECT_EQ(FormatCount(12345), "12.3k");
  EXPECT_EQ(FormatCount(4.56e6), "4.56M");
  EXPECT_EQ(ElapsedAndLeft(30, 0), "elapsed 30s");
  EXPECT_EQ(ElapsedAndLeft(30, 0.25), "elapsed 30s, about 1m30s left");
}

}  // namespace
}  // namespace otpu
