#include "sim/board/run_protocol.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace otpu::board {

namespace {

uint32_t Off(isa::Reg reg) { return static_cast<uint32_t>(reg); }

std::string StatusText(uint32_t status) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "STATUS 0x%02X%s%s%s", status,
                status & isa::kSTATUS_HALTED ? " HALTED" : "",
                status & isa::kSTATUS_ERROR ? " ERROR" : "",
                status & isa::kSTATUS_AXI_ERR ? " AXI_ERR" : "");
  return buf;
}

// Reads `reg` back to back into `polls` until `done(value)`.
Status Poll(host::BoardIface* board, isa::Reg reg, int64_t max_polls, bool (*done)(uint32_t),
            const char* what, std::vector<uint32_t>* polls) {
  for (int64_t i = 0; i < max_polls; ++i) {
    ASSIGN_OR_RETURN(const uint32_t value, board->ReadReg(Off(reg)));
    polls->push_back(value);
    if (done(value)) return OkStatus();
  }
  char last[32];
  std::snprintf(last, sizeof(last), "0x%08X", polls->empty() ? 0 : polls->back());
  return DeadlineExceeded(board->Describe() + ": " + what + " not seen after " +
                          std::to_string(max_polls) + " polls (last read " + last + ")");
}

// A 64-bit counter: hi, lo, hi again until hi holds still (lo may wrap between reads).
StatusOr<uint64_t> Read64(host::BoardIface* board, uint32_t offset) {
  for (;;) {
    ASSIGN_OR_RETURN(const uint32_t hi, board->ReadReg(offset + 4));
    ASSIGN_OR_RETURN(const uint32_t lo, board->ReadReg(offset));
    ASSIGN_OR_RETURN(const uint32_t hi2, board->ReadReg(offset + 4));
    if (hi == hi2) return uint64_t{hi} << 32 | lo;
  }
}

}  // namespace

Status WriteImage(host::BoardIface* board, const SparseMemory& image) {
  for (const auto& [page, bytes] : image.pages()) {
    const uint64_t addr = page * SparseMemory::kPageBytes;
    const uint64_t len = std::min<uint64_t>(SparseMemory::kPageBytes, image.size() - addr);
    RETURN_IF_ERROR(board->WriteDma(addr, bytes.get(), len));
  }
  return OkStatus();
}

Status WriteProgram(host::BoardIface* board, const isa::Program& prog) {
  const std::vector<uint8_t> bytes = prog.Bytes();
  return board->WriteDma(kProgAddr, bytes.data(), bytes.size());
}

StatusOr<BoardRun> RunProgram(host::BoardIface* board, uint32_t n, const BoardRunOptions& opts) {
  BoardRun run;
  auto write = [&](isa::Reg reg, uint32_t value) { return board->WriteReg(Off(reg), value); };
  RETURN_IF_ERROR(write(isa::Reg::kCTRL, 0));
  RETURN_IF_ERROR(write(isa::Reg::kPROG_ADDR, uint32_t(kProgAddr)));
  RETURN_IF_ERROR(write(isa::Reg::kPROG_N, n));
  RETURN_IF_ERROR(write(isa::Reg::kCTRL, isa::kCTRL_LOAD));
  RETURN_IF_ERROR(Poll(
      board, isa::Reg::kSTATUS, opts.max_polls,
      [](uint32_t s) { return (s & isa::kSTATUS_LOADING) == 0; }, "STATUS LOADING = 0",
      &run.load_polls));
  if (opts.trace) {
    RETURN_IF_ERROR(write(isa::Reg::kTRACE_CTRL, isa::kTRACE_CTRL_CLEAR));
    RETURN_IF_ERROR(write(isa::Reg::kTRACE_CTRL,
                          isa::kTRACE_CTRL_ENABLE | isa::kTRACE_CTRL_STOP_WHEN_FULL));
  }
  for (int i = 0; i < isa::kNumArgs; ++i) {
    RETURN_IF_ERROR(board->WriteReg(Off(isa::Reg::kARG0) + 4 * uint32_t(i), opts.args[i]));
  }
  RETURN_IF_ERROR(write(isa::Reg::kCTRL, isa::kCTRL_CLEAR));
  RETURN_IF_ERROR(write(isa::Reg::kCTRL, isa::kCTRL_RUN));
  RETURN_IF_ERROR(Poll(
      board, isa::Reg::kSTATUS, opts.max_polls,
      [](uint32_t s) { return (s & (isa::kSTATUS_HALTED | isa::kSTATUS_ERROR)) != 0; },
      "STATUS HALTED", &run.run_polls));
  if (opts.trace) {
    std::vector<uint32_t> busy;
    RETURN_IF_ERROR(Poll(
        board, isa::Reg::kTRACE_CTRL, opts.max_polls,
        [](uint32_t c) { return (c & isa::kTRACE_CTRL_BUSY) == 0; }, "TRACE_CTRL BUSY = 0",
        &busy));
  }
  ASSIGN_OR_RETURN(run.cycles, Read64(board, Off(isa::Reg::kCYCLES_LO)));
  for (size_t i = 0; i < run.run_counters.size(); ++i) {
    ASSIGN_OR_RETURN(run.run_counters[i],
                     board->ReadReg(Off(isa::Reg::kICOUNT) + 4 * uint32_t(i)));
  }
  for (int k = 0; k < isa::kNumCounters; ++k) {
    ASSIGN_OR_RETURN(run.free_running[size_t(k)],
                     Read64(board, Off(isa::Reg::kCOUNTERS) + 8 * uint32_t(k)));
  }
  if (opts.trace) {
    ASSIGN_OR_RETURN(run.trace_count, board->ReadReg(Off(isa::Reg::kTRACE_COUNT)));
    ASSIGN_OR_RETURN(run.trace_drop, board->ReadReg(Off(isa::Reg::kTRACE_DROP)));
  }
  RETURN_IF_ERROR(write(isa::Reg::kCTRL, 0));
  const uint32_t last = run.run_polls.back();
  if (last & (isa::kSTATUS_ERROR | isa::kSTATUS_AXI_ERR)) {
    return Internal(board->Describe() + ": run ended with " + StatusText(last));
  }
  return run;
}

Status ReadPages(host::BoardIface* board, const std::vector<uint64_t>& pages, SparseMemory* out) {
  std::vector<uint8_t> buf(SparseMemory::kPageBytes);
  for (uint64_t page : pages) {
    const uint64_t addr = page * SparseMemory::kPageBytes;
    const uint64_t len = std::min<uint64_t>(SparseMemory::kPageBytes, out->size() - addr);
    RETURN_IF_ERROR(board->ReadDma(addr, buf.data(), len));
    out->Write(addr, buf.data(), len);
  }
  return OkStatus();
}

}  // namespace otpu::board
