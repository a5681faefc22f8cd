// XdmaBoard against the real XDMA code path: each test mounts otpu-xdma-emu (a SimBoard
// behind FUSE) and talks to it only through the device files.
#include "host/xdma/xdma_board.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <numeric>
#include <vector>

#include "host/xdma_emu/test_emulator.h"
#include "workloads/isa/defs.h"

namespace otpu::host {
namespace {

using xdma_emu::testing::Emulator;
using xdma_emu::testing::TempMount;

constexpr uint32_t kScratch = static_cast<uint32_t>(isa::Reg::kSCRATCH);

std::unique_ptr<XdmaBoard> Open(const Emulator& emu, const XdmaBoardOptions& opts = {}) {
  StatusOr<std::unique_ptr<XdmaBoard>> board = XdmaBoard::Create(emu.prefix(), opts);
  EXPECT_TRUE(board.ok()) << board.status().message();
  return board.ok() ? std::move(board).value() : nullptr;
}

std::vector<uint8_t> Pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(seed + i * 13 + (i >> 8));
  return bytes;
}

TEST(XdmaBoard, ReadsIdAndRoundTripsScratch) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  ASSERT_NE(board, nullptr);
  EXPECT_EQ(board->Describe(), emu.prefix());
  StatusOr<uint32_t> id = board->ReadReg(static_cast<uint32_t>(isa::Reg::kID));
  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_EQ(*id, isa::kID_VALUE);
  StatusOr<uint32_t> regmap = board->ReadReg(static_cast<uint32_t>(isa::Reg::kREGMAP));
  ASSERT_TRUE(regmap.ok());
  EXPECT_EQ(*regmap, isa::kREGMAP_VERSION);
  for (uint32_t value : {0u, 0xFFFF'FFFFu, 0x1234'5678u}) {
    ASSERT_TRUE(board->WriteReg(kScratch, value).ok());
    StatusOr<uint32_t> back = board->ReadReg(kScratch);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, value);
  }
}

TEST(XdmaBoard, MapOneCardHasNoRegmapRegister) {
  Emulator emu({"--regmap", "1"});
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  StatusOr<uint32_t> regmap = board->ReadReg(static_cast<uint32_t>(isa::Reg::kREGMAP));
  ASSERT_TRUE(regmap.ok());
  EXPECT_EQ(*regmap, isa::kUNMAPPED);
}

TEST(XdmaBoard, UnalignedRegisterOffsetGivesTheDriversEproto) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  StatusOr<uint32_t> read = board->ReadReg(0x3A);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(),
            emu.prefix() + "_user: read of 4 bytes at offset 0x3a: Protocol error (the driver "
                           "takes only 4-aligned register offsets)");
  Status write = board->WriteReg(0x11, 1);
  ASSERT_FALSE(write.ok());
  EXPECT_NE(write.message().find("_user: write of 4 bytes at offset 0x11: Protocol error"),
            std::string::npos)
      << write.message();
}

TEST(XdmaBoard, RegisterOffsetOutsideTheMapIsRefusedBeforeTheDriver) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  StatusOr<uint32_t> read = board->ReadReg(0x1000);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(read.status().message().find("_user: register offset 0x1000 is outside the 4 KiB"),
            std::string::npos);
}

TEST(XdmaBoard, OddDmaWritesKeepTheBytesAroundThem) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  const uint64_t base = 0x40'0000;
  std::vector<uint8_t> background = Pattern(1024, 1);
  ASSERT_TRUE(board->WriteDma(base, background.data(), background.size()).ok());
  struct Case {
    uint64_t offset;
    size_t len;
  };
  // Inside one beat, across a beat edge, several beats with ragged ends, one aligned beat.
  for (Case c : {Case{3, 1}, Case{60, 9}, Case{129, 300}, Case{512, 64}, Case{700, 323}}) {
    std::vector<uint8_t> data = Pattern(c.len, static_cast<uint8_t>(c.offset));
    Status wrote = board->WriteDma(base + c.offset, data.data(), data.size());
    ASSERT_TRUE(wrote.ok()) << wrote.message();
    std::copy(data.begin(), data.end(), background.begin() + static_cast<ptrdiff_t>(c.offset));
  }
  std::vector<uint8_t> back(background.size());
  ASSERT_TRUE(board->ReadDma(base, back.data(), back.size()).ok());
  EXPECT_EQ(back, background);
  // Odd reads return exactly the asked bytes.
  std::vector<uint8_t> part(77);
  ASSERT_TRUE(board->ReadDma(base + 501, part.data(), part.size()).ok());
  EXPECT_TRUE(std::equal(part.begin(), part.end(), background.begin() + 501));
}

TEST(XdmaBoard, DmaPastTheEndOfTheAddressSpaceIsRefused) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  std::vector<uint8_t> data(100);
  Status status = board->WriteDma(UINT64_MAX - 10, data.data(), data.size());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("_h2c_0: write of 100 bytes at card address 0xfffffffffffffff5 "
                                  "passes the end of the address space"),
            std::string::npos)
      << status.message();
}

TEST(XdmaBoard, SmallTransferLimitSplitsAndStillRoundTrips) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  XdmaBoardOptions opts;
  opts.max_transfer = 256;
  std::unique_ptr<XdmaBoard> board = Open(emu, opts);
  std::vector<uint8_t> data = Pattern(5000, 9);
  ASSERT_TRUE(board->WriteDma(0x10'0010, data.data(), data.size()).ok());
  std::vector<uint8_t> back(data.size());
  ASSERT_TRUE(board->ReadDma(0x10'0010, back.data(), back.size()).ok());
  EXPECT_EQ(back, data);
}

TEST(XdmaBoard, TransfersAreSplitAtTheLimit) {
  // With a 256-byte limit an aligned 1 KiB write is four pwrites; the third one fails.
  Emulator emu({"--fault", "eio:h2c:3"});
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  XdmaBoardOptions opts;
  opts.max_transfer = 256;
  std::unique_ptr<XdmaBoard> board = Open(emu, opts);
  std::vector<uint8_t> data = Pattern(1024, 2);
  Status status = board->WriteDma(0x8'0000, data.data(), data.size());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), emu.prefix() + "_h2c_0: write of 256 bytes at card address "
                                             "0x80200: Input/output error");
}

TEST(XdmaBoard, EioOnReadNamesTheFileAndTransfer) {
  Emulator emu({"--fault", "eio:c2h:1"});
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  std::vector<uint8_t> back(128);
  Status status = board->ReadDma(0x1000, back.data(), back.size());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kInternal);
  EXPECT_EQ(status.message(),
            emu.prefix() + "_c2h_0: read of 128 bytes at card address 0x1000: Input/output error");
}

TEST(XdmaBoard, ShortTransferIsAnError) {
  Emulator emu({"--fault", "short:c2h:2"});
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  std::vector<uint8_t> back(256);
  ASSERT_TRUE(board->ReadDma(0, back.data(), back.size()).ok());
  Status status = board->ReadDma(0x2000, back.data(), back.size());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), emu.prefix() + "_c2h_0: read of 256 bytes at card address 0x2000: "
                                             "short transfer, 128 bytes moved");
}

TEST(XdmaBoard, ShortRegisterWriteIsAnError) {
  Emulator emu({"--fault", "short:user:1"});
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  Status status = board->WriteReg(kScratch, 7);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("_user: write of 4 bytes at offset 0x38: short transfer, 2 "
                                  "bytes moved"),
            std::string::npos)
      << status.message();
}

TEST(XdmaBoard, DriverTimeoutIsDeadlineExceeded) {
  Emulator emu({"--fault", "timeout:h2c:1"});
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  std::vector<uint8_t> data(64, 1);
  Status status = board->WriteDma(0x3000, data.data(), data.size());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kDeadlineExceeded);
  EXPECT_NE(status.message().find("_h2c_0: write of 64 bytes at card address 0x3000: "),
            std::string::npos);
  EXPECT_NE(status.message().find("the driver's transfer timed out"), std::string::npos)
      << status.message();
}

TEST(XdmaBoard, SlowDeviceStillAnswers) {
  Emulator emu({"--fault", "slow:user:50"});
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  std::unique_ptr<XdmaBoard> board = Open(emu);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(board->ReadReg(0).ok());
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(150));
}

TEST(XdmaBoard, ErrorMessagesNameTheDriversTimeoutErrno) {
  // The driver's timeout reaches user space as ERESTARTSYS (512), which FUSE cannot carry;
  // the message for it is checked directly.
  Status status = DeviceIoError("/dev/xdma0_c2h_0", "read", 4096, "card address", 0x100, 512);
  EXPECT_EQ(status.code(), StatusCode::kDeadlineExceeded);
  EXPECT_EQ(status.message(), "/dev/xdma0_c2h_0: read of 4096 bytes at card address 0x100: "
                              "Unknown error 512 (the driver's transfer timed out; its default "
                              "is 10 s)");
}

TEST(XdmaBoard, MissingDeviceIsNotFoundNamingTheFile) {
  TempMount mount;
  StatusOr<std::unique_ptr<XdmaBoard>> board = XdmaBoard::Create(mount.mountpoint() + "/xdma0");
  ASSERT_FALSE(board.ok());
  EXPECT_EQ(board.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(board.status().message(),
            mount.mountpoint() + "/xdma0_user: cannot open for reading and writing: No such file "
                                 "or directory (no XDMA device at this prefix: is the xdma driver "
                                 "loaded or otpu-xdma-emu mounted?)");
}

TEST(XdmaBoard, DeviceGoneAfterOpenIsAnIoError) {
  std::unique_ptr<XdmaBoard> board;
  {
    Emulator emu;
    ASSERT_TRUE(emu.ready()) << emu.startup_output();
    board = Open(emu);
    ASSERT_NE(board, nullptr);
  }  // the emulator stopped and unmounted
  StatusOr<uint32_t> id = board->ReadReg(0);
  ASSERT_FALSE(id.ok());
  EXPECT_NE(id.status().message().find("_user: read of 4 bytes at offset 0x0: "),
            std::string::npos)
      << id.status().message();
}

}  // namespace
}  // namespace otpu::host
