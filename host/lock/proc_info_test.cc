#include "host/lock/proc_info.h"

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace otpu::host {
namespace {

TEST(ProcInfo, ParentPidIsGetppid) { EXPECT_EQ(ParentPid(::getpid()), ::getppid()); }

TEST(ProcInfo, ParentAndGrandparentAreAncestors) {
  EXPECT_TRUE(IsAncestor(::getppid(), ::getpid()));
  std::optional<pid_t> grandparent = ParentPid(::getppid());
  ASSERT_TRUE(grandparent.has_value());
  if (*grandparent > 0) {
    EXPECT_TRUE(IsAncestor(*grandparent, ::getpid()));
  }
}

TEST(ProcInfo, ProcessIsNotItsOwnAncestorNorItsChilds) {
  EXPECT_FALSE(IsAncestor(::getpid(), ::getpid()));
  pid_t child = ::fork();
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  EXPECT_FALSE(IsAncestor(child, ::getpid()));
  EXPECT_TRUE(IsAncestor(::getpid(), child));
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
}

TEST(ProcInfo, CommandLineJoinsTheArguments) {
  EXPECT_NE(CommandLine(::getpid()).find("lock_test"), std::string::npos) << CommandLine(::getpid());
  EXPECT_EQ(CommandLine(::getpid(), 3), CommandLine(::getpid()).substr(0, 3) + "...");
}

TEST(ProcInfo, GoneProcessHasAnUnknownCommandLine) {
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  EXPECT_EQ(CommandLine(child), "unknown command line");
  EXPECT_EQ(ParentPid(child), std::nullopt);
}

TEST(ProcInfo, ParsePidAcceptsOnlyPositiveDecimals) {
  EXPECT_EQ(ParsePid("1234"), 1234);
  for (const char* bad : {"", "0", "-3", "12x", " 12", "99999999999999"}) {
    EXPECT_EQ(ParsePid(bad), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace otpu::host
