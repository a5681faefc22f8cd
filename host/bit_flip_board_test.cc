// The bit-flipping board: exactly the chosen bit of the chosen trace record changes, in any
// read that covers it; DRAM, registers and other records pass through.
#include "host/bit_flip_board.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace otpu::host {
namespace {

// A board whose DRAM and trace window read back fixed bytes (byte i holds i mod 251) and
// whose registers hold what was written.
class PatternBoard : public BoardIface {
 public:
  StatusOr<uint32_t> ReadReg(uint32_t offset) override { return offset == reg_ ? value_ : 0u; }
  Status WriteReg(uint32_t offset, uint32_t value) override {
    reg_ = offset;
    value_ = value;
    return OkStatus();
  }
  Status WriteDma(uint64_t, const void*, size_t) override { return OkStatus(); }
  Status ReadDma(uint64_t addr, void* data, size_t n) override {
    for (size_t i = 0; i < n; ++i) static_cast<uint8_t*>(data)[i] = Byte(addr + i);
    return OkStatus();
  }
  std::string Describe() const override { return "pattern"; }
  static uint8_t Byte(uint64_t addr) { return uint8_t(addr % 251); }

 private:
  uint32_t reg_ = 0, value_ = 0;
};

std::vector<uint8_t> Read(BoardIface& b, uint64_t addr, size_t n) {
  std::vector<uint8_t> out(n);
  EXPECT_TRUE(b.ReadDma(addr, out.data(), n).ok());
  return out;
}

TEST(BitFlipBoard, FlipsTheChosenBitOfTheChosenRecord) {
  PatternBoard inner;
  BitFlipBoard board(&inner, /*record=*/3, /*bit=*/13);  // byte 1 of record 3, bit 5
  const std::vector<uint8_t> got = Read(board, kTraceWindowBase, 64);
  for (size_t i = 0; i < got.size(); ++i) {
    const uint8_t want = PatternBoard::Byte(kTraceWindowBase + i) ^ (i == 3 * 8 + 1 ? 0x20 : 0);
    EXPECT_EQ(got[i], want) << "byte " << i;
  }
}

TEST(BitFlipBoard, FlipsInAReadThatStartsInsideTheRecord) {
  PatternBoard inner;
  BitFlipBoard board(&inner, 3, 13);
  const std::vector<uint8_t> got = Read(board, kTraceWindowBase + 3 * 8 + 1, 1);
  EXPECT_EQ(got[0], PatternBoard::Byte(kTraceWindowBase + 3 * 8 + 1) ^ 0x20);
}

TEST(BitFlipBoard, LeavesDramOtherRecordsAndRegistersAlone) {
  PatternBoard inner;
  BitFlipBoard board(&inner, 3, 13);
  const std::vector<uint8_t> dram = Read(board, 3 * 8, 16);
  for (size_t i = 0; i < dram.size(); ++i) EXPECT_EQ(dram[i], PatternBoard::Byte(3 * 8 + i));
  const std::vector<uint8_t> later = Read(board, kTraceWindowBase + 4 * 8, 8);
  for (size_t i = 0; i < later.size(); ++i) {
    EXPECT_EQ(later[i], PatternBoard::Byte(kTraceWindowBase + 4 * 8 + i));
  }
  ASSERT_TRUE(board.WriteReg(0x40, 7).ok());
  EXPECT_EQ(*board.ReadReg(0x40), 7u);
  EXPECT_EQ(board.Describe(), "pattern");
}

}  // namespace
}  // namespace otpu::host
