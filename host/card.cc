#include "host/card.h"

#include <string.h>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <utility>

#include "base/strings.h"
#include "host/stop_request.h"

namespace otpu::host {
namespace {

using isa::Reg;
using Clock = std::chrono::steady_clock;

// Polls made back to back before pacing starts, and the pace after that.
constexpr int kFastPolls = 8;
constexpr auto kPollInterval = std::chrono::microseconds(50);
// DMA size of one scrub write.
constexpr uint64_t kScrubBytes = uint64_t{1} << 20;

const char* RegName(Reg reg) {
  switch (reg) {
#define OTPU_REG_NAME(name, value) \
  case Reg::k##name:               \
    return #name;
    OTPU_REGS(OTPU_REG_NAME)
#undef OTPU_REG_NAME
  }
  return "?";
}

uint32_t Off(Reg reg) { return uint32_t(reg); }

std::string Hex(uint32_t v) { return StrFormat("0x%08X", v); }

std::string VersionText(uint32_t v) {
  return StrFormat("%s (D %u, MCOLS %u, LANES %u)", Hex(v).c_str(), v >> 16, (v >> 8) & 0xFF,
                   v & 0xFF);
}

}  // namespace

std::string StatusBitNames(uint32_t status) {
  static constexpr std::pair<uint32_t, const char*> kBits[] = {
      {isa::kSTATUS_HALTED, "HALTED"},   {isa::kSTATUS_ERROR, "ERROR"},
      {isa::kSTATUS_LOADING, "LOADING"}, {isa::kSTATUS_WR_IDLE, "WR_IDLE"},
      {isa::kSTATUS_AXI_ERR, "AXI_ERR"}, {isa::kSTATUS_RUNNING, "RUNNING"}};
  std::string names;
  for (const auto& [bit, name] : kBits) {
    if (status & bit) names += (names.empty() ? "" : " ") + std::string(name);
  }
  return names.empty() ? "none" : names;
}

StatusOr<uint32_t> Card::Read(Reg reg, uint32_t offset) {
  return board_->ReadReg(Off(reg) + offset);
}

Status Card::Write(Reg reg, uint32_t value, uint32_t offset) {
  return board_->WriteReg(Off(reg) + offset, value);
}

StatusOr<std::unique_ptr<Card>> Card::Probe(BoardIface* board,
                                            const std::optional<isa::Config>& expected) {
  const std::string where = board->Describe();
  CardInfo info;
  // REGMAP first: a map-1 card answers 0xDEADBEEF and must not be asked for anything above
  // SCRATCH.
  ASSIGN_OR_RETURN(uint32_t regmap, board->ReadReg(Off(Reg::kREGMAP)));
  if (regmap == isa::kUNMAPPED) {
    info.regmap = 1;
  } else if (regmap == isa::kREGMAP_VERSION) {
    info.regmap = 2;
  } else {
    return InvalidArgument(
        StrFormat("%s: REGMAP reads %s: expected %u (map version 2) or "
                  "0xDEADBEEF (map version 1, no REGMAP)",
                  where.c_str(), Hex(regmap).c_str(), isa::kREGMAP_VERSION));
  }
  ASSIGN_OR_RETURN(uint32_t id, board->ReadReg(Off(Reg::kID)));
  if (id != isa::kID_VALUE) {
    return InvalidArgument(StrFormat("%s: ID reads %s, expected %s (\"OTPU\"): not an openTPU card",
                                     where.c_str(), Hex(id).c_str(), Hex(isa::kID_VALUE).c_str()));
  }
  ASSIGN_OR_RETURN(info.version, board->ReadReg(Off(Reg::kVERSION)));
  const isa::Config known[] = {isa::Config::Sim(), isa::Config::Board()};
  const auto match = std::find_if(std::begin(known), std::end(known), [&](const isa::Config& c) {
    return c.Version() == info.version;
  });
  if (match == std::end(known)) {
    return InvalidArgument(
        StrFormat("%s: VERSION reads %s, which is no known configuration (sim %s, board %s)",
                  where.c_str(), VersionText(info.version).c_str(), Hex(known[0].Version()).c_str(),
                  Hex(known[1].Version()).c_str()));
  }
  info.config = *match;
  if (expected && expected->Version() != info.version) {
    return InvalidArgument(
        StrFormat("%s: VERSION reads %s (config %s), but the work was built "
                  "for config %s, VERSION %s",
                  where.c_str(), VersionText(info.version).c_str(), info.config.name.c_str(),
                  expected->name.c_str(), VersionText(expected->Version()).c_str()));
  }
  if (info.regmap >= 2) {
    ASSIGN_OR_RETURN(info.caps, board->ReadReg(Off(Reg::kCAPS)));
    ASSIGN_OR_RETURN(info.core_khz, board->ReadReg(Off(Reg::kCORE_KHZ)));
    ASSIGN_OR_RETURN(info.build_id, board->ReadReg(Off(Reg::kBUILD_ID)));
  }
  return std::unique_ptr<Card>(new Card(board, info));
}

Status Card::ScrubDram(uint64_t addr, uint64_t bytes) {
  const std::vector<uint8_t> zeros(std::min(bytes, kScrubBytes), 0);
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t n = std::min<uint64_t>(bytes - done, zeros.size());
    RETURN_IF_ERROR(board_->WriteDma(addr + done, zeros.data(), n));
    done += n;
  }
  return OkStatus();
}

Status Card::WriteImage(const SparseMemory& image) {
  if (image.size() > config().DRAM_BYTES) {
    return InvalidArgument(StrFormat("%s: an image of %llu bytes does not fit DRAM of %llu",
                                     board_->Describe().c_str(), (unsigned long long)image.size(),
                                     (unsigned long long)config().DRAM_BYTES));
  }
  for (const auto& [page, bytes] : image.pages()) {
    const uint64_t addr = page * SparseMemory::kPageBytes;
    const uint64_t n = std::min<uint64_t>(SparseMemory::kPageBytes, image.size() - addr);
    RETURN_IF_ERROR(board_->WriteDma(addr, bytes.get(), n));
  }
  return OkStatus();
}

Status Card::WriteDram(uint64_t addr, const void* data, size_t len) {
  return board_->WriteDma(addr, data, len);
}

Status Card::ReadDram(uint64_t addr, void* data, size_t len) {
  return board_->ReadDma(addr, data, len);
}

Status Card::WriteProgram(const isa::Program& program, uint64_t prog_addr) {
  const isa::Config& cfg = config();
  if (program.size() == 0 || program.size() > cfg.IMEM_WORDS) {
    return InvalidArgument(StrFormat("%s: a program of %zu instructions does not fit IMEM (1..%u)",
                                     board_->Describe().c_str(), program.size(), cfg.IMEM_WORDS));
  }
  if (prog_addr % uint64_t(cfg.D) != 0 || prog_addr > UINT32_MAX) {
    return InvalidArgument(
        StrFormat("%s: PROG_ADDR 0x%llx is not a 32-bit multiple of D (%d bytes)",
                  board_->Describe().c_str(), (unsigned long long)prog_addr, cfg.D));
  }
  const std::vector<uint8_t> bytes = program.Bytes();
  RETURN_IF_ERROR(board_->WriteDma(prog_addr, bytes.data(), bytes.size()));
  prog_addr_ = prog_addr;
  prog_n_ = uint32_t(program.size());
  return OkStatus();
}

StatusOr<uint32_t> Card::Poll(Reg reg, uint32_t mask, bool until_set,
                              std::chrono::milliseconds timeout, PollWait wait,
                              const std::string& what, const PollWork& work,
                              const PollWork& alive) {
  Clock::time_point deadline = Clock::now() + timeout;
  for (int polls = 0;; ++polls) {
    const Clock::time_point at = Clock::now();
    if (int sig = StopSignal()) {
      // A stop request: abort the run (RUN falling) and say what became of it.
      return Internal(StrFormat("%s: interrupted by SIG%s; %s", board_->Describe().c_str(),
                                sigabbrev_np(sig), Stop().c_str()));
    }
    ASSIGN_OR_RETURN(uint32_t v, Read(reg));
    if (poll_observer_) poll_observer_(wait, v);
    if (until_set ? (v & mask) != 0 : (v & mask) == 0) return v;
    if (Clock::now() >= deadline && alive) {
      ASSIGN_OR_RETURN(bool going, alive());
      if (going) deadline = Clock::now() + timeout;
    }
    if (Clock::now() >= deadline) {
      const std::string bits = reg == Reg::kSTATUS ? " (" + StatusBitNames(v) + ")" : "";
      return DeadlineExceeded(StrFormat(
          "%s: %s within %lld ms: %s reads %s%s", board_->Describe().c_str(), what.c_str(),
          (long long)timeout.count(), RegName(reg), Hex(v).c_str(), bits.c_str()));
    }
    if (work) {
      ASSIGN_OR_RETURN(bool worked, work());
      if (worked) {
        polls = 0;  // records keep coming: poll again at once
        continue;
      }
    }
    if (polls >= kFastPolls) std::this_thread::sleep_until(at + kPollInterval);
  }
}

StatusOr<int64_t> Card::Read64(uint32_t offset) {
  // hi, lo, hi: when the counter carried into hi between the reads, lo is read again.
  ASSIGN_OR_RETURN(uint32_t hi, board_->ReadReg(offset + 4));
  for (;;) {
    ASSIGN_OR_RETURN(uint32_t lo, board_->ReadReg(offset));
    ASSIGN_OR_RETURN(uint32_t hi2, board_->ReadReg(offset + 4));
    if (hi == hi2) return int64_t((uint64_t(hi) << 32) | lo);
    hi = hi2;
  }
}

StatusOr<std::array<int64_t, isa::kNumCounters>> Card::ReadFreeRunning() {
  std::array<int64_t, isa::kNumCounters> v{};
  for (int i = 0; i < isa::kNumCounters; ++i) {
    ASSIGN_OR_RETURN(v[size_t(i)], Read64(Off(Reg::kCOUNTERS) + 8 * uint32_t(i)));
  }
  return v;
}

Status Card::LoadImem() {
  RETURN_IF_ERROR(Write(Reg::kCTRL, 0));
  RETURN_IF_ERROR(Write(Reg::kPROG_ADDR, uint32_t(prog_addr_)));
  RETURN_IF_ERROR(Write(Reg::kPROG_N, prog_n_));
  RETURN_IF_ERROR(Write(Reg::kCTRL, isa::kCTRL_LOAD));
  return Poll(Reg::kSTATUS, isa::kSTATUS_LOADING, /*until_set=*/false,
              std::chrono::milliseconds(10000), PollWait::kLoad, "the program did not load")
      .status();
}

Status Card::ReadRing(int64_t first, int64_t n, uint64_t* out) {
  const int64_t depth = info_.trace_depth();
  first %= depth;
  if (info_.has_trace_window()) {
    const int64_t head = std::min(n, depth - first);  // up to the end of the buffer
    if (head > 0) {
      RETURN_IF_ERROR(
          board_->ReadDma(kTraceWindowBase + 8 * uint64_t(first), out, size_t(head) * 8));
    }
    if (n > head) RETURN_IF_ERROR(board_->ReadDma(kTraceWindowBase, out + head, size_t(n - head) * 8));
    return OkStatus();
  }
  RETURN_IF_ERROR(Write(Reg::kTRACE_ADDR, uint32_t(first)));
  for (int64_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(uint32_t lo, Read(Reg::kTRACE_LO));
    ASSIGN_OR_RETURN(uint32_t hi, Read(Reg::kTRACE_HI));  // advances TRACE_ADDR
    out[i] = (uint64_t(hi) << 32) | lo;
  }
  return OkStatus();
}

StatusOr<TraceDrain> Card::ReadTrace(bool keep_last) {
  if (!info_.has_trace()) {
    return InvalidArgument(board_->Describe() + ": no trace buffer to read (" +
                           (info_.regmap < 2 ? "register map 1" : "CAPS bit0 is 0") + ")");
  }
  TraceDrain t;
  t.keep_last = keep_last;
  t.depth = info_.trace_depth();
  ASSIGN_OR_RETURN(uint32_t count, Read(Reg::kTRACE_COUNT));
  ASSIGN_OR_RETURN(uint32_t drop, Read(Reg::kTRACE_DROP));
  t.count = count;
  t.drop = drop;
  t.wrapped = keep_last && t.count > t.depth;
  const int64_t n = std::min(t.count, t.depth);
  // A ring that wrapped holds its oldest record where the next one would have gone.
  const int64_t first = t.wrapped ? t.count % t.depth : 0;
  t.records.resize(size_t(n));
  t.via_window = info_.has_trace_window();
  RETURN_IF_ERROR(ReadRing(first, n, t.records.data()));
  t.drained = n;
  return t;
}

StatusOr<bool> Card::DrainStream(const TraceSink& sink, TraceDrain* t) {
  ASSIGN_OR_RETURN(uint32_t widx, Read(Reg::kTRACE_WIDX));
  const uint32_t n = widx - stream_rptr_;
  if (n == 0) return false;
  if (n > uint32_t(t->depth)) {
    // The unit never writes past DEPTH unread records: a card that did is broken.
    return DataLoss(StrFormat("%s: TRACE_WIDX reads %u with TRACE_RPTR at %u: %u unread records "
                              "in a ring of %lld",
                              board_->Describe().c_str(), widx, stream_rptr_, n,
                              (long long)t->depth));
  }
  stream_chunk_.resize(n);
  RETURN_IF_ERROR(ReadRing(int64_t(stream_rptr_), int64_t(n), stream_chunk_.data()));
  if (sink) {
    RETURN_IF_ERROR(sink(stream_chunk_.data(), n));
  } else {
    t->records.insert(t->records.end(), stream_chunk_.begin(), stream_chunk_.end());
  }
  const int64_t from = t->drained;               // the old read pointer
  const int64_t full_at = t->drained + t->depth;  // where the ring was full under it
  stream_rptr_ = widx;
  RETURN_IF_ERROR(Write(Reg::kTRACE_RPTR, widx));  // the unit may now overwrite them
  t->drained += n;
  ++t->drains;
  // Lines dropped since the last drain were lost while the old read pointer stood: after the
  // records it covered and no later than where it held the ring full. DROP is read right after
  // the new pointer: the ring then has room for far more than the unit writes in one register
  // access, so nothing dropped under the new pointer is counted here.
  ASSIGN_OR_RETURN(uint32_t drop, Read(Reg::kTRACE_DROP));
  if (drop != stream_drop_) {
    t->gaps.push_back({from, full_at, int64_t(uint32_t(drop - stream_drop_))});
    stream_drop_ = drop;
  }
  return true;
}

std::string Card::Stop() {
  Status written = Write(Reg::kCTRL, 0);
  if (!written.ok()) return "writing CTRL=0 failed: " + written.message();
  StatusOr<uint32_t> after = Read(Reg::kSTATUS);
  if (!after.ok())
    return "wrote CTRL=0, then STATUS could not be read: " + after.status().message();
  if (*after & isa::kSTATUS_RUNNING) {
    // A core that starts on RUN's rising edge runs on when RUN falls.
    return StrFormat(
        "wrote CTRL=0, but the core is still running (STATUS %s (%s)): the board "
        "needs a reset",
        Hex(*after).c_str(), StatusBitNames(*after).c_str());
  }
  return "stopped the run (CTRL=0)";
}

Status Card::StopEarlierRun(std::chrono::milliseconds timeout) {
  ASSIGN_OR_RETURN(uint32_t idle, Read(Reg::kSTATUS));
  if (!(idle & isa::kSTATUS_RUNNING)) return OkStatus();
  const std::string where = board_->Describe();
  RETURN_IF_ERROR(Write(Reg::kCTRL, 0));  // RUN falling aborts the run
  StatusOr<uint32_t> after =
      Poll(Reg::kSTATUS, isa::kSTATUS_RUNNING, /*until_set=*/false, timeout,
           PollWait::kEarlierRun, "the earlier run did not stop");
  if (!after.ok() && StopSignal() != 0) return after.status();  // interrupted while waiting
  if (!after.ok()) {
    return Internal(
        StrFormat("%s: the core is still running an earlier run (STATUS %s (%s)) and did not "
                  "stop on CTRL=0; the board needs a reset",
                  where.c_str(), Hex(idle).c_str(), StatusBitNames(idle).c_str()));
  }
  if (note_sink_) {
    note_sink_(StrFormat("%s: the core was still running an earlier run (STATUS %s (%s)); "
                         "stopped it (CTRL=0)",
                         where.c_str(), Hex(idle).c_str(), StatusBitNames(idle).c_str()));
  }
  return OkStatus();
}

StatusOr<RunResult> Card::Run(const RunOptions& opts) {
  const std::string where = board_->Describe();
  if (prog_n_ == 0) return InvalidArgument(where + ": Run before a program was written");
  if (opts.trace.enable && !info_.has_trace()) {
    return InvalidArgument(StrFormat("%s: a traced run needs a trace buffer, but %s", where.c_str(),
                                     info_.regmap < 2 ? "the card has register map 1 (no CAPS)"
                                                      : "CAPS bit0 (trace buffer) is 0"));
  }
  if (opts.trace.enable && opts.trace.stream && !info_.has_trace_stream()) {
    return InvalidArgument(StrFormat("%s: a streamed trace needs CAPS bit2 (streaming trace), but "
                                     "CAPS reads 0x%08X",
                                     where.c_str(), info_.caps));
  }
  for (int i = 0; i < isa::kNumArgs && info_.regmap < 2; ++i) {
    // Map 1 ends at SCRATCH: its runs start with R8..R15 = 0, so only zero ARGs can run.
    if (opts.args[size_t(i)] != 0) {
      return InvalidArgument(
          StrFormat("%s: ARG%d = 0x%X, but a register-map-1 card has no ARG "
                    "registers",
                    where.c_str(), i, opts.args[size_t(i)]));
    }
  }
  if (int sig = StopSignal()) {
    return Internal(StrFormat("%s: interrupted by SIG%s before the run", where.c_str(), sigabbrev_np(sig)));
  }
  RETURN_IF_ERROR(StopEarlierRun(opts.timeout));
  RETURN_IF_ERROR(LoadImem());
  if (info_.has_trace()) {
    // ENABLE off for an untraced run: it records nothing (the buffer keeps what it had).
    uint32_t ctrl = 0;
    if (opts.trace.enable) {
      RETURN_IF_ERROR(Write(Reg::kTRACE_CTRL, isa::kTRACE_CTRL_CLEAR));
      ctrl = isa::kTRACE_CTRL_ENABLE;
      if (opts.trace.stream) {
        ctrl |= isa::kTRACE_CTRL_STREAM;  // CLEAR zeroed TRACE_RPTR
      } else if (!opts.trace.keep_last) {
        ctrl |= isa::kTRACE_CTRL_STOP_WHEN_FULL;
      }
    }
    RETURN_IF_ERROR(Write(Reg::kTRACE_CTRL, ctrl));
  }
  for (int i = 0; i < isa::kNumArgs && info_.regmap >= 2; ++i) {
    RETURN_IF_ERROR(Write(Reg::kARG0, opts.args[size_t(i)], 4 * uint32_t(i)));
  }
  std::optional<std::array<int64_t, isa::kNumCounters>> before;
  if (info_.has_counters()) {
    ASSIGN_OR_RETURN(before, ReadFreeRunning());
  }
  RETURN_IF_ERROR(Write(Reg::kCTRL, isa::kCTRL_CLEAR));
  RETURN_IF_ERROR(Write(Reg::kCTRL, isa::kCTRL_RUN));

  RunResult result;
  // Streaming: between polls, the new records go to the sink and TRACE_RPTR follows them.
  const bool streaming = opts.trace.enable && opts.trace.stream;
  TraceDrain stream;
  PollWork drain;
  if (streaming) {
    stream_rptr_ = 0;
    stream_drop_ = 0;
    stream.stream = true;
    stream.depth = info_.trace_depth();
    stream.via_window = info_.has_trace_window();
    drain = [&]() { return DrainStream(opts.trace.sink, &stream); };
  }
  // The timeout is card time: a run may take `timeout` of its own cycles (RUNNING, at the
  // card's clock). On a card that is the wall time it always was; a board model behind the
  // device files (otpu-xdma-emu) runs a thousand times slower than its clock, and its run goes
  // on as long as RUNNING still moves from one `timeout` of wall time to the next (a core that
  // halted while STATUS says RUNNING, or a stuck board, still times out).
  PollWork alive;
  if (before) {
    const uint32_t running_at =
        Off(Reg::kCOUNTERS) + 8 * uint32_t(isa::Counter::kRUNNING);
    const int64_t start = (*before)[size_t(isa::Counter::kRUNNING)];
    const double budget = double(opts.timeout.count()) * 1e3 * info_.clock_mhz();  // cycles
    alive = [this, running_at, start, budget, last = start]() mutable -> StatusOr<bool> {
      ASSIGN_OR_RETURN(int64_t running, Read64(running_at));
      const bool moved = running > last;
      last = running;
      return moved && double(running - start) < budget;
    };
  }
  StatusOr<uint32_t> status =
      Poll(Reg::kSTATUS, isa::kSTATUS_HALTED | isa::kSTATUS_ERROR | isa::kSTATUS_AXI_ERR,
           /*until_set=*/true, opts.timeout, PollWait::kHalt, "the run did not halt", drain,
           alive);
  if (!status.ok()) {
    if (status.status().code() == StatusCode::kDeadlineExceeded) {
      return DeadlineExceeded(status.status().message() + "; " + Stop());
    }
    if (streaming && StopSignal() == 0) Stop();  // the sink or a drain failed: end the run
    return status.status();
  }
  result.status = *status;
  if (opts.trace.enable) {
    StatusOr<uint32_t> idle = Poll(Reg::kTRACE_CTRL, isa::kTRACE_CTRL_BUSY, /*until_set=*/false,
                                   opts.timeout, PollWait::kTraceDrain, "the trace did not drain",
                                   drain);
    if (!idle.ok() && streaming && StopSignal() == 0) Stop();
    RETURN_IF_ERROR(idle.status());
    if (streaming) {
      // BUSY = 0: every record is in the ring; the last of them.
      StatusOr<bool> last = DrainStream(opts.trace.sink, &stream);
      if (!last.ok()) Stop();
      RETURN_IF_ERROR(last.status());
    }
  }
  RunCounters& c = result.counters;
  ASSIGN_OR_RETURN(c.cycles, Read64(Off(Reg::kCYCLES_LO)));
  ASSIGN_OR_RETURN(uint32_t icount, Read(Reg::kICOUNT));
  ASSIGN_OR_RETURN(uint32_t b_rd, Read(Reg::kB_RD));
  ASSIGN_OR_RETURN(uint32_t b_wr, Read(Reg::kB_WR));
  ASSIGN_OR_RETURN(uint32_t a_rd, Read(Reg::kA_RD));
  ASSIGN_OR_RETURN(uint32_t a_wr, Read(Reg::kA_WR));
  ASSIGN_OR_RETURN(uint32_t b_stall, Read(Reg::kB_STALL));
  c.icount = icount;
  c.b_rd = b_rd;
  c.b_wr = b_wr;
  c.a_rd = a_rd;
  c.a_wr = a_wr;
  c.b_stall = b_stall;
  if (before) {
    ASSIGN_OR_RETURN(auto after, ReadFreeRunning());
    std::array<int64_t, isa::kNumCounters> delta{};
    for (size_t i = 0; i < delta.size(); ++i) delta[i] = after[i] - (*before)[i];
    c.free_running = delta;
  }
  if (streaming) {
    ASSIGN_OR_RETURN(uint32_t count, Read(Reg::kTRACE_COUNT));
    ASSIGN_OR_RETURN(uint32_t drop, Read(Reg::kTRACE_DROP));
    stream.count = count;
    stream.drop = drop;
    result.trace = std::move(stream);
  } else if (opts.trace.enable) {
    ASSIGN_OR_RETURN(result.trace, ReadTrace(opts.trace.keep_last));
  }
  RETURN_IF_ERROR(Write(Reg::kCTRL, 0));
  if (result.trace && !streaming && opts.trace.sink) {
    // The same sink as streaming: the buffer's records, in order, then none kept here.
    RETURN_IF_ERROR(opts.trace.sink(result.trace->records.data(), result.trace->records.size()));
    result.trace->records.clear();
    result.trace->records.shrink_to_fit();
  }
  const uint32_t faults = result.status & (isa::kSTATUS_ERROR | isa::kSTATUS_AXI_ERR);
  if (faults) {
    const char* why = (faults & isa::kSTATUS_ERROR) ? "an illegal instruction (ERROR)"
                                                    : "a DRAM access failed (AXI_ERR)";
    return Internal(
        StrFormat("%s: the run stopped at cycle %lld after %lld instructions: %s; "
                  "STATUS %s (%s)",
                  where.c_str(), (long long)c.cycles, (long long)c.icount, why,
                  Hex(result.status).c_str(), StatusBitNames(result.status).c_str()));
  }
  return result;
}

}  // namespace otpu::host
