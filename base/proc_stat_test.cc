#include "base/proc_stat.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace otpu {
namespace {

TEST(ProcStat, FieldsCountFromAfterTheCommandName) {
  const std::string stat = "4242 (a (b) c) S 17 4242 4242 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 "
                           "0 987654 12345 67";
  EXPECT_EQ(ProcStatFieldIn(stat, 3), "S");
  EXPECT_EQ(ProcStatFieldIn(stat, 4), "17");
  EXPECT_EQ(ProcStatFieldIn(stat, 22), "987654");
  EXPECT_EQ(ProcStatFieldIn(stat, 25), std::nullopt);
  EXPECT_EQ(ProcStatFieldIn(stat, 2), std::nullopt);
  EXPECT_EQ(ProcStatFieldIn("no command name", 3), std::nullopt);
}

TEST(ProcStat, ReadsThisProcessAndNotAnEndedOne) {
  EXPECT_EQ(ProcStatField(::getpid(), 4), std::to_string(::getppid()));
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  EXPECT_EQ(ProcStatField(child, 22), std::nullopt);
}

}  // namespace
}  // namespace otpu
