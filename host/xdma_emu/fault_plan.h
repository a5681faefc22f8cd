// Fault injection for otpu-xdma-emu (docs/xdma.md "Faults"): what goes wrong, on which
// device file, at which request. Grammar of one --fault SPEC:
//   eio:FILE:N      the Nth request on FILE fails with EIO
//   short:FILE:N    the Nth request on FILE moves only half its bytes (rounded down)
//   timeout:FILE:N  the Nth request on FILE fails with ETIMEDOUT (the driver's timeout)
//   slow:FILE:MS    every request on FILE waits MS milliseconds first (the card runs meanwhile)
//   hang            the run never halts: STATUS reads never show HALTED (RUNNING instead)
// FILE is user, h2c or c2h; N counts that file's requests (reads and writes) from 1.
#ifndef OTPU_HOST_XDMA_EMU_FAULT_PLAN_H_
#define OTPU_HOST_XDMA_EMU_FAULT_PLAN_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace otpu::xdma_emu {

// The three device files the emulator serves.
enum class DeviceFile { kUser = 0, kH2c = 1, kC2h = 2 };
inline constexpr int kNumDeviceFiles = 3;

// "user", "h2c", "c2h": the FILE word of a fault spec.
const char* DeviceFileWord(DeviceFile file);

enum class FaultKind { kEio, kShort, kTimeout, kSlow, kHang };

struct Fault {
  FaultKind kind = FaultKind::kEio;
  DeviceFile file = DeviceFile::kUser;  // not used by kHang
  int64_t nth = 0;                      // eio, short, timeout: the request it hits (from 1)
  int delay_ms = 0;                     // slow: the wait before every request
};

// Parses one --fault SPEC (grammar above); InvalidArgument naming the spec and what is wrong.
StatusOr<Fault> ParseFault(const std::string& spec);

// What to do with one request.
struct FaultAction {
  int error = 0;      // errno to fail with (0: serve it)
  bool half = false;  // move half the bytes (a short transfer)
  int delay_ms = 0;   // wait first
};

// The faults of one emulator run and the per-file request counts they key on.
class FaultPlan {
 public:
  FaultPlan() = default;
  explicit FaultPlan(std::vector<Fault> faults) : faults_(std::move(faults)) {}

  // Counts one more request on `file` and says what happens to it.
  FaultAction Next(DeviceFile file);
  // True when STATUS must never show HALTED.
  bool hang() const;

 private:
  std::vector<Fault> faults_;
  std::array<int64_t, kNumDeviceFiles> requests_{};
};

}  // namespace otpu::xdma_emu

#endif  // OTPU_HOST_XDMA_EMU_FAULT_PLAN_H_
