#include "host/xdma/xdma_board.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "host/xdma/transfer_plan.h"
#include "base/strings.h"

namespace otpu::host {
namespace {

// The register map's size (SPEC 4): BAR0 offsets at or past it are refused before the driver
// sees them.
constexpr uint32_t kRegMapBytes = 0x1000;
// What the driver returns when a DMA transfer times out: ERESTARTSYS, which reaches user space
// as "Unknown error 512" when no signal is pending.
constexpr int kDriverTimeoutErrno = 512;
constexpr char kRegWhere[] = "offset";
constexpr char kDmaWhere[] = "card address";

// What an errno means coming from the XDMA driver (empty when strerror says it all).
std::string DriverHint(int err) {
  switch (err) {
    case EPROTO: return " (the driver takes only 4-aligned register offsets)";
    case ETIMEDOUT:
    case kDriverTimeoutErrno: return " (the driver's transfer timed out; its default is 10 s)";
    case EINTR: return " (a signal aborted the transfer)";
    case EINVAL: return " (the driver refused the transfer's size or alignment)";
    default: return "";
  }
}

std::string OpenHint(int err) {
  switch (err) {
    case ENOENT:
    case ENXIO:
    case ENODEV: return " (no XDMA device at this prefix: is the xdma driver loaded or "
                        "otpu-xdma-emu mounted?)";
    case EACCES:
    case EPERM: return " (the device files' permissions do not let this user open them)";
    default: return "";
  }
}

StatusOr<UniqueFd> OpenDeviceFile(const std::string& path, int flags, const char* mode) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    std::string msg =
        path + ": cannot open for " + mode + ": " + std::strerror(err) + OpenHint(err);
    if (err == ENOENT || err == ENXIO || err == ENODEV) return NotFound(msg);
    return Internal(msg);
  }
  return UniqueFd(fd);
}

}  // namespace

Status DeviceIoError(const std::string& path, const char* op, uint64_t len, const char* where,
                     uint64_t offset, int err) {
  std::string msg = StrFormat("%s: %s of %llu bytes at %s 0x%llx: %s", path.c_str(), op,
                              static_cast<unsigned long long>(len), where,
                              static_cast<unsigned long long>(offset), std::strerror(err)) +
                    DriverHint(err);
  if (err == ETIMEDOUT || err == kDriverTimeoutErrno) return DeadlineExceeded(msg);
  return Internal(msg);
}

XdmaBoard::XdmaBoard(std::string prefix, const XdmaBoardOptions& opts)
    : prefix_(std::move(prefix)),
      user_path_(prefix_ + "_user"),
      h2c_path_(prefix_ + "_h2c_0"),
      c2h_path_(prefix_ + "_c2h_0"),
      piece_limit_(PieceLimit(std::min(opts.max_transfer, opts.bounce_bytes))) {}

StatusOr<std::unique_ptr<XdmaBoard>> XdmaBoard::Create(const std::string& prefix,
                                                       const XdmaBoardOptions& opts) {
  if (prefix.empty()) return InvalidArgument("XDMA device prefix is empty (e.g. /dev/xdma0)");
  if (opts.max_transfer < kBeatBytes || opts.bounce_bytes < kBeatBytes) {
    return InvalidArgument(StrFormat("XDMA max_transfer and bounce_bytes must be at least %llu "
                                     "bytes (one beat)",
                                     static_cast<unsigned long long>(kBeatBytes)));
  }
  std::unique_ptr<XdmaBoard> board(new XdmaBoard(prefix, opts));
  ASSIGN_OR_RETURN(board->user_, OpenDeviceFile(board->user_path_, O_RDWR, "reading and writing"));
  ASSIGN_OR_RETURN(board->h2c_, OpenDeviceFile(board->h2c_path_, O_WRONLY, "writing"));
  ASSIGN_OR_RETURN(board->c2h_, OpenDeviceFile(board->c2h_path_, O_RDONLY, "reading"));
  return board;
}

Status XdmaBoard::ReadExact(int fd, const std::string& path, void* buf, uint64_t len,
                            uint64_t offset, const char* where) {
  ssize_t got = ::pread(fd, buf, len, static_cast<off_t>(offset));
  if (got < 0) return DeviceIoError(path, "read", len, where, offset, errno);
  if (static_cast<uint64_t>(got) != len) {
    return Internal(StrFormat("%s: read of %llu bytes at %s 0x%llx: short transfer, %lld bytes "
                              "moved",
                              path.c_str(), static_cast<unsigned long long>(len), where,
                              static_cast<unsigned long long>(offset),
                              static_cast<long long>(got)));
  }
  return OkStatus();
}

Status XdmaBoard::WriteExact(int fd, const std::string& path, const void* buf, uint64_t len,
                             uint64_t offset, const char* where) {
  ssize_t put = ::pwrite(fd, buf, len, static_cast<off_t>(offset));
  if (put < 0) return DeviceIoError(path, "write", len, where, offset, errno);
  if (static_cast<uint64_t>(put) != len) {
    return Internal(StrFormat("%s: write of %llu bytes at %s 0x%llx: short transfer, %lld bytes "
                              "moved",
                              path.c_str(), static_cast<unsigned long long>(len), where,
                              static_cast<unsigned long long>(offset),
                              static_cast<long long>(put)));
  }
  return OkStatus();
}

StatusOr<uint32_t> XdmaBoard::ReadReg(uint32_t offset) {
  if (offset >= kRegMapBytes) {
    return InvalidArgument(StrFormat("%s: register offset 0x%x is outside the 4 KiB register map",
                                     user_path_.c_str(), offset));
  }
  uint32_t value = 0;
  RETURN_IF_ERROR(ReadExact(user_.get(), user_path_, &value, sizeof(value), offset, kRegWhere));
  return value;
}

Status XdmaBoard::WriteReg(uint32_t offset, uint32_t value) {
  if (offset >= kRegMapBytes) {
    return InvalidArgument(StrFormat("%s: register offset 0x%x is outside the 4 KiB register map",
                                     user_path_.c_str(), offset));
  }
  return WriteExact(user_.get(), user_path_, &value, sizeof(value), offset, kRegWhere);
}

uint8_t* XdmaBoard::Bounce(uint64_t len) {
  if (len > bounce_capacity_) {
    const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    const uint64_t bytes = (len + page - 1) / page * page;
    void* p = nullptr;
    OTPU_CHECK(::posix_memalign(&p, page, bytes) == 0);
    bounce_.reset(static_cast<uint8_t*>(p));
    bounce_capacity_ = bytes;
  }
  return bounce_.get();
}

Status XdmaBoard::CheckDmaRange(uint64_t card_addr, size_t len, const std::string& path,
                                const char* op) const {
  if (card_addr > UINT64_MAX - kBeatBytes || len > UINT64_MAX - kBeatBytes - card_addr) {
    return InvalidArgument(StrFormat("%s: %s of %zu bytes at card address 0x%llx passes the end "
                                     "of the address space",
                                     path.c_str(), op, len,
                                     static_cast<unsigned long long>(card_addr)));
  }
  return OkStatus();
}

Status XdmaBoard::WriteDma(uint64_t card_addr, const void* data, size_t len) {
  if (len == 0) return OkStatus();
  RETURN_IF_ERROR(CheckDmaRange(card_addr, len, h2c_path_, "write"));
  const BeatSpan span = WidenToBeats(card_addr, len);
  const uint8_t* src = static_cast<const uint8_t*>(data);
  const uint64_t end = card_addr + len;
  for (const TransferPiece& piece : SplitSpan(span, piece_limit_)) {
    uint8_t* buf = Bounce(piece.len);
    const uint64_t piece_end = piece.card_addr + piece.len;
    // Partial beats keep the bytes around the request: read them, merge, write back whole.
    const bool head = span.partial_head && piece.card_addr == span.start;
    const bool tail = span.partial_tail && piece_end == span.end;
    if (head) {
      RETURN_IF_ERROR(ReadExact(c2h_.get(), c2h_path_, buf, kBeatBytes, piece.card_addr, kDmaWhere)
                          .WithContext("reading the partial first beat of a write"));
    }
    if (tail && !(head && piece.len == kBeatBytes)) {
      RETURN_IF_ERROR(ReadExact(c2h_.get(), c2h_path_, buf + piece.len - kBeatBytes, kBeatBytes,
                                piece_end - kBeatBytes, kDmaWhere)
                          .WithContext("reading the partial last beat of a write"));
    }
    const uint64_t lo = std::max(card_addr, piece.card_addr);
    const uint64_t hi = std::min(end, piece_end);
    std::memcpy(buf + (lo - piece.card_addr), src + (lo - card_addr), hi - lo);
    RETURN_IF_ERROR(WriteExact(h2c_.get(), h2c_path_, buf, piece.len, piece.card_addr, kDmaWhere));
  }
  return OkStatus();
}

Status XdmaBoard::ReadDma(uint64_t card_addr, void* data, size_t len) {
  if (len == 0) return OkStatus();
  RETURN_IF_ERROR(CheckDmaRange(card_addr, len, c2h_path_, "read"));
  const BeatSpan span = WidenToBeats(card_addr, len);
  uint8_t* dst = static_cast<uint8_t*>(data);
  const uint64_t end = card_addr + len;
  for (const TransferPiece& piece : SplitSpan(span, piece_limit_)) {
    uint8_t* buf = Bounce(piece.len);
    RETURN_IF_ERROR(ReadExact(c2h_.get(), c2h_path_, buf, piece.len, piece.card_addr, kDmaWhere));
    const uint64_t lo = std::max(card_addr, piece.card_addr);
    const uint64_t hi = std::min(end, piece.card_addr + piece.len);
    std::memcpy(dst + (lo - card_addr), buf + (lo - piece.card_addr), hi - lo);
  }
  return OkStatus();
}

}  // namespace otpu::host
