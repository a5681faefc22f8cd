// SimBoard: the SystemC board (board_top.h) behind BoardIface. The host is outside the
// SystemC kernel: each access is a blocking TLM transaction issued at the current simulated
// time (the core stands exactly there), and the time it took is then granted to the core and
// simulated with sc_start, so the board advances only as the host uses it. C++17 (SystemC).
#include "sim/board/sim_board.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <systemc>
#include <tlm>

#include "sim/board/board_top.h"
#include "sim/rtl/rtl_configs.h"
#include "workloads/isa/config.h"

// libsystemc's own main() calls sc_main. otpu programs have their own main() and drive the
// kernel through SimBoard, so this exists only to link the library and never runs.
extern "C" int sc_main(int, char**) {
  std::fprintf(stderr, "otpu: sc_main is not an entry point (SimBoard drives SystemC)\n");
  return 1;
}

namespace otpu::board {

namespace {

// The one SystemC kernel of the process has elaborated a board: no second one can be made.
bool g_board_created = false;

// TLM's data length is 32-bit: longer DMAs are split.
constexpr uint64_t kMaxDmaPiece = uint64_t{1} << 30;

std::string Hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%" PRIX64, v);
  return buf;
}

Status CheckMemory(const rtl::DramOptions& mem) {
  auto bad = [](const std::string& field, const std::string& want, const std::string& got) {
    return InvalidArgument("board model: SimBoardOptions.mem." + field + " must be " + want +
                           " (got " + got + ")");
  };
  if (mem.latency < 1) return bad("latency", ">= 1", std::to_string(mem.latency));
  if (mem.stall_percent < 0 || mem.stall_percent > 100) {
    return bad("stall_percent", "0..100", std::to_string(mem.stall_percent));
  }
  if (!(mem.beats_per_cycle > 0)) {
    return bad("beats_per_cycle", "> 0", std::to_string(mem.beats_per_cycle));
  }
  if (mem.queue_beats < 1) return bad("queue_beats", ">= 1", std::to_string(mem.queue_beats));
  return OkStatus();
}

Status CheckOptions(const SimBoardOptions& opts) {
  if (opts.quantum_cycles < 1) {
    return InvalidArgument("board model: SimBoardOptions.quantum_cycles must be >= 1 (got " +
                           std::to_string(opts.quantum_cycles) + ")");
  }
  const int64_t period_ns = kCorePeriodPs / 1000;
  if (opts.reg_access_ns < 0 || opts.reg_access_ns % period_ns != 0) {
    return InvalidArgument(
        "board model: SimBoardOptions.reg_access_ns must be a non-negative multiple of the " +
        std::to_string(period_ns) + " ns core period (got " +
        std::to_string(opts.reg_access_ns) + ")");
  }
  if (opts.dma_setup_ns < 0 || opts.dma_setup_ns % period_ns != 0) {
    return InvalidArgument(
        "board model: SimBoardOptions.dma_setup_ns must be a non-negative multiple of the " +
        std::to_string(period_ns) + " ns core period (got " + std::to_string(opts.dma_setup_ns) +
        ")");
  }
  const int64_t mb_per_cycle = kCoreKhz / 1000;  // MB/s that move one byte a core cycle
  if (opts.dma_mb_per_s < mb_per_cycle || opts.dma_mb_per_s % mb_per_cycle != 0) {
    return InvalidArgument(
        "board model: SimBoardOptions.dma_mb_per_s must be a positive multiple of " +
        std::to_string(mb_per_cycle) + " (whole bytes per core cycle; got " +
        std::to_string(opts.dma_mb_per_s) + ")");
  }
  if (opts.regmap != 1 && opts.regmap != 2) {
    return InvalidArgument("board model: SimBoardOptions.regmap must be 1 or 2 (got " +
                           std::to_string(opts.regmap) + ")");
  }
  return CheckMemory(opts.mem);
}

}  // namespace

class SimBoard::Impl {
 public:
  explicit Impl(const BoardTopParams& params) : params_(params), top_("otpu_board", params) {}

  BoardTop& top() { return top_; }
  const isa::Config& config() const { return params_.config; }
  const BoardTop& top() const { return top_; }

  // Grants the core the time an access took and simulates it: the core and SystemC time
  // both stand at the access's end.
  void Advance(const sc_core::sc_time& delay) {
    if (delay == sc_core::SC_ZERO_TIME) return;
    const sc_core::sc_time until = sc_core::sc_time_stamp() + delay;
    top_.core.GrantUntil(until);
    sc_core::sc_start(delay);
    OTPU_CHECK(sc_core::sc_time_stamp() == until);
    OTPU_CHECK(top_.core.time() == until);
  }

  Status Reg(tlm::tlm_command command, uint32_t offset, uint32_t* value) {
    sc_core::sc_time delay;
    const tlm::tlm_response_status rsp =
        HostPort::Transport(top_.host.reg, command, offset, value, 4, &delay);
    Advance(delay);
    const char* what = command == tlm::TLM_READ_COMMAND ? "read" : "write";
    if (rsp == tlm::TLM_ADDRESS_ERROR_RESPONSE) {
      return InvalidArgument("board model: register " + std::string(what) + " at offset " +
                             Hex(offset) + ": not a 4-aligned BAR0 offset below " +
                             Hex(kRegMapBytes));
    }
    if (rsp != tlm::TLM_OK_RESPONSE) {
      return Internal("board model: register " + std::string(what) + " at offset " +
                      Hex(offset) + " failed (TLM response " + std::to_string(int(rsp)) + ")");
    }
    return OkStatus();
  }

  Status Dma(tlm::tlm_command command, uint64_t card_addr, uint8_t* data, size_t len) {
    uint64_t done = 0;
    do {  // a zero-length DMA is one (empty) transaction: its address is still checked
      const uint64_t piece = std::min<uint64_t>(len - done, kMaxDmaPiece);
      sc_core::sc_time delay;
      const tlm::tlm_response_status rsp = HostPort::Transport(
          top_.host.dma, command, card_addr + done, data + done, piece, &delay);
      Advance(delay);
      if (rsp != tlm::TLM_OK_RESPONSE) return DmaError(command, card_addr, len, rsp);
      done += piece;
    } while (done < len);
    return OkStatus();
  }

 private:
  Status DmaError(tlm::tlm_command command, uint64_t addr, size_t len,
                  tlm::tlm_response_status rsp) const {
    const bool read = command == tlm::TLM_READ_COMMAND;
    const std::string what = "board model: DMA " + std::string(read ? "read" : "write") +
                             " of " + std::to_string(len) + " bytes at card address " +
                             Hex(addr);
    if (rsp == tlm::TLM_COMMAND_ERROR_RESPONSE) {
      return InvalidArgument(what + ": the trace window (from " + Hex(host::kTraceWindowBase) +
                             ") is read only");
    }
    if (rsp == tlm::TLM_ADDRESS_ERROR_RESPONSE) {
      std::string where = "DRAM [0, " + Hex(params_.config.DRAM_BYTES) + ")";
      if (params_.regmap >= 2) {
        const uint64_t window_end =
            host::kTraceWindowBase + uint64_t(BoardModel::TraceDepth()) * 8;
        where += " and the trace window [" + Hex(host::kTraceWindowBase) + ", " +
                 Hex(window_end) + ")";
      } else {
        where += " (a map-version-1 board has no trace window)";
      }
      return InvalidArgument(what + " is outside " + where);
    }
    return Internal(what + " failed (TLM response " + std::to_string(int(rsp)) + ")");
  }

  BoardTopParams params_;
  BoardTop top_;
};

rtl::DramOptions SimBoardOptions::DefaultMemory() {
  rtl::DramOptions mem;
  mem.axi = true;
  return mem;
}

StatusOr<std::unique_ptr<SimBoard>> SimBoard::Create(const SimBoardOptions& opts) {
  RETURN_IF_ERROR(CheckOptions(opts));
  StatusOr<std::string> name = rtl::SelectBuiltConfig(opts.config);
  if (!name.ok()) return name.status().WithContext("board model: SimBoardOptions.config");
  if (g_board_created) {
    return FailedPrecondition(
        "board model: a SimBoard was already created in this process; SystemC has "
        "one simulation kernel per process, so each board needs its own process");
  }
  g_board_created = true;
  // The kernel prints its banner on stdout, where our programs print JSON.
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", /*overwrite=*/0);
  tlm::tlm_global_quantum::instance().set(CyclesToTime(opts.quantum_cycles));

  BoardTopParams params;
  ASSIGN_OR_RETURN(params.config, rtl::BuiltConfigNamed(*name));
  params.mem = opts.mem;
  params.regmap = opts.regmap;
  params.reg_access = sc_core::sc_time(double(opts.reg_access_ns), sc_core::SC_NS);
  params.window_read.setup_cycles = opts.dma_setup_ns / (kCorePeriodPs / 1000);
  params.window_read.bytes_per_cycle = opts.dma_mb_per_s / (kCoreKhz / 1000);
  auto impl = std::make_unique<Impl>(params);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate: bind the sockets, start the core
  return std::unique_ptr<SimBoard>(new SimBoard(std::move(impl)));
}

SimBoard::SimBoard(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

// The modules go with the board; the kernel stays elaborated, so no board can follow.
SimBoard::~SimBoard() = default;

StatusOr<uint32_t> SimBoard::ReadReg(uint32_t offset) {
  uint32_t value = 0;
  RETURN_IF_ERROR(impl_->Reg(tlm::TLM_READ_COMMAND, offset, &value));
  return value;
}

Status SimBoard::WriteReg(uint32_t offset, uint32_t value) {
  return impl_->Reg(tlm::TLM_WRITE_COMMAND, offset, &value);
}

Status SimBoard::WriteDma(uint64_t card_addr, const void* data, size_t len) {
  // TLM carries a mutable pointer for both directions; a write only reads it.
  return impl_->Dma(tlm::TLM_WRITE_COMMAND, card_addr,
                    static_cast<uint8_t*>(const_cast<void*>(data)), len);
}

Status SimBoard::ReadDma(uint64_t card_addr, void* data, size_t len) {
  return impl_->Dma(tlm::TLM_READ_COMMAND, card_addr, static_cast<uint8_t*>(data), len);
}

void SimBoard::RunFor(std::chrono::nanoseconds t) {
  const int64_t cycles = int64_t(t.count()) * 1000 / kCorePeriodPs;
  if (cycles > 0) impl_->Advance(CyclesToTime(cycles));
}

void SimBoard::AddHook(rtl::ClockHook* hook) { impl_->top().core.board().AddHook(hook); }

void SimBoard::SetMemory(const rtl::DramOptions& mem) {
  const Status valid = CheckMemory(mem);
  if (!valid.ok()) std::fprintf(stderr, "%s\n", valid.message().c_str());
  OTPU_CHECK(valid.ok());
  impl_->top().SetMemory(mem);
}

const isa::Config& SimBoard::config() const { return impl_->config(); }

int64_t SimBoard::cycles() const { return impl_->top().core.cycles(); }

double SimBoard::sim_seconds() const { return sc_core::sc_time_stamp().to_seconds(); }

}  // namespace otpu::board
