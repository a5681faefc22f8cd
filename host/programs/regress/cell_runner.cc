#include "host/programs/regress/cell_runner.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <utility>

#include "base/strings.h"
#include "host/bit_flip_board.h"
#include "host/programs/board_factory.h"
#include "host/programs/regress/cell_profiles.h"
#include "host/programs/regress/baseline.h"
#include "host/programs/regress/dependency.h"
#include "host/programs/regress/emulator_args.h"
#include "host/programs/regress/func_coverage.h"
#include "host/programs/regress/verdicts.h"
#include "host/programs/regress/whole_state.h"
#include "host/xdma_emu/emulator_process.h"
#include "lens/board_record.h"
#include "lens/build_hw_profile.h"
#include "lens/file_io.h"
#include "lens/profile_compare.h"
#include "sim/board/board_model.h"
#include "sim/isa/checks.h"
#include "sim/isa/isa_sim.h"
#include "host/card.h"
#include "lens/recorder.h"
#include "lens/board_step_runner.h"
#include "lens/rtl_step_runner.h"
#include "sim/rtl/event_collector.h"
#include "workloads/captured_check.h"
#include "workloads/traced_steps.h"

namespace otpu::regress {
namespace {

// What one recording on a board gave a cell: the traced step's hw profile and, when the
// core's event tap was on, the rtl profile of the same run.
struct CellRecording {
  lens::Profile hw;
  std::optional<lens::Profile> rtl;
  SparseMemory dram{1};  // the outputs as the board left them
  workloads::CheckReport check;
  int bucket_cycles = 0;  // the core's counter window
};

// A cell records on a board with a trace buffer, and reports a failed reference check as the
// correctness verdict rather than stopping.
lens::BoardRecordOptions RecordOptionsFor(const Matrix& m, const std::string& mem_name) {
  lens::BoardRecordOptions o;
  o.runner.mem = mem_name;
  o.runner.timeout = std::chrono::milliseconds(int64_t(m.timeout_s * 1000));
  o.need_trace = true;
  o.capture_check = true;
  return o;
}

// Records `run` on `board`; with `collector` (the board model's event tap), also the rtl
// profile of the same run.
StatusOr<CellRecording> RecordOn(host::BoardIface& board, const workloads::WorkloadRun& run,
                                 const lens::BoardRecordOptions& options,
                                 const rtl::EventCollector* collector) {
  ASSIGN_OR_RETURN(lens::BoardRecording rec, lens::RecordOnBoard(board, run, options));
  if (rec.profiles.size() != 1) return Internal("expected one traced step");
  CellRecording out;
  out.hw = std::move(rec.profiles[0]);
  out.dram = std::move(rec.dram);
  out.check = rec.check;
  out.bucket_cycles = rec.bucket_cycles;
  if (collector) {
    RETURN_IF_ERROR(collector->status());
    if (!collector->halted()) return Internal("the core's event tap saw no halt");
    const lens::decode::TraceRun want = lens::ToTraceRun(collector->events(), collector->windows(),
                                                         collector->ports(), collector->halted());
    ASSIGN_OR_RETURN(lens::Profile rtl,
                     lens::BuildRtlProfile(out.hw.name, rec.info.config, run.program, want,
                                           rec.bucket_cycles, options.runner.mem));
    out.rtl = std::move(rtl);
  }
  return out;
}

// JUnit's testsuite timestamp: ISO 8601 without a zone (the form Ant's JUnit schema takes),
// in UTC so cells of one run on hosts in other zones sort together (docs/regress.md).
std::string IsoUtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

std::string HostName() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

// Hands every cycle to several hooks (the board takes one): the event tap and coverage.
class FanOutHook : public rtl::ClockHook {
 public:
  explicit FanOutHook(std::vector<rtl::ClockHook*> hooks) : hooks_(hooks), all_(std::move(hooks)) {}
  void OnRunStart() override {
    for (rtl::ClockHook* h : hooks_) h->OnRunStart();
  }
  void OnClock(const rtl::CoreCycle& c) override {
    for (rtl::ClockHook* h : hooks_) h->OnClock(c);
  }
  void OnRunEnd() override {
    for (rtl::ClockHook* h : hooks_) h->OnRunEnd();
  }
  // A failed assertion counts whenever it fires, the state dump's run included: every hook.
  void OnAssertion(const rtl::AssertionFailure& f) override {
    for (rtl::ClockHook* h : all_) h->OnAssertion(f);
  }
  // Stops handing cycles to hooks [keep, end): the state dump is not the workload's run.
  void Keep(size_t keep) { hooks_.resize(std::min(keep, hooks_.size())); }

 private:
  std::vector<rtl::ClockHook*> hooks_;
  const std::vector<rtl::ClockHook*> all_;
};

// The functional-coverage bins of what the ISA simulator ran, step by step.
void AddIsaCoverage(const workloads::WorkloadRun& run, const WriteLog& log,
                    FunctionalCoverage* cov) {
  cov->AddProgram(run.program);
  std::vector<isa::Instr> step;
  int at = -1;
  for (const WriteLog::Entry& e : log.entries()) {
    if (e.step != at) {
      cov->AddRun(step);
      step.clear();
      at = e.step;
    }
    step.push_back(e.resolved);
  }
  cov->AddRun(step);
}

double SecondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The earliest time at which rows `a` and `b` differ (-1: they do not, in time).
int64_t FirstDifferingTime(const lens::InstrRow& a, const lens::InstrRow& b) {
  int64_t t = -1;
  for (const auto& [name, field] : lens::kInstrTimes) {
    if (a.*field == b.*field) continue;
    for (int64_t v : {a.*field, b.*field}) {
      if (v >= 0 && (t < 0 || v < t)) t = v;
    }
  }
  if (t < 0 && !lens::SameTimesAndCounters(a, b)) t = std::max(a.end, b.end);  // counters
  return t;
}

// The first instruction at which two profiles of one run differ, as a cycle (-1: none); with
// `buckets`, then the first counter window (a baseline holds only their totals: without).
int64_t FirstDifference(const lens::Profile& a, const lens::Profile& b, bool buckets) {
  const size_t n = std::min(a.instrs.size(), b.instrs.size());
  for (size_t i = 0; i < n; ++i) {
    if (int64_t t = FirstDifferingTime(a.instrs[i], b.instrs[i]); t >= 0) return t;
  }
  if (a.instrs.size() != b.instrs.size()) {
    const lens::InstrRow& extra = a.instrs.size() > n ? a.instrs[n] : b.instrs[n];
    return std::max<int64_t>(0, extra.dispatch);
  }
  // Every instruction agrees: the first counter window that differs (its first cycle).
  for (size_t s = 0; buckets && s < a.slices.size() && s < b.slices.size(); ++s) {
    const lens::Buckets &x = a.slices[s].buckets, &y = b.slices[s].buckets;
    const size_t windows = std::min(x.size(), y.size());
    for (size_t w = 0; w < windows; ++w) {
      for (const auto& [name, member] : lens::Buckets::Columns()) {
        if ((x.*member)[w] == (y.*member)[w]) continue;
        const int64_t len = w < x.n.size() ? x.n[w] : 0;
        return std::max<int64_t>(0, x.c[w] - len + 1);
      }
    }
    if (x.size() != y.size() && windows > 0) return x.c[windows - 1];
  }
  return a.cycles != b.cycles ? std::min(a.cycles, b.cycles) : -1;
}

// --code-coverage: the board model's line and toggle counts of this cell, while it lives.
void WriteCodeCoverage(const CellOptions& opts, const std::string& cell_file, CellResult* r) {
  if (!opts.code_coverage) return;
  std::error_code ec;
  std::filesystem::create_directories(opts.out_dir + "/code-coverage", ec);
  const std::string path = opts.out_dir + "/code-coverage/" + cell_file + ".dat";
  // NotFound: this configuration's board is not instrumented (OTPU_RTL_INSTRUMENT_CONFIGS);
  // the cell adds no counts.
  if (Status s = board::BoardModel::WriteCodeCoverage(path);
      !s.ok() && s.code() != StatusCode::kNotFound) {
    r->verdicts[0] = {"correctness", Outcome::kError, "code coverage: " + s.message(), "", r->verdicts[0].time_s};
  }
}

// What a random-illegal cell's board run reports: the core's error and the failed assertions.
class ErrorTap : public rtl::ClockHook {
 public:
  void OnClock(const rtl::CoreCycle& c) override { cycles = c.cycle + 1; }
  void OnRunError(uint32_t pc, int cause) override {
    errored = true;
    pc_ = pc;
    cause_ = cause;
  }
  void OnAssertion(const rtl::AssertionFailure& f) override { assertions.push_back(f); }
  bool errored = false;
  int64_t cycles = 0;  // of the run, to its last cycle
  uint32_t pc_ = 0;
  int cause_ = 0;
  std::vector<rtl::AssertionFailure> assertions;
};

// A random-illegal cell (docs/regress.md "Illegal programs"): the ISA simulator and the board
// model run the program, which ends in an illegal instruction; correctness wants the board to
// stop with ERROR at the simulator's pc for the simulator's cause, with the same outputs (the
// effects of the instructions before it remain). Parity, dependency and performance judge
// whole runs that halt: skipped. `fail_early` makes an infrastructure error of the cell.
CellResult JudgeIllegal(const Matrix& m, const Cell& cell, const CellOptions& opts,
                        const isa::Config& cfg, const workloads::WorkloadRun& run, CellResult r,
                        const std::function<CellResult(const std::string&)>& fail_early) {
  SparseMemory isa_dram = run.image;
  sim::IsaSim isa(cfg, &isa_dram);
  if (Status s = isa.LoadProgram(run.program); !s.ok()) return fail_early("ISA simulator: " + s.message());
  sim::IsaRunOptions io;
  io.args = run.steps.back().args;
  io.record_events = false;
  const StatusOr<trace::RunEvents> want = isa.Run(io);
  const std::string what = run.check(isa_dram).detail;
  if (want.ok()) return fail_early(what + ": the ISA simulator halted, no illegal instruction");
  const std::string& isa_msg = want.status().message();
  const int want_cause = sim::ErrorCauseOf(isa_msg);
  unsigned long want_pc = 0;
  if (want_cause == 0 || std::sscanf(isa_msg.c_str(), "pc %lu", &want_pc) != 1) {
    return fail_early("ISA simulator: an error the regression does not know: " + isa_msg);
  }

  ErrorTap tap;
  host::BoardChoice choice;
  choice.sim = true;
  choice.config = cell.config;
  choice.mem = m.DramOf(cell);
  choice.hook = &tap;
  StatusOr<std::unique_ptr<host::BoardIface>> board = host::MakeBoard(choice);
  if (!board.ok()) return fail_early("board model: " + board.status().message());
  StatusOr<std::unique_ptr<host::Card>> card = host::Card::Probe(board->get(), cfg);
  if (!card.ok()) return fail_early("board model: " + card.status().message());
  const lens::BoardRecordOptions rec_opts = RecordOptionsFor(m, choice.mem->Name());
  lens::BoardStepRunner loader(card->get(), rec_opts.runner);
  if (Status s = loader.Load(run); !s.ok()) return fail_early("board model: " + s.message());
  host::RunOptions ro;
  ro.args = run.steps.back().args;
  ro.timeout = rec_opts.runner.timeout;
  const StatusOr<host::RunResult> got = (*card)->Run(ro);

  char isa_text[160];
  std::snprintf(isa_text, sizeof isa_text, "pc %lu, cause %d (%s)", want_pc, want_cause,
                sim::ErrorCauseName(want_cause));
  std::string problem;
  if (got.ok()) {
    problem = "the board halted without ERROR; the ISA simulator stopped at " + std::string(isa_text);
  } else if (got.status().message().find("(ERROR)") == std::string::npos || !tap.errored) {
    problem = "the board did not stop with ERROR (" + got.status().message() +
              "); the ISA simulator stopped at " + isa_text;
  } else if (tap.pc_ != want_pc || tap.cause_ != want_cause) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "pc %u, cause %d (%s)", tap.pc_, tap.cause_,
                  sim::ErrorCauseName(tap.cause_));
    problem = "the board stopped with ERROR at " + std::string(buf) + ", the ISA simulator at " + isa_text;
  } else {
    // The effects of the instructions before the illegal one: the program's DRAM region.
    for (const workloads::DramRange& range : run.outputs) {
      std::vector<uint8_t> bytes(range.bytes);
      if (Status s = (*card)->ReadDram(range.addr, bytes.data(), bytes.size()); !s.ok()) {
        return fail_early("board model: " + s.message());
      }
      for (uint64_t i = 0; i < range.bytes && problem.empty(); ++i) {
        const uint8_t w = isa_dram.Read8(range.addr + i);
        if (bytes[i] != w) {
          problem = StrFormat("DRAM differs at 0x%llx after the error: board 0x%02x, ISA 0x%02x",
                              (unsigned long long)(range.addr + i), bytes[i], w);
        }
      }
    }
  }
  const std::string detail = what + "\nISA simulator: " + isa_msg;
  r.verdicts.clear();
  if (problem.empty()) {
    r.verdicts.push_back({"correctness", Outcome::kPass,
                          "stopped with ERROR at " + std::string(isa_text) + " as the ISA simulator did", detail});
  } else {
    r.verdicts.push_back({"correctness", Outcome::kFail, problem, detail});
  }
  const std::string skip = "not judged: an illegal program's run ends in ERROR (correctness judges it)";
  r.verdicts.push_back({"parity", Outcome::kSkip, skip, ""});
  r.verdicts.push_back({"dependency", Outcome::kSkip, skip, ""});
  r.verdicts.push_back(Assertions(tap.assertions, {}, false));
  r.verdicts.push_back({"performance", Outcome::kSkip, skip, ""});
  r.cycles = got.ok() ? got->counters.cycles : tap.cycles;
  WriteCodeCoverage(opts, cell.FileName(), &r);  // while the board model lives
  return r;
}

}  // namespace

int64_t DivergenceCycle(const std::vector<Verdict>& verdicts, const lens::Profile& rtl,
                        const lens::Profile* hw, const lens::Profile* baseline, int last_step) {
  int64_t best = -1;
  auto take = [&](int64_t t) {
    if (t >= 0 && (best < 0 || t < best)) best = t;
  };
  for (const Verdict& v : verdicts) {
    if (v.outcome != Outcome::kFail) continue;
    if (v.name == "parity" && hw) take(FirstDifference(rtl, *hw, true));
    if (v.name == "performance" && baseline) take(FirstDifference(*baseline, rtl, false));
    if (v.name == "correctness") {
      int step = -1;
      long long idx = -1;
      const size_t at = v.message.find("last written by step ");
      if (at != std::string::npos &&
          std::sscanf(v.message.c_str() + at, "last written by step %d unit instruction #%lld",
                      &step, &idx) == 2 &&
          step == last_step && idx >= 0 && size_t(idx) < rtl.instrs.size()) {
        take(rtl.instrs[size_t(idx)].end);
      } else {
        take(std::max<int64_t>(0, rtl.cycles - 1));
      }
    }
  }
  return best;
}

CellResult RunCell(const Matrix& m, const Cell& cell, const CellOptions& opts) {
  const auto t0 = std::chrono::steady_clock::now();
  CellResult r;
  r.started = IsoUtcNow();
  r.hostname = HostName();
  r.id = cell.id;
  r.index = cell.index;
  r.matrix = m.path;
  r.workload = cell.workload;
  r.config = cell.config;
  r.memory = cell.memory.Name();
  r.transport = cell.transport;
  r.seed = cell.seed;
  r.key = opts.key;
  r.run = opts.run_id;
  r.command = opts.command;
  auto finish = [&](CellResult& res) -> CellResult {
    res.wall_s = SecondsSince(t0);
    return res;
  };
  // A cell that stops early spent its time on the shared recording, which counts for
  // correctness (the verdict times' rule, docs/regress.md); the others did no work.
  auto all_error = [&](const std::string& why) {
    r.verdicts.clear();
    for (const char* name : kVerdictNames) r.verdicts.push_back({name, Outcome::kError, why, ""});
    r.verdicts[0].time_s = SecondsSince(t0);
    return finish(r);
  };

  StatusOr<isa::Config> cfg = ConfigNamed(cell.config);
  if (!cfg.ok()) return all_error(cfg.status().message());
  workloads::TraceRequest req;
  req.pos = cell.pos;
  req.tokens = 1;
  req.wf = cell.wf;
  req.seed = cell.program_seed;
  StatusOr<workloads::WorkloadRun> run = workloads::MakeTracedWorkload(cell.workload, *cfg, req);
  if (!run.ok()) return all_error("workload " + cell.workload + ": " + run.status().message());
  if (cell.workload == "random-illegal") {
    const auto t_judge = std::chrono::steady_clock::now();
    r = JudgeIllegal(m, cell, opts, *cfg, *run, r, all_error);
    if (!r.verdicts.empty() && r.verdicts[0].time_s == 0) r.verdicts[0].time_s = SecondsSince(t_judge);
    return finish(r);
  }

  // The golden model: the same steps on the ISA simulator.
  workloads::CheckReport isa_check;
  lens::IsaStepRunner isa;
  WriteLog isa_log(&isa);
  StatusOr<lens::Recording> isa_rec =
      lens::Record(workloads::WithCapturedCheck(*run, &isa_check), isa_log);
  if (!isa_rec.ok()) return all_error("ISA simulator: " + isa_rec.status().message());
  // Whole state: what the ISA simulator wrote, and the dump epilogue run after the last step.
  const workloads::StateDump dump = workloads::MakeStateDump(*cfg);
  const std::vector<workloads::DramRange> written = isa_log.DramWrites(*cfg);
  if (Status s = DumpOnIsa(isa, dump); !s.ok()) return all_error(s.message());
  StatusOr<SparseMemory> board_state = Internal("no state dump ran");
  std::vector<rtl::AssertionFailure> card_assertions;

  // The board model in this process, with the core's event tap: the rtl profile (and, for a
  // sim cell, everything else).
  rtl::EventCollector collector(*cfg);
  FunctionalCoverage coverage(*cfg);
  CoverageHook coverage_hook(*cfg, &coverage);
  FanOutHook hooks({&collector, &coverage_hook});
  host::BoardChoice choice;
  choice.sim = true;
  choice.config = cell.config;
  choice.mem = m.DramOf(cell);
  choice.hook = &hooks;
  const std::string cell_file = cell.FileName();
  if (opts.waves_run >= 0) {
    std::error_code ec;
    std::filesystem::create_directories(opts.out_dir + "/waves", ec);
    board::BoardModel::WavesRequest w;
    w.path = opts.out_dir + "/waves/" + cell_file + ".fst";
    w.run = opts.waves_run;
    w.first = std::max<int64_t>(0, opts.waves_cycle - opts.waves_window / 2);
    w.last = opts.waves_cycle + opts.waves_window / 2;
    if (Status s = board::BoardModel::RequestWaves(w); !s.ok()) return all_error("waves: " + s.message());
    r.waves = "waves/" + cell_file + ".fst";
  }
  StatusOr<std::unique_ptr<host::BoardIface>> sim_board = host::MakeBoard(choice);
  if (!sim_board.ok()) return all_error("board model: " + sim_board.status().message());
  std::unique_ptr<host::BitFlipBoard> flipping;
  host::BoardIface* board = sim_board->get();
  if (opts.flip_record >= 0 && cell.transport == "sim") {
    flipping = std::make_unique<host::BitFlipBoard>(board, opts.flip_record, opts.flip_bit);
    board = flipping.get();
  }
  // Records that do not decode are corrupt hardware output: the parity verdict's finding (a
  // failure, exit 1), not an infrastructure error a CI might retry. The recording stops at the
  // decode, so the other two verdicts are not judged (skip): the cell fails on parity alone.
  auto trace_broken = [&](const Status& s, const std::string& where) {
    const std::string why = "not judged: the recording stopped at the trace, which does not decode";
    r.verdicts = {{"correctness", Outcome::kSkip, why, ""},
                  {"parity", Outcome::kFail, "the trace records do not decode (" + where + "): " + s.message(), ""},
                  {"dependency", Outcome::kSkip, why, ""},
                  {"assertions", Outcome::kSkip, why, ""},
                  {"performance", Outcome::kSkip, why, ""}};
    r.verdicts[0].time_s = SecondsSince(t0);
    return finish(r);
  };
  const lens::BoardRecordOptions rec_opts = RecordOptionsFor(m, choice.mem->Name());
  StatusOr<CellRecording> sim_rec = RecordOn(*board, *run, rec_opts, &collector);
  if (!sim_rec.ok() && sim_rec.status().code() == StatusCode::kDataLoss) {
    return trace_broken(sim_rec.status(), "board model");
  }
  if (!sim_rec.ok()) return all_error("board model: " + sim_rec.status().message());

  CellRecording rec = std::move(*sim_rec);
  hooks.Keep(0);  // the state dump and the card's run are not the board model's workload run
  AddIsaCoverage(*run, isa_log, &coverage);
  r.coverage.assign(coverage.hit().begin(), coverage.hit().end());
  r.has_coverage = true;
  if (cell.transport == "sim") {
    board_state = DumpOnBoard(*board, dump, written, rec_opts.runner.timeout);
  }
  if (cell.transport == "card") {
    StatusOr<std::unique_ptr<xdma_emu::EmulatorProcess>> emu =
        xdma_emu::EmulatorProcess::Start(opts.emulator, EmulatorArgs(m, cell));
    if (!emu.ok()) return all_error("card: " + emu.status().message());
    host::BoardChoice card_choice;
    card_choice.dev = (*emu)->prefix();
    StatusOr<std::unique_ptr<host::BoardIface>> card = host::MakeBoard(card_choice);
    if (!card.ok()) return all_error("card: " + card.status().message());
    board = card->get();
    if (opts.flip_record >= 0) {
      flipping = std::make_unique<host::BitFlipBoard>(board, opts.flip_record, opts.flip_bit);
      board = flipping.get();
    }
    StatusOr<CellRecording> card_rec = RecordOn(*board, *run, rec_opts, nullptr);
    if (!card_rec.ok() && card_rec.status().code() == StatusCode::kDataLoss) {
      return trace_broken(card_rec.status(), "card");
    }
    if (!card_rec.ok()) return all_error("card " + (*emu)->prefix() + ": " + card_rec.status().message());
    card_rec->rtl = std::move(rec.rtl);
    rec = std::move(*card_rec);
    board_state = DumpOnBoard(*board, dump, written, rec_opts.runner.timeout);
    // The emulator's board prints each failed assertion as one line on stderr.
    flipping.reset();
    board = nullptr;
    card->reset();  // close the device files before the emulator stops
    const SubprocessResult ended = (*emu)->Stop(SIGTERM);
    size_t at = 0;
    while (at < ended.err.size()) {
      size_t eol = ended.err.find('\n', at);
      if (eol == std::string::npos) eol = ended.err.size();
      rtl::AssertionFailure f;
      if (rtl::ParseAssertionLine(ended.err.substr(at, eol - at), &f)) card_assertions.push_back(f);
      at = eol + 1;
    }
  }
  if (!board_state.ok()) return all_error("board: " + board_state.status().message());
  r.cycles = rec.hw.cycles;
  r.efficiency = rec.hw.roofline.efficiency;

  // Verdict times: the ISA and board runs are shared by all the verdicts but exist for
  // correctness's comparison, so they count for it; the others time their own work (docs/regress.md "Verdict times").
  r.verdicts.push_back(
      WithWholeState(Correctness(*run, isa.dram(), rec.dram, rec.check),
                     WholeState(*cfg, dump, written, isa.dram(), *board_state, &isa_log)));
  r.verdicts.back().time_s = SecondsSince(t0);
  auto t_verdict = std::chrono::steady_clock::now();
  r.verdicts.push_back(Parity(*rec.rtl, rec.hw, rec.bucket_cycles));
  r.verdicts.back().time_s = SecondsSince(t_verdict);
  t_verdict = std::chrono::steady_clock::now();
  // Dependency: the traced step's instructions, footprints from the ISA simulator's operands.
  int traced_step = 0;
  for (size_t i = 0; i < run->steps.size(); ++i) {
    if (run->steps[i].traced) traced_step = int(i);
  }
  std::vector<DispatchedInstr> dispatched;
  for (const WriteLog::Entry& e : isa_log.StepEntries(traced_step)) {
    dispatched.push_back({e.idx, e.pc, e.resolved});
  }
  r.verdicts.push_back(Dependency(*cfg, dispatched, {&*rec.rtl, &rec.hw}));
  r.verdicts.back().time_s = SecondsSince(t_verdict);
  t_verdict = std::chrono::steady_clock::now();
  r.verdicts.push_back(Assertions(collector.assertions(), card_assertions, cell.transport == "card"));
  r.verdicts.back().time_s = SecondsSince(t_verdict);
  t_verdict = std::chrono::steady_clock::now();
  const std::string baseline_path = opts.baselines_dir + "/" + cell.FileName() + ".json";
  // Performance is judged on the rtl profile of the same run (the core's lossless event tap),
  // which a trace buffer too small for the run cannot cut short; parity above ties it to the
  // hw profile. The card's counters come from the board run.
  lens::Profile judged = *rec.rtl;
  judged.board = rec.hw.board;
  r.verdicts.push_back(Performance(cell.id, judged, opts.accept, baseline_path, &r.accepted, &r.moved));
  r.verdicts.back().time_s = SecondsSince(t_verdict);

  if (r.outcome() != Outcome::kPass || opts.keep_profile) {
    r.profile = SaveCellProfiles(opts.out_dir, cell, rec.hw, rec.rtl);
  }
  if (r.outcome() == Outcome::kFail) {
    std::optional<lens::Profile> baseline;
    if (StatusOr<std::string> text = lens::ReadWholeFile(baseline_path); text.ok()) {
      if (StatusOr<lens::Profile> b = ParseBaseline(*text, baseline_path); b.ok()) baseline = std::move(*b);
    }
    r.divergence_cycle = DivergenceCycle(r.verdicts, *rec.rtl, &rec.hw,
                                         baseline ? &*baseline : nullptr, int(run->steps.size()) - 1);
    if (r.divergence_cycle >= 0) r.divergence_run = int(run->steps.size()) - 1;
  }
  if (!r.waves.empty() && !std::filesystem::exists(opts.out_dir + "/" + r.waves)) {
    r.waves.clear();  // the configuration's board is not instrumented, or the run is shorter
  }
  WriteCodeCoverage(opts, cell_file, &r);
  return finish(r);
}

}  // namespace otpu::regress
