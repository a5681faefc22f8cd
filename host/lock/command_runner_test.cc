#include "host/lock/command_runner.h"

#include <signal.h>

#include <fstream>

#include <gtest/gtest.h>

#include "base/testing/temp_dir.h"

namespace otpu::host {
namespace {

TEST(CommandRunner, ReturnsTheChildsExitCode) {
  StatusOr<int> code = RunCommand({"sh", "-c", "exit 42"}, {});
  ASSERT_TRUE(code.ok()) << code.status().message();
  EXPECT_EQ(*code, 42);
}

TEST(CommandRunner, KilledChildGives128PlusTheSignal) {
  StatusOr<int> code = RunCommand({"sh", "-c", "kill -KILL $$"}, {});
  ASSERT_TRUE(code.ok());
  EXPECT_EQ(*code, 128 + SIGKILL);
}

TEST(CommandRunner, MissingCommandIsNotFoundAndExits127) {
  StatusOr<int> code = RunCommand({"otpu-no-such-command"}, {});
  ASSERT_FALSE(code.ok());
  EXPECT_EQ(code.status().message(), "cannot run 'otpu-no-such-command': No such file or directory");
  EXPECT_EQ(ExitCodeForStartFailure(code.status()), 127);
}

TEST(CommandRunner, NonExecutableFileExits126) {
  testutil::TempDir tmp;
  const std::string file = tmp.path() + "/data";
  std::ofstream(file) << "not a program\n";
  StatusOr<int> code = RunCommand({file}, {});
  ASSERT_FALSE(code.ok());
  EXPECT_EQ(code.status().message(), "cannot run '" + file + "': Permission denied");
  EXPECT_EQ(ExitCodeForStartFailure(code.status()), 126);
}

TEST(CommandRunner, NiceIsAppliedToTheChild) {
  CommandOptions options;
  options.nice = 7;
  StatusOr<int> code = RunCommand({"sh", "-c", "exit $(nice)"}, options);
  ASSERT_TRUE(code.ok());
  EXPECT_EQ(*code, 7);
}

TEST(CommandRunner, OwnProcessGroupIsTheChildsPid) {
  CommandOptions options;
  options.own_process_group = true;
  StatusOr<int> code = RunCommand({"sh", "-c", "test \"$(cut -d' ' -f5 /proc/$$/stat)\" -eq $$"}, options);
  ASSERT_TRUE(code.ok());
  EXPECT_EQ(*code, 0);
}

TEST(CommandRunner, EmptyCommandIsRefused) {
  StatusOr<int> code = RunCommand({}, {});
  ASSERT_FALSE(code.ok());
  EXPECT_EQ(code.status().message(), "no command");
}

}  // namespace
}  // namespace otpu::host
