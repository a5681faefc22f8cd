// A card cell killed by SIGKILL (a Slurm time limit, the OOM killer) runs no destructor: its
// otpu-xdma-emu must still go away with it, and unmount, and what a killed emulator left
// mounted must be cleaned up by the next start. Real processes: the otpu-regress binary on a
// smoke card cell, the real emulator and its FUSE mount, read back from /proc/self/mountinfo.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "base/mountinfo.h"
#include "base/proc_stat.h"
#include "base/testing/subprocess.h"
#include "host/xdma_emu/emulator_process.h"

namespace otpu::regress {
namespace {

namespace fs = std::filesystem;

// The longest smoke card cell (about 1.5 s), so the emulator is caught while it serves.
constexpr const char* kCardCell = "qwen-tiny+pos1/sim/axi/card/s0";

// The state letter and parent pid of `pid` from /proc/PID/stat; state 0 when it is gone.
char StateOf(pid_t pid, pid_t* ppid = nullptr) {
  const std::optional<std::string> state = ProcStatField(pid, 3);
  const std::optional<std::string> parent = ProcStatField(pid, 4);
  if (!state || !parent) return 0;
  if (ppid) *ppid = pid_t(std::atoi(parent->c_str()));
  return (*state)[0];
}

std::string CommOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string comm;
  std::getline(in, comm);
  return comm;
}

// The otpu-xdma-emu child of `parent`, or -1.
pid_t EmulatorChildOf(pid_t parent) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    pid_t ppid = 0;
    const pid_t pid = pid_t(std::stol(name));
    if (StateOf(pid, &ppid) != 0 && ppid == parent && CommOf(pid) == "otpu-xdma-emu") return pid;
  }
  return -1;
}

// Mount points of the emulator directories `owner` made (/tmp/otpu_emu.OWNER-...).
std::vector<std::string> MountsOf(pid_t owner) {
  std::vector<std::string> out;
  StatusOr<std::vector<MountEntry>> table = ReadMountInfo();
  if (!table.ok()) return out;
  const std::string prefix = "/tmp/otpu_emu." + std::to_string(owner) + "-";
  for (const MountEntry& m : *table) {
    if (m.mount_point.rfind(prefix, 0) == 0) out.push_back(m.mount_point);
  }
  return out;
}

// Polls `done` every 5 ms for up to `seconds`.
template <typename F>
bool Within(double seconds, F done) {
  const double end = testutil::NowSeconds() + seconds;
  while (!done()) {
    if (testutil::NowSeconds() > end) return false;
    ::usleep(5000);
  }
  return true;
}

class CardCellKillTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "otpu_cell_kill.XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    out_ = tmpl;
  }
  void TearDown() override { fs::remove_all(out_); }

  // Starts the card cell and waits until its emulator serves a mount; fills the three.
  void StartCardCell(std::unique_ptr<testutil::TestProcess>* cell, pid_t* emu,
                     std::string* mount) {
    *cell = std::make_unique<testutil::TestProcess>(std::vector<std::string>{
        OTPU_REGRESS_BINARY, "cell", OTPU_SMOKE_MATRIX, "--id", kCardCell, "--out", out_});
    const pid_t pid = (*cell)->pid();
    ASSERT_TRUE(Within(60, [&] {
      *emu = EmulatorChildOf(pid);
      const std::vector<std::string> mounts = MountsOf(pid);
      if (*emu < 0 || mounts.empty()) return false;
      *mount = mounts[0];
      return true;
    })) << "no otpu-xdma-emu with a mount under /tmp/otpu_emu." << pid << "-*";
  }

  std::string out_;
};

TEST_F(CardCellKillTest, SigkilledCellTakesItsEmulatorAndMountAlong) {
  std::unique_ptr<testutil::TestProcess> cell;
  pid_t emu = -1;
  std::string mount;
  ASSERT_NO_FATAL_FAILURE(StartCardCell(&cell, &emu, &mount));
  const pid_t owner = cell->pid();
  ASSERT_EQ(::kill(owner, SIGKILL), 0);
  cell->Wait(10);
  // A zombie has ended: whoever adopted it reaps it.
  EXPECT_TRUE(Within(5, [&] { const char s = StateOf(emu); return s == 0 || s == 'Z'; }))
      << "otpu-xdma-emu " << emu << " outlived its cell";
  EXPECT_TRUE(Within(5, [&] { return !IsMountPoint(mount); })) << mount << " is still mounted";

  // The directory the killed cell could not remove goes at the next start: this one, or one
  // in a test running beside it (every emulator start removes what dead owners left).
  const std::string dir = fs::path(mount).parent_path().string();
  xdma_emu::EmulatorProcess::RemoveStale();
  EXPECT_FALSE(fs::exists(dir)) << dir;
}

TEST_F(CardCellKillTest, MountOfAKilledEmulatorIsRemovedByTheNextStart) {
  std::unique_ptr<testutil::TestProcess> cell;
  pid_t emu = -1;
  std::string mount;
  ASSERT_NO_FATAL_FAILURE(StartCardCell(&cell, &emu, &mount));
  // The emulator first: it cannot unmount, so its dead FUSE mount stays behind.
  ASSERT_EQ(::kill(emu, SIGKILL), 0);
  ASSERT_EQ(::kill(cell->pid(), SIGKILL), 0);
  cell->Wait(10);
  ASSERT_TRUE(Within(5, [&] { const char s = StateOf(emu); return s == 0 || s == 'Z'; }));
  const std::string dir = fs::path(mount).parent_path().string();
  xdma_emu::EmulatorProcess::RemoveStale();
  EXPECT_FALSE(IsMountPoint(mount)) << mount;
  EXPECT_FALSE(fs::exists(dir)) << dir;
}

}  // namespace
}  // namespace otpu::regress
