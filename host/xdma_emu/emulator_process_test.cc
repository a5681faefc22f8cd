// EmulatorProcess against a stand-in emulator (a shell script): what it prints on stderr while
// it serves never blocks it, and Stop returns all of it.
#include "host/xdma_emu/emulator_process.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>
#include <thread>

#include "base/proc_stat.h"
#include "base/testing/temp_dir.h"
#include "gtest/gtest.h"

namespace otpu::xdma_emu {
namespace {

// Announces its device prefix as otpu-xdma-emu does, then writes `kLines` lines on stderr (far
// more than a pipe holds) and, once they are all written, the file DONE; then waits for TERM.
constexpr int kLines = 20000;
std::string StandIn(const std::string& dir) {
  const std::string path = dir + "/emu.sh";
  std::ofstream(path) << "#!/bin/sh\n"
                         "echo \"$1/xdma0\"\n"
                         "i=0\n"
                         "while [ $i -lt " << kLines << " ]; do\n"
                         "  echo \"otpu-rtl: assertion failed: line $i of a long report\" >&2\n"
                         "  i=$((i + 1))\n"
                         "done\n"
                         "touch " << dir << "/DONE\n"
                         "trap 'exit 0' TERM\n"
                         "while :; do sleep 0.05; done\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

TEST(EmulatorProcess, StderrLongerThanAPipeNeverBlocksTheEmulatorAndStopReturnsAllOfIt) {
  testutil::TempDir dir;
  auto emu = EmulatorProcess::Start(StandIn(dir.path()), {}, 10);
  ASSERT_TRUE(emu.ok()) << emu.status().message();
  // A real emulator writes its stderr from inside FUSE requests: blocked on a full pipe, it
  // would hang its host. The stand-in must get to the end of its report while nobody reads.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(dir.path() + "/DONE") &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(std::filesystem::exists(dir.path() + "/DONE"))
      << "the stand-in blocked writing its stderr";
  const SubprocessResult ended = (*emu)->Stop(SIGTERM);
  EXPECT_FALSE(ended.truncated);
  EXPECT_EQ(std::count(ended.err.begin(), ended.err.end(), '\n'), kLines);
  EXPECT_EQ(ended.err.rfind("otpu-rtl: assertion failed: line 0 of", 0), 0u);
  // Once: a second Stop returns the same.
  EXPECT_EQ((*emu)->Stop(SIGTERM).err, ended.err);
}

// Only directories of owners that are gone go: an owner is a pid and its start time, so a
// reused pid does not keep a dead owner's directory; anything else is left alone.
TEST(EmulatorProcess, RemoveStaleRemovesTheDirectoriesOfEndedOwnersOnly) {
  testutil::TempDir tmp;
  const std::string me = std::to_string(::getpid());
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  const std::string live = tmp.path() + "/otpu_emu." + me + "-" + *ProcStatField(::getpid(), 22) + ".aaaaaa";
  const std::string reused = tmp.path() + "/otpu_emu." + me + "-1.bbbbbb";
  const std::string ended = tmp.path() + "/otpu_emu." + std::to_string(child) + "-7.cccccc";
  const std::string odd = tmp.path() + "/otpu_emu.x-1.dddddd";
  const std::string other = tmp.path() + "/other.eeeeee";
  for (const std::string& d : {live, reused, ended, odd, other}) {
    ASSERT_TRUE(std::filesystem::create_directories(d + "/mnt")) << d;
  }
  std::vector<std::string> removed = EmulatorProcess::RemoveStale(tmp.path());
  std::sort(removed.begin(), removed.end());
  EXPECT_EQ(removed, (std::vector<std::string>{reused, ended}));
  for (const std::string& d : {live, odd, other}) EXPECT_TRUE(std::filesystem::exists(d)) << d;
  EXPECT_TRUE(EmulatorProcess::RemoveStale(tmp.path()).empty());
}

}  // namespace
}  // namespace otpu::xdma_emu
