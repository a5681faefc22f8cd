// BoardModel on one Verilated otpu_board class: the same code for every RTL configuration,
// instantiated once per configuration by the generated board_models.cc (the only place that
// includes the Votpu_board_<config>.h headers; sim/board/CMakeLists.txt).
#ifndef OTPU_SIM_BOARD_VERILATED_BOARD_MODEL_H_
#define OTPU_SIM_BOARD_VERILATED_BOARD_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <memory>
#include <vector>

#include "sim/board/board_model.h"
#include "sim/rtl/assert_switch.h"
#include "sim/rtl/assertions.h"
#include "sim/rtl/verilated_ports.h"
#include "verilated.h"
#include "base/status.h"

// OTPU_BOARD_INSTRUMENTED (set by sim/board/CMakeLists.txt with -DOTPU_RTL_INSTRUMENT=ON): the
// Verilated boards have --trace-fst; the model writes waves for the window
// BoardModel::RequestWaves asked for. OTPU_BOARD_COVERAGE (and OTPU_RTL_INSTRUMENT_COVERAGE,
// the default): --coverage too, and the model writes its counts on request.
#ifndef OTPU_BOARD_INSTRUMENTED
#define OTPU_BOARD_INSTRUMENTED 0
#endif
#ifndef OTPU_BOARD_COVERAGE
#define OTPU_BOARD_COVERAGE 0
#endif
#if OTPU_BOARD_INSTRUMENTED
#include <algorithm>
#include <set>

#include "verilated_fst_c.h"
#endif
#if OTPU_BOARD_COVERAGE
#include "verilated_cov.h"
#endif

namespace otpu::board {

// The contexts of the live instrumented models (one SimBoard per process: at most a few).
inline std::set<VerilatedContext*>& LiveContexts() {
  static std::set<VerilatedContext*>* s = new std::set<VerilatedContext*>;
  return *s;
}

// Writes the coverage of the live models' contexts to `path` (the first live one: the
// regression has one board per process).
inline Status WriteLiveCoverage(const std::string& path) {
#if OTPU_BOARD_COVERAGE
  if (LiveContexts().empty()) {
    return NotFound("no instrumented board model in this process (OTPU_RTL_INSTRUMENT_CONFIGS)");
  }
  (*LiveContexts().begin())->coveragep()->write(path.c_str());
  return OkStatus();
#else
  (void)path;
  return FailedPrecondition("this build's board models count no coverage");
#endif
}

// A context for a model about to be made: waves need traceEverOn before the model exists.
inline std::unique_ptr<VerilatedContext> MakeContext(bool instrumented) {
  auto c = std::make_unique<VerilatedContext>();
  c->assertOn(rtl::AssertionsEvaluated());
#if OTPU_BOARD_INSTRUMENTED
  if (instrumented && !BoardModel::Waves().path.empty()) c->traceEverOn(true);
#else
  (void)instrumented;
#endif
  return c;
}

// kInstrumented: Top was verilated with --trace-fst and --coverage (OTPU_RTL_INSTRUMENT, for the
// configurations in OTPU_RTL_INSTRUMENT_CONFIGS).
template <typename Top, bool kInstrumented = false>
class VerilatedBoardModel final : public BoardModel {
 public:
  VerilatedBoardModel(const isa::Config& cfg, rtl::DramModel* dram, int regmap)
      : BoardModel(cfg),
        dram_(dram),
        context_(MakeContext(kInstrumented)),
        // Verilator registers the model's scopes in the thread's current context.
        top_((Verilated::threadContextp(context_.get()),
              std::make_unique<Top>(context_.get(), "otpu_board"))) {
#if OTPU_BOARD_INSTRUMENTED
    if constexpr (kInstrumented) {
      LiveContexts().insert(context_.get());
      waves_ = BoardModel::Waves();
    }
#endif
    OTPU_CHECK(regmap == 1 || regmap == 2);
    // The RTL's test plusargs (the assertion self-test, rtl/board/otpu_board.sv), read by its
    // initial blocks at the first evaluation below, through this thread's context. Set even
    // when empty: Verilator refuses $value$plusargs before any commandArgs.
    std::vector<std::string> words = {"otpu_board"};
    if (const char* plusargs = std::getenv("OTPU_RTL_PLUSARGS")) {
      std::istringstream in(plusargs);
      for (std::string w; in >> w;) words.push_back(w);
    }
    std::vector<const char*> argv;
    for (const std::string& w : words) argv.push_back(w.c_str());
    context_->commandArgs(int(argv.size()), argv.data());
    Verilated::threadContextp(context_.get());
    top_->regmap_v1_i = regmap == 1;
    top_->clk_i = 0;
    top_->reg_valid_i = 0;
    top_->reg_we_i = 0;
    top_->axi_err_i = 0;
    top_->trace_win_beat_i = 0;
    top_->trace_win_rd_i = 0;
    rtl::ports::DriveIdle(top_.get());
    // Reset for two cycles with the memory idle; the model's clock starts after it.
    top_->rst_ni = 0;
    top_->core_rst_ni = 0;
    for (int i = 0; i < 2; ++i) {
      top_->clk_i = 0;
      top_->eval();
      top_->clk_i = 1;
      top_->eval();
    }
    top_->rst_ni = 1;
    top_->core_rst_ni = 1;  // core_rst_no: rst_ni, no abort after the reset
    const uint32_t version = ReadVersion();
    // The -G parameters of the build and isa::Config describe the same configuration.
    OTPU_CHECK(version == cfg.Version());
    chunk_bytes_ = int(version >> 16);
  }
  // Verilator erases a model's scopes (which --assert's %m needs) through the thread's current
  // context, not the model's: make it this model's while the model goes, and forget it after,
  // so that no model erases through a context already destroyed.
  ~VerilatedBoardModel() override {
#if OTPU_BOARD_INSTRUMENTED
    CloseWaves();
    LiveContexts().erase(context_.get());
#endif
    top_->final();
    Verilated::threadContextp(context_.get());
    top_.reset();
    context_.reset();
    Verilated::threadContextp(nullptr);
  }

  void set_dram(rtl::DramModel* dram) override { dram_ = dram; }

  // The idle cycles between register accesses: most of a run's cycles. One capture for the
  // whole stretch, the bus inputs set once, and the cycle's code inlined with them constant.
  void Cycles(int64_t n) override {
    if (n <= 0) return;
    const rtl::AssertionCapture capture(&assertions_, &assert_cycle_);
    top_->reg_valid_i = 0;
    top_->reg_we_i = 0;
    for (int64_t i = 0; i < n; ++i) Cycle<false>(false, 0, 0, nullptr);
  }

  uint32_t ReadReg(uint32_t offset) override {
    OTPU_CHECK(offset % 4 == 0 && offset < 0x1000);
    uint32_t data = 0;
    const rtl::AssertionCapture capture(&assertions_, &assert_cycle_);
    Cycle<true>(false, offset, 0, &data);
    return data;
  }

  void WriteReg(uint32_t offset, uint32_t value) override {
    OTPU_CHECK(offset % 4 == 0 && offset < 0x1000);
    const rtl::AssertionCapture capture(&assertions_, &assert_cycle_);
    Cycle<true>(true, offset, value, nullptr);
  }

  void ReadTraceWindow(uint64_t first, size_t n, uint64_t* out) override {
    const uint64_t depth = uint64_t(TraceDepth());
    const uint64_t beats = depth / 8;
    uint64_t beat = first % depth / 8;
    int skip = int(first % 8);
    size_t i = 0;
    while (i < n) {
      top_->trace_win_beat_i = uint32_t(beat);
      top_->trace_win_rd_i = 1;  // the board reads the beat and checks its records
      Cycles(1);                 // the beat is on trace_win_data_o after the edge
      for (int k = skip; k < 8 && i < n; ++k) {
        out[i++] = uint64_t(rtl::ports::Word(top_->trace_win_data_o, 2 * k)) |
                   uint64_t(rtl::ports::Word(top_->trace_win_data_o, 2 * k + 1)) << 32;
      }
      skip = 0;
      beat = (beat + 1) % beats;
    }
    top_->trace_win_rd_i = 0;
  }

  int64_t cycle() const override { return cycle_; }
  void AddHook(rtl::ClockHook* hook) override { hooks_.push_back(hook); }
  const std::vector<rtl::AssertionFailure>& assertions() const override { return assertions_; }

 private:
  // VERSION through the bus, in a cycle of its own (construction: before the clock starts).
  uint32_t ReadVersion() {
    top_->reg_valid_i = 1;
    top_->reg_we_i = 0;
    top_->reg_addr_i = 0x004;
    rtl::ports::DriveIdle(top_.get());
    top_->clk_i = 0;
    top_->eval();
    top_->clk_i = 1;
    top_->eval();
    LoopBackCoreReset();
    top_->reg_valid_i = 0;
    return top_->reg_rdata_o;
  }

  // The board's core reset (core_rst_no, rst_ni held low during an abort) back into the core
  // (core_rst_ni), after the edge that moved it: the second evaluation runs the core's
  // asynchronous reset at the same edge, as a reset derived inside the model would, and only
  // at an abort's first and last edge. Nothing outside reads the model in between.
  [[gnu::always_inline]] inline void LoopBackCoreReset() {
    if (top_->core_rst_no != top_->core_rst_ni) [[unlikely]] {
      top_->core_rst_ni = top_->core_rst_no;
      top_->eval();
    }
  }

  // One clock cycle: the DRAM model serves the ports, a register request (kReg) is presented
  // (then set idle again), the event tap runs, the clock rises; *rdata (if given) gets the
  // read's answer. The caller holds an AssertionCapture on assertions_ and assert_cycle_; an
  // idle cycle (!kReg) expects reg_valid_i low.
  template <bool kReg>
  [[gnu::always_inline]] inline void Cycle(bool reg_we, uint32_t offset, uint32_t wdata,
                                           uint32_t* rdata) {
    // An assertion failing in this cycle's evaluations is stamped with its run cycle.
    assert_cycle_ = top_->running_o ? (in_run_ ? run_cycle_ : 0) : -1;
    if constexpr (kReg) {
      top_->reg_valid_i = 1;
      top_->reg_we_i = reg_we;
      top_->reg_addr_i = uint16_t(offset);
      top_->reg_wdata_i = wdata;
    }
    top_->axi_err_i = axi_err_pending_;

    dram_->Offer(cycle_, &offer_);
    rtl::ports::DriveOffer(offer_, chunk_bytes_, top_.get());
    top_->clk_i = 0;
    top_->eval();
    rtl::ports::ReadRequests(*top_, offer_, chunk_bytes_, &req_);
    dram_->Accept(cycle_, offer_, req_);

    // The event tap: the run's cycles are those the core runs (cycle 0 .. the halt's).
    bool run_ends = false;
    [[maybe_unused]] int64_t this_run_cycle = -1;
    if (top_->running_o) {
      if (!in_run_) {
        in_run_ = true;
        run_cycle_ = 0;
        ++run_index_;
        for (rtl::ClockHook* h : hooks_) h->OnRunStart();
      }
      this_run_cycle = run_cycle_;
#if OTPU_BOARD_INSTRUMENTED
      if constexpr (kInstrumented) Waves(run_cycle_, 0);
#endif
      if (!hooks_.empty()) {
        events_.cycle = run_cycle_;
        rtl::ports::ReadEvents(*top_, &events_);
        for (rtl::ClockHook* h : hooks_) h->OnClock(events_);
      }
      ++run_cycle_;
      run_ends = top_->ev_halt_o;
    }

    top_->clk_i = 1;
    top_->eval();
    LoopBackCoreReset();
#if OTPU_BOARD_INSTRUMENTED
    if constexpr (kInstrumented) {
      if (this_run_cycle >= 0) Waves(this_run_cycle, 5);
      if (run_ends && fst_) CloseWaves();  // the window's run is over: the file is complete
    }
#endif
    ++cycle_;
    if (run_ends) {
      in_run_ = false;
      if (top_->error_cause_o != 0) {  // ERR_NONE = 0
        for (rtl::ClockHook* h : hooks_) h->OnRunError(top_->error_pc_o, int(top_->error_cause_o));
      }
      for (rtl::ClockHook* h : hooks_) h->OnRunEnd();
    }

    // The DRAM model keeps its first access error; the board hears of it once per model.
    axi_err_pending_ = !dram_->status().ok() && err_reported_for_ != dram_;
    if (axi_err_pending_) err_reported_for_ = dram_;

    if (!assertions_.empty() && assertions_.size() > reported_) [[unlikely]] ReportAssertions();

    if constexpr (kReg) {
      top_->reg_valid_i = 0;
      top_->reg_we_i = 0;
      if (rdata != nullptr) {
        OTPU_CHECK(top_->reg_rvalid_o);
        *rdata = top_->reg_rdata_o;
      }
    }
  }

#if OTPU_BOARD_INSTRUMENTED
  // Dumps this evaluation into the waves when run cycle run_cycle_ of the requested run lies
  // in the window: 10 ns a cycle (the core's 100 MHz), the clock low at +0 and high at +5.
  // The dump opens at the window's first cycle, so only the window costs tracing time.
  void Waves(int64_t run_cycle, int at_ns) {
    static_assert(kInstrumented);
    if (waves_.path.empty() || waves_done_ || run_index_ != waves_.run) return;
    if (run_cycle < waves_.first) return;
    if (run_cycle > waves_.last) {
      CloseWaves();
      return;
    }
    if (!fst_) {
      fst_ = std::make_unique<VerilatedFstC>();
      fst_->set_time_unit("1ns");
      fst_->set_time_resolution("1ns");
      if constexpr (kInstrumented) top_->trace(fst_.get(), 99);
      fst_->open(waves_.path.c_str());
    }
    fst_->dump(uint64_t(run_cycle) * 10 + uint64_t(at_ns));
  }
  void CloseWaves() {
    if (fst_) fst_->close();
    fst_.reset();
    waves_done_ = !waves_.path.empty();
  }
  BoardModel::WavesRequest waves_;
  std::unique_ptr<VerilatedFstC> fst_;
  bool waves_done_ = false;
#endif
  int run_index_ = -1;              // runs seen (RUN rising), 0-based
  // New failures: one line each on stderr (how the card's emulator passes them on,
  // rtl::ParseAssertionLine), and to the hooks.
  void ReportAssertions() {
    for (; reported_ < assertions_.size(); ++reported_) {
      const rtl::AssertionFailure& f = assertions_[reported_];
      std::fprintf(stderr, "%s\n", rtl::AssertionLine(f).c_str());
      for (rtl::ClockHook* h : hooks_) h->OnAssertion(f);
    }
    std::fflush(stderr);
  }

  rtl::DramModel* dram_;
  std::vector<rtl::AssertionFailure> assertions_;
  size_t reported_ = 0;       // assertions_ passed on so far
  int64_t assert_cycle_ = -1;  // the run cycle being evaluated, -1 outside a run
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Top> top_;
  std::vector<rtl::ClockHook*> hooks_;
  int64_t cycle_ = 0;
  int chunk_bytes_ = 0;             // D, from VERSION
  bool in_run_ = false;             // the tap is inside a run
  int64_t run_cycle_ = 0;           // the run's next cycle number
  rtl::CoreCycle events_;
  rtl::MemOffer offer_;
  rtl::MemRequests req_;
  bool axi_err_pending_ = false;    // drive axi_err_i next cycle
  const rtl::DramModel* err_reported_for_ = nullptr;  // whose access error was reported
};

}  // namespace otpu::board

#endif  // OTPU_SIM_BOARD_VERILATED_BOARD_MODEL_H_
