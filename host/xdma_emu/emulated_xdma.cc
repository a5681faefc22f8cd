#include "host/xdma_emu/emulated_xdma.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "workloads/isa/defs.h"

namespace otpu::xdma_emu {
namespace {

constexpr uint64_t kRegMapBytes = 0x1000;
constexpr size_t kRegBytes = 4;
// The trace window is 2^32 + 8 * DEPTH; 2^33 covers any DEPTH up to 2^29 records.
constexpr uint64_t kDmaFileBytes = uint64_t{1} << 33;

}  // namespace

std::string DeviceFileName(DeviceFile file) {
  switch (file) {
    case DeviceFile::kUser: return std::string(kDeviceName) + "_user";
    case DeviceFile::kH2c: return std::string(kDeviceName) + "_h2c_0";
    case DeviceFile::kC2h: return std::string(kDeviceName) + "_c2h_0";
  }
  return kDeviceName;
}

EmulatedXdma::EmulatedXdma(host::BoardIface* board, FaultPlan faults, CardRuns card_runs)
    : board_(board),
      faults_(std::move(faults)),
      card_runs_(std::move(card_runs)),
      hang_(faults_.hang()) {}

uint64_t EmulatedXdma::FileSize(DeviceFile file) {
  return file == DeviceFile::kUser ? kRegMapBytes : kDmaFileBytes;
}

ssize_t EmulatedXdma::BoardFailed(DeviceFile file, const char* op, size_t size, uint64_t offset,
                                  const Status& status) {
  std::fprintf(stderr, "otpu-xdma-emu: %s: %s of %zu bytes at 0x%llx: %s\n",
               DeviceFileName(file).c_str(), op, size, static_cast<unsigned long long>(offset),
               status.message().c_str());
  return -EIO;
}

void EmulatedXdma::Wait(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  if (card_runs_) card_runs_(ms);
}

ssize_t EmulatedXdma::Read(DeviceFile file, char* buf, size_t size, uint64_t offset) {
  const FaultAction fault = faults_.Next(file);
  if (fault.delay_ms > 0) Wait(fault.delay_ms);
  if (fault.error) return -fault.error;
  if (file == DeviceFile::kUser) return ReadUser(buf, size, offset, fault.half);
  if (file == DeviceFile::kH2c) return -EINVAL;
  const size_t len = fault.half ? size / 2 : size;
  if (len == 0) return 0;
  Status status = board_->ReadDma(offset, buf, len);
  if (!status.ok()) return BoardFailed(file, "read", len, offset, status);
  return static_cast<ssize_t>(len);
}

ssize_t EmulatedXdma::Write(DeviceFile file, const char* buf, size_t size, uint64_t offset) {
  const FaultAction fault = faults_.Next(file);
  if (fault.delay_ms > 0) Wait(fault.delay_ms);
  if (fault.error) return -fault.error;
  if (file == DeviceFile::kUser) return WriteUser(buf, size, offset, fault.half);
  if (file == DeviceFile::kC2h) return -EINVAL;
  const size_t len = fault.half ? size / 2 : size;
  if (len == 0) return 0;
  Status status = board_->WriteDma(offset, buf, len);
  if (!status.ok()) return BoardFailed(file, "write", len, offset, status);
  return static_cast<ssize_t>(len);
}

ssize_t EmulatedXdma::ReadUser(char* buf, size_t size, uint64_t offset, bool half) {
  if (offset % kRegBytes != 0) return -EPROTO;
  if (size < kRegBytes || offset >= kRegMapBytes) return -EINVAL;
  StatusOr<uint32_t> value = board_->ReadReg(static_cast<uint32_t>(offset));
  if (!value.ok()) return BoardFailed(DeviceFile::kUser, "read", kRegBytes, offset, value.status());
  uint32_t word = *value;
  if (hang_ && offset == static_cast<uint32_t>(isa::Reg::kSTATUS) &&
      (word & isa::kSTATUS_HALTED)) {
    word = (word & ~isa::kSTATUS_HALTED) | isa::kSTATUS_RUNNING;
  }
  const size_t len = half ? kRegBytes / 2 : kRegBytes;
  std::memcpy(buf, &word, len);
  return static_cast<ssize_t>(len);
}

ssize_t EmulatedXdma::WriteUser(const char* buf, size_t size, uint64_t offset, bool half) {
  if (offset % kRegBytes != 0) return -EPROTO;
  if (size < kRegBytes || offset >= kRegMapBytes) return -EINVAL;
  // A short register write reaches nothing: a register takes all four bytes or none.
  if (half) return kRegBytes / 2;
  uint32_t word = 0;
  std::memcpy(&word, buf, kRegBytes);
  Status status = board_->WriteReg(static_cast<uint32_t>(offset), word);
  if (!status.ok()) return BoardFailed(DeviceFile::kUser, "write", kRegBytes, offset, status);
  return static_cast<ssize_t>(kRegBytes);
}

}  // namespace otpu::xdma_emu
