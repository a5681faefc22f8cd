// otpu-xdma-emu as a program: it really mounts, serves the driver's semantics to plain
// pread/pwrite, unmounts cleanly on signals and refuses mount points it must not take.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <vector>

#include "base/exit_codes.h"
#include "base/mountinfo.h"
#include "base/testing/subprocess.h"
#include "host/xdma_emu/test_emulator.h"
#include "workloads/isa/defs.h"

namespace otpu::xdma_emu {
namespace {

using testutil::ProcessResult;
using testutil::RunProcess;
using testing::Emulator;
using ::otpu::IsMountPoint;
using testing::TempMount;

constexpr int kBusyExit = 3;
constexpr int kUsageExit = 2;

// An open device file, closed at scope end.
class Fd {
 public:
  Fd(const std::string& path, int flags) : fd_(::open(path.c_str(), flags)) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

TEST(XdmaEmu, ServesTheThreeDeviceFiles) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  EXPECT_EQ(emu.prefix(), std::filesystem::canonical(emu.mountpoint()).string() + "/xdma0");
  EXPECT_TRUE(IsMountPoint(std::filesystem::canonical(emu.mountpoint()).string()));
  for (const char* suffix : {"_user", "_h2c_0", "_c2h_0"}) {
    EXPECT_TRUE(std::filesystem::exists(emu.prefix() + suffix)) << suffix;
  }
}

TEST(XdmaEmu, UserFileReadsRegistersAtTheOffset) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  Fd user(emu.prefix() + "_user", O_RDWR);
  ASSERT_GE(user.get(), 0);
  uint32_t id = 0;
  ASSERT_EQ(::pread(user.get(), &id, 4, static_cast<off_t>(isa::Reg::kID)), 4);
  EXPECT_EQ(id, isa::kID_VALUE);
  const uint32_t pattern = 0xA5C3'0F96;
  ASSERT_EQ(::pwrite(user.get(), &pattern, 4, static_cast<off_t>(isa::Reg::kSCRATCH)), 4);
  uint32_t back = 0;
  ASSERT_EQ(::pread(user.get(), &back, 4, static_cast<off_t>(isa::Reg::kSCRATCH)), 4);
  EXPECT_EQ(back, pattern);
  // The driver never moves the file position.
  EXPECT_EQ(::lseek(user.get(), 0, SEEK_CUR), 0);
}

// --config board: a card of the board configuration (VERSION D=128, MCOLS=2, LANES=8).
TEST(XdmaEmu, ConfigBoardServesACardOfTheBoardConfiguration) {
  Emulator emu({"--config", "board"});
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  Fd user(emu.prefix() + "_user", O_RDWR);
  ASSERT_GE(user.get(), 0);
  uint32_t version = 0;
  ASSERT_EQ(::pread(user.get(), &version, 4, static_cast<off_t>(isa::Reg::kVERSION)), 4);
  EXPECT_EQ(version, 0x00800208u);
}

TEST(XdmaEmu, UserFileAnswersUnalignedOffsetsWithEproto) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  Fd user(emu.prefix() + "_user", O_RDWR);
  uint32_t word = 0;
  errno = 0;
  EXPECT_EQ(::pread(user.get(), &word, 4, 2), -1);
  EXPECT_EQ(errno, EPROTO);
  errno = 0;
  EXPECT_EQ(::pwrite(user.get(), &word, 4, 0x39), -1);
  EXPECT_EQ(errno, EPROTO);
}

TEST(XdmaEmu, UserFileMovesFourBytesAndRefusesFewer) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  Fd user(emu.prefix() + "_user", O_RDWR);
  uint32_t words[2] = {0, 0};
  EXPECT_EQ(::pread(user.get(), words, 8, 0), 4);  // the driver ignores the count
  EXPECT_EQ(words[0], isa::kID_VALUE);
  errno = 0;
  EXPECT_EQ(::pread(user.get(), words, 2, 0), -1);
  EXPECT_EQ(errno, EINVAL);
  errno = 0;
  EXPECT_EQ(::pread(user.get(), words, 4, 0x1000), -1);
  EXPECT_EQ(errno, EINVAL);
}

TEST(XdmaEmu, DmaFilesMoveBytesAtTheCardAddress) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  Fd h2c(emu.prefix() + "_h2c_0", O_WRONLY);
  Fd c2h(emu.prefix() + "_c2h_0", O_RDONLY);
  std::vector<uint8_t> data(300000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 3);
  const off_t addr = 0x20'0000;
  ASSERT_EQ(::pwrite(h2c.get(), data.data(), data.size(), addr), static_cast<ssize_t>(data.size()));
  EXPECT_EQ(::lseek(h2c.get(), 0, SEEK_CUR), 0);
  std::vector<uint8_t> back(data.size());
  ASSERT_EQ(::pread(c2h.get(), back.data(), back.size(), addr), static_cast<ssize_t>(back.size()));
  EXPECT_EQ(back, data);
}

TEST(XdmaEmu, WrongDirectionIsEinvalAsInTheDriver) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  Fd h2c(emu.prefix() + "_h2c_0", O_RDWR);
  Fd c2h(emu.prefix() + "_c2h_0", O_RDWR);
  uint8_t beat[64] = {};
  errno = 0;
  EXPECT_EQ(::pread(h2c.get(), beat, sizeof(beat), 0), -1);
  EXPECT_EQ(errno, EINVAL);
  errno = 0;
  EXPECT_EQ(::pwrite(c2h.get(), beat, sizeof(beat), 0), -1);
  EXPECT_EQ(errno, EINVAL);
}

TEST(XdmaEmu, SigtermUnmountsCleanlyAndExitsZero) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  const std::string mount = std::filesystem::canonical(emu.mountpoint()).string();
  ProcessResult result = emu.Stop(SIGTERM);
  EXPECT_TRUE(result.exited) << "signal " << result.signal;
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(IsMountPoint(mount));
  EXPECT_TRUE(std::filesystem::is_empty(mount));
}

TEST(XdmaEmu, SigintUnmountsCleanlyAndExitsZero) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  const std::string mount = std::filesystem::canonical(emu.mountpoint()).string();
  ProcessResult result = emu.Stop(SIGINT);
  EXPECT_TRUE(result.exited) << "signal " << result.signal << ": " << result.err;
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(IsMountPoint(mount));
}

TEST(XdmaEmu, SecondEmulatorOnTheSameMountIsRefusedAsBusy) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  ProcessResult second = RunProcess(
      {testing::EmulatorBinary(), emu.mountpoint(), "--foreground"}, {}, 30);
  EXPECT_EQ(second.exit_code, kBusyExit);
  EXPECT_EQ(testutil::CountLines(second.err), 1) << second.err;
  EXPECT_NE(second.err.find(emu.mountpoint() + ": busy: something is already mounted there"),
            std::string::npos)
      << second.err;
  // The first one still serves.
  Fd user(emu.prefix() + "_user", O_RDONLY);
  uint32_t id = 0;
  EXPECT_EQ(::pread(user.get(), &id, 4, 0), 4);
}

TEST(XdmaEmu, NonEmptyMountPointIsRefusedAsBusy) {
  TempMount mount;
  std::ofstream(mount.mountpoint() + "/keep") << "data";
  ProcessResult result =
      RunProcess({testing::EmulatorBinary(), mount.mountpoint(), "--foreground"}, {}, 30);
  EXPECT_EQ(result.exit_code, kBusyExit);
  EXPECT_NE(result.err.find("busy: the mount point is not empty"), std::string::npos) << result.err;
  EXPECT_FALSE(IsMountPoint(mount.mountpoint()));
}

TEST(XdmaEmu, MissingMountPointIsAnError) {
  TempMount mount;
  ProcessResult result =
      RunProcess({testing::EmulatorBinary(), mount.dir() + "/none", "--foreground"}, {}, 30);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find(mount.dir() + "/none: mount point does not exist"), std::string::npos)
      << result.err;
}

TEST(XdmaEmu, BadOptionsAreUsageErrors) {
  TempMount mount;
  const std::vector<std::vector<std::string>> cases = {
      {"--fault", "eio:h2c:zero"}, {"--regmap", "3"}, {"--stall", "101"}, {"--stall", "100"}, {"--bogus"},
      {"--config", "fast"}};
  for (const std::vector<std::string>& extra : cases) {
    std::vector<std::string> argv = {testing::EmulatorBinary(), mount.mountpoint(), "-f"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    ProcessResult result = RunProcess(argv, {}, 30);
    EXPECT_EQ(result.exit_code, kUsageExit) << extra[0];
    EXPECT_EQ(testutil::CountLines(result.err), 1) << result.err;
    EXPECT_NE(result.err.find("otpu-xdma-emu: "), std::string::npos) << result.err;
  }
  ProcessResult none = RunProcess({testing::EmulatorBinary()}, {}, 30);
  EXPECT_EQ(none.exit_code, kUsageExit);
  EXPECT_NE(none.err.find("no MOUNTPOINT"), std::string::npos);
}

TEST(XdmaEmu, HelpPrintsTheExitStatusTable) {
  ProcessResult result = RunProcess({testing::EmulatorBinary(), "--help"}, {}, 30);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find(exit_codes::ExitStatusHelp(exit_codes::Family::kXdmaEmu)),
            std::string::npos)
      << result.out;
}

TEST(XdmaEmu, DetachedEmulatorPrintsThePrefixAndStopsOnUnmount) {
  TempMount mount;
  ProcessResult start = RunProcess({testing::EmulatorBinary(), mount.mountpoint()}, {}, 120);
  ASSERT_EQ(start.exit_code, 0) << start.err;
  const std::string abs = std::filesystem::canonical(mount.mountpoint()).string();
  EXPECT_EQ(start.out, abs + "/xdma0\n");
  ASSERT_TRUE(IsMountPoint(abs));
  {
    Fd user(abs + "/xdma0_user", O_RDONLY);
    uint32_t id = 0;
    EXPECT_EQ(::pread(user.get(), &id, 4, 0), 4);
    EXPECT_EQ(id, isa::kID_VALUE);
  }
  ProcessResult unmount = RunProcess({"fusermount3", "-u", abs}, {}, 30);
  EXPECT_EQ(unmount.exit_code, 0) << unmount.err;
  EXPECT_FALSE(IsMountPoint(abs));
}

}  // namespace
}  // namespace otpu::xdma_emu
