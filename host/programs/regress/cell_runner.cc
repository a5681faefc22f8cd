#include "host/programs/regress/cell_runner.h"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

#include "host/card.h"
#include "host/programs/board_factory.h"
#include "host/programs/regress/baseline.h"
#include "host/xdma_emu/emulator_process.h"
#include "lens/board_record.h"
#include "lens/board_step_runner.h"
#include "lens/build_hw_profile.h"
#include "lens/diff.h"
#include "lens/file_io.h"
#include "lens/otpuprof.h"
#include "lens/recorder.h"
#include "lens/rtl_step_runner.h"
#include "sim/rtl/event_collector.h"
#include "base/strings.h"

namespace otpu::regress {
namespace {

// A BoardIface that flips one bit of one trace record as the host reads the trace window:
// fault injection at the transport seam, to prove the parity verdict catches a corrupt trace.
class FlippingBoard : public host::BoardIface {
 public:
  FlippingBoard(host::BoardIface* inner, int64_t record, int bit)
      : inner_(inner), record_(record), bit_(bit) {}
  StatusOr<uint32_t> ReadReg(uint32_t offset) override { return inner_->ReadReg(offset); }
  Status WriteReg(uint32_t offset, uint32_t value) override { return inner_->WriteReg(offset, value); }
  Status WriteDma(uint64_t a, const void* d, size_t n) override { return inner_->WriteDma(a, d, n); }
  Status ReadDma(uint64_t a, void* d, size_t n) override {
    RETURN_IF_ERROR(inner_->ReadDma(a, d, n));
    const uint64_t byte = host::kTraceWindowBase + uint64_t(record_) * 8 + uint64_t(bit_ / 8);
    if (a <= byte && byte < a + n) static_cast<uint8_t*>(d)[byte - a] ^= uint8_t(1u << (bit_ % 8));
    return OkStatus();
  }
  std::string Describe() const override { return inner_->Describe(); }

 private:
  host::BoardIface* inner_;
  int64_t record_;
  int bit_;
};

// What one recording on a board gave.
struct BoardRecording {
  lens::Profile hw;
  std::optional<lens::Profile> rtl;  // when the core's event tap was on
  SparseMemory dram{1};              // the outputs as the board left them
  workloads::CheckReport check;
  isa::Config cfg;
  int bucket_cycles = 0;  // the core's counter window
};

// The workload with its check captured instead of failing the recording.
workloads::WorkloadRun Capturing(const workloads::WorkloadRun& run, workloads::CheckReport* out) {
  workloads::WorkloadRun copy;
  copy.name = run.name;
  copy.config = run.config;
  copy.program = run.program;
  copy.image = run.image;
  copy.steps = run.steps;
  copy.outputs = run.outputs;
  auto check = run.check;
  copy.check = [check, out](const SparseMemory& dram) {
    *out = check(dram);
    workloads::CheckReport ok;
    ok.bound = 1;
    return ok;
  };
  return copy;
}

StatusOr<BoardRecording> RecordOn(host::BoardIface* board, const workloads::WorkloadRun& run,
                                  const std::string& mem_name, double timeout_s,
                                  const rtl::EventCollector* collector) {
  ASSIGN_OR_RETURN(std::unique_ptr<host::Card> card, host::Card::Probe(board));
  if (!card->info().has_trace()) {
    return FailedPrecondition(board->Describe() + " has no trace buffer (register map 1)");
  }
  if (card->config().Version() != run.config.Version()) {
    return FailedPrecondition(StrFormat("%s is configuration VERSION 0x%08x, the cell needs 0x%08x",
                                        board->Describe().c_str(), card->config().Version(),
                                        run.config.Version()));
  }
  BoardRecording out;
  out.cfg = card->config();
  lens::BoardRunnerOptions ropts;
  ropts.mem = mem_name;
  ropts.timeout = std::chrono::milliseconds(int64_t(timeout_s * 1000));
  lens::BoardStepRunner runner(card.get(), ropts);
  lens::RecordOptions rec_opts;
  rec_opts.bucket_cycles = int(card->info().counter_window());
  out.bucket_cycles = rec_opts.bucket_cycles;
  const workloads::WorkloadRun captured = Capturing(run, &out.check);
  ASSIGN_OR_RETURN(lens::Recording rec, lens::Record(captured, runner, rec_opts));
  if (rec.profiles.size() != 1) return Internal("expected one traced step");
  out.hw = std::move(rec.profiles[0]);
  out.dram = runner.dram();
  if (collector) {
    RETURN_IF_ERROR(collector->status());
    if (!collector->halted()) return Internal("the core's event tap saw no halt");
    const lens::decode::TraceRun want = lens::ToTraceRun(collector->events(), collector->windows(),
                                                  collector->ports(), collector->halted());
    ASSIGN_OR_RETURN(lens::Profile rtl,
                     lens::BuildRtlProfile(out.hw.name, out.cfg, run.program, want,
                                           rec_opts.bucket_cycles, mem_name));
    out.rtl = std::move(rtl);
  }
  return out;
}

std::string Hex(const std::vector<uint8_t>& v, size_t at) {
  return at < v.size() ? StrFormat("0x%02x", v[at]) : "none";
}

Verdict Correctness(const workloads::WorkloadRun& run, const SparseMemory& isa_dram,
                    const SparseMemory& board_dram, const workloads::CheckReport& check) {
  Verdict v{"correctness", Outcome::kPass, "", ""};
  for (const workloads::DramRange& r : run.outputs) {
    const std::vector<uint8_t> a = isa_dram.ReadBytes(r.addr, r.bytes);
    const std::vector<uint8_t> b = board_dram.ReadBytes(r.addr, r.bytes);
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] != b[i]) {
        v.outcome = Outcome::kFail;
        v.message = StrFormat("DRAM byte 0x%llx differs from the ISA simulator's: %s (board) vs %s "
                              "(ISA) in the output at 0x%llx of %llu bytes",
                              (unsigned long long)(r.addr + i), Hex(b, i).c_str(),
                              Hex(a, i).c_str(), (unsigned long long)r.addr,
                              (unsigned long long)r.bytes);
        return v;
      }
    }
  }
  if (!check.ok()) {
    v.outcome = Outcome::kFail;
    v.message = "reference check failed: " + check.detail;
    return v;
  }
  uint64_t bytes = 0;
  for (const workloads::DramRange& r : run.outputs) bytes += r.bytes;
  v.message = StrFormat("%llu output bytes equal the ISA simulator's; %s",
                        (unsigned long long)bytes, check.detail.c_str());
  return v;
}

std::string CounterText(const lens::CounterSet& s) {
  std::string t;
  for (const lens::CounterValue& c : s) t += (t.empty() ? "" : " ") + c.name + "=" + std::to_string(c.value);
  return "{" + t + "}";
}

// Where parity failed, for the result and the summary.
Verdict Parity(const lens::Profile& rtl, const lens::Profile& hw, int bucket_cycles) {
  Verdict v{"parity", Outcome::kPass, "", ""};
  const bool cut = hw.hwtrace && hw.hwtrace->lost > 0 && hw.hwtrace->drop == 0 &&
                   hw.hwtrace->damaged == 0 && hw.hwtrace->keep == "first";
  if (cut) {
    // The buffer filled and kept the first records (SPEC 5): what it kept must be exact.
    const std::string first =
        FirstDivergenceInTrace(rtl, hw, hw.hwtrace->traced_to, bucket_cycles);
    if (!first.empty()) {
      v.outcome = Outcome::kFail;
      v.message = StrFormat("hw profile differs from the rtl profile inside the trace (to cycle %lld): ",
                            (long long)hw.hwtrace->traced_to) + first;
      return v;
    }
    v.message = StrFormat("the buffer of %lld records kept the run to cycle %lld of %lld (%lld records "
                          "lost after it): all it holds equals the rtl profile",
                          (long long)hw.hwtrace->depth, (long long)hw.hwtrace->traced_to,
                          (long long)hw.cycles, (long long)hw.hwtrace->lost);
    return v;
  }
  const std::string first = FirstDivergence(rtl, hw);
  std::string loss;
  if (hw.hwtrace && !hw.hwtrace->complete) {
    loss = StrFormat("the trace is incomplete (drop %lld, lost %lld, damaged %lld, %lld open at the end)",
                     (long long)hw.hwtrace->drop, (long long)hw.hwtrace->lost,
                     (long long)hw.hwtrace->damaged, (long long)hw.hwtrace->open_at_end);
  }
  if (!first.empty()) {
    v.outcome = Outcome::kFail;
    v.message = "hw profile differs from the rtl profile: " + first;
    if (!loss.empty()) v.message += "; " + loss;
    return v;
  }
  if (!loss.empty()) {
    v.outcome = Outcome::kFail;
    v.message = loss + ": parity needs every record";
    return v;
  }
  v.message = StrFormat("hw profile from %lld trace records equals the rtl profile (%zu instructions)",
                        (long long)(hw.hwtrace ? hw.hwtrace->records : 0), hw.instrs.size());
  return v;
}

Verdict Performance(const std::string& id, const lens::Profile& hw, const CellOptions& opts,
                    const std::string& path, std::string* accepted) {
  Verdict v{"performance", Outcome::kPass, "", ""};
  const std::string want = BaselineJson(id, hw);
  if (opts.accept) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  }
  StatusOr<std::string> text = lens::ReadWholeFile(path);
  if (!text.ok()) {
    if (!std::filesystem::exists(path)) {
      if (opts.accept) {
        Status w = lens::WriteFileAtomically(path, want);
        if (!w.ok()) return Verdict{"performance", Outcome::kError, w.message(), ""};
        *accepted = "new baseline " + path + "\n";
        v.message = "accepted a new baseline: " + path;
        return v;
      }
      return Verdict{"performance", Outcome::kFail,
                     "no baseline at " + path + " (review the cell, then run with --accept)", ""};
    }
    return Verdict{"performance", Outcome::kError, text.status().message(), ""};
  }
  StatusOr<lens::Profile> base = ParseBaseline(*text, path);
  if (!base.ok()) return Verdict{"performance", Outcome::kError, base.status().message(), ""};
  const lens::ProfileDelta d = CompareWithBaseline(*base, hw);
  lens::ProfileDiff diff;
  diff.profiles.push_back(d);
  if (d.equal()) {
    if (*text != want && opts.accept) {  // same figures, older layout: rewrite quietly
      Status w = lens::WriteFileAtomically(path, want);
      if (!w.ok()) return Verdict{"performance", Outcome::kError, w.message(), ""};
    }
    v.message = StrFormat("%lld cycles, %.2f%% of the roofline, %zu instructions: equal to the baseline",
                          (long long)hw.cycles, 100 * hw.roofline.efficiency, hw.instrs.size());
    return v;
  }
  std::string summary = StrFormat("cycles %lld -> %lld", (long long)base->cycles, (long long)hw.cycles);
  if (d.instrs_changed) summary += StrFormat(", %lld instructions moved", (long long)d.instrs_changed);
  if (!d.instrs.empty()) {
    const lens::InstrDelta& x = d.instrs[0];
    summary += StrFormat("; most: pc %lld %s%s%s %lld -> %lld cycles (%s %+lld)", (long long)x.pc,
                         x.name.c_str(), x.source.empty() ? "" : " at ", x.source.c_str(),
                         (long long)x.cycles_before, (long long)x.cycles_after, x.cause.c_str(),
                         (long long)x.cause_delta);
  } else if (!d.fields.empty()) {
    summary += "; " + d.fields[0].field + " differs";
  }
  if (opts.accept) {
    Status w = lens::WriteFileAtomically(path, want);
    if (!w.ok()) return Verdict{"performance", Outcome::kError, w.message(), ""};
    *accepted = lens::DiffText(diff);
    v.message = "accepted the new figures: " + summary;
    v.detail = *accepted;
    return v;
  }
  v.outcome = Outcome::kFail;
  v.message = "differs from the baseline: " + summary;
  v.detail = lens::DiffText(diff);
  return v;
}

std::vector<std::string> EmulatorArgs(const Matrix& m, const Cell& cell) {
  const rtl::DramOptions mem = m.DramOf(cell);
  std::vector<std::string> args = {"--config", cell.config, "--regmap", "2", "--mem", cell.memory.Name(), "--seed",
                                   std::to_string(mem.seed)};
  if (m.dram.latency > 0) args.insert(args.end(), {"--latency", std::to_string(m.dram.latency)});
  if (m.dram.queue_beats > 0) {
    args.insert(args.end(), {"--queue-beats", std::to_string(m.dram.queue_beats)});
  }
  if (m.dram.beats_per_cycle > 0) {
    args.insert(args.end(), {"--beats-per-cycle", StrFormat("%.17g", m.dram.beats_per_cycle)});
  }
  return args;
}

}  // namespace

std::string FirstDivergence(const lens::Profile& rtl, const lens::Profile& hw) {
  auto num = [](const char* what, int64_t a, int64_t b) {
    return StrFormat("%s %lld (rtl) vs %lld (hw)", what, (long long)a, (long long)b);
  };
  const size_t n = std::min(rtl.instrs.size(), hw.instrs.size());
  for (size_t i = 0; i < n; ++i) {
    const lens::InstrRow &a = rtl.instrs[i], &b = hw.instrs[i];
    const std::string where = StrFormat("instruction %zu (pc %lld %s): ", i, (long long)a.pc,
                                        a.name.c_str());
    if (a.pc != b.pc) return where + num("pc", a.pc, b.pc);
    if (a.unit != b.unit) return where + num("unit", a.unit, b.unit);
    if (a.name != b.name) return where + "name " + a.name + " (rtl) vs " + b.name + " (hw)";
    if (a.detail != b.detail) return where + "detail '" + a.detail + "' (rtl) vs '" + b.detail + "' (hw)";
    if (a.dispatch != b.dispatch) return where + num("dispatch", a.dispatch, b.dispatch);
    if (a.ready != b.ready) return where + num("ready", a.ready, b.ready);
    if (a.release != b.release) return where + num("release", a.release, b.release);
    if (a.start != b.start) return where + num("start", a.start, b.start);
    if (a.end != b.end) return where + num("end", a.end, b.end);
    if (a.counters != b.counters) {
      return where + "counters " + CounterText(a.counters) + " (rtl) vs " + CounterText(b.counters) + " (hw)";
    }
    if (a.work != b.work) return where + num("work", a.work, b.work);
    if (a.port_b != b.port_b) return where + num("port_b", a.port_b, b.port_b);
    if (a.port_a != b.port_a) return where + num("port_a", a.port_a, b.port_a);
    if (a.source != b.source) return where + num("source", a.source, b.source);
  }
  if (rtl.instrs.size() != hw.instrs.size()) {
    return num("instructions", int64_t(rtl.instrs.size()), int64_t(hw.instrs.size()));
  }
  if (rtl.cycles != hw.cycles) return num("cycles", rtl.cycles, hw.cycles);
  if (rtl.slices.size() != hw.slices.size()) {
    return num("slices", int64_t(rtl.slices.size()), int64_t(hw.slices.size()));
  }
  for (size_t s = 0; s < rtl.slices.size(); ++s) {
    const lens::Slice &a = rtl.slices[s], &b = hw.slices[s];
    if (!(a.ports == b.ports)) return StrFormat("slice %zu: port totals differ", s);
    for (size_t u = 0; u < a.busy.size() && u < b.busy.size(); ++u) {
      if (a.busy[u] != b.busy[u]) return StrFormat("slice %zu: ", s) + num(("busy." + rtl.units[u]).c_str(), a.busy[u], b.busy[u]);
    }
    for (size_t u = 0; u < a.lose.size() && u < b.lose.size(); ++u) {
      if (a.lose[u] != b.lose[u]) return StrFormat("slice %zu: ", s) + num(("lose." + rtl.units[u]).c_str(), a.lose[u], b.lose[u]);
    }
    for (const auto& [name, member] : lens::Buckets::Columns()) {
      const std::vector<int64_t>&x = a.buckets.*member, &y = b.buckets.*member;
      for (size_t w = 0; w < std::min(x.size(), y.size()); ++w) {
        if (x[w] != y[w]) {
          return StrFormat("slice %zu: bucket %s of window %zu: %lld (rtl) vs %lld (hw)", s, name, w,
                           (long long)x[w], (long long)y[w]);
        }
      }
      if (x.size() != y.size()) return StrFormat("slice %zu: bucket %s: ", s, name) + num("windows", int64_t(x.size()), int64_t(y.size()));
    }
  }
  if (!(rtl.roofline == hw.roofline)) return num("roofline.bound", rtl.roofline.bound, hw.roofline.bound);
  if (rtl.macs != hw.macs) return num("macs", rtl.macs, hw.macs);
  if (rtl.bytes != hw.bytes) return num("bytes", rtl.bytes, hw.bytes);
  if (!(rtl.mxu_gaps == hw.mxu_gaps)) return num("mxu_gaps", int64_t(rtl.mxu_gaps.size()), int64_t(hw.mxu_gaps.size()));
  if (!(rtl.programs == hw.programs)) return "programs differ";
  if (!(rtl.sources == hw.sources)) return "sources differ";
  for (size_t i = 0; i < std::max(rtl.notes.size(), hw.notes.size()); ++i) {
    const std::string a = i < rtl.notes.size() ? rtl.notes[i].text : "(none)";
    const std::string b = i < hw.notes.size() ? hw.notes[i].text : "(none)";
    if (a != b) return StrFormat("note %zu: '%s' (rtl) vs '%s' (hw)", i, a.c_str(), b.c_str());
  }
  return "";
}

std::string FirstDivergenceInTrace(const lens::Profile& rtl, const lens::Profile& hw,
                                   int64_t traced_to, int bucket_cycles) {
  auto num = [](const char* what, int64_t a, int64_t b) {
    return StrFormat("%s %lld (rtl) vs %lld (hw)", what, (long long)a, (long long)b);
  };
  if (rtl.cycles != hw.cycles) return num("cycles", rtl.cycles, hw.cycles);
  if (hw.instrs.size() > rtl.instrs.size()) {
    return num("instructions", int64_t(rtl.instrs.size()), int64_t(hw.instrs.size()));
  }
  for (size_t i = 0; i < rtl.instrs.size(); ++i) {
    const lens::InstrRow& a = rtl.instrs[i];
    const std::string where = StrFormat("instruction %zu (pc %lld %s): ", i, (long long)a.pc,
                                        a.name.c_str());
    if (i >= hw.instrs.size()) {
      if (a.dispatch >= 0 && a.dispatch <= traced_to) {
        return where + StrFormat("dispatched at %lld, inside the trace (to %lld), but missing",
                                 (long long)a.dispatch, (long long)traced_to);
      }
      continue;
    }
    const lens::InstrRow& b = hw.instrs[i];
    if (a.pc != b.pc) return where + num("pc", a.pc, b.pc);
    if (a.name != b.name) return where + "name " + a.name + " (rtl) vs " + b.name + " (hw)";
    const std::pair<const char*, int64_t lens::InstrRow::*> times[] = {
        {"dispatch", &lens::InstrRow::dispatch}, {"ready", &lens::InstrRow::ready},
        {"release", &lens::InstrRow::release},   {"start", &lens::InstrRow::start},
        {"end", &lens::InstrRow::end}};
    for (const auto& [name, field] : times) {
      const int64_t x = a.*field, y = b.*field;
      // An event after the cut is missing from the trace (-1); anything it holds must agree.
      // `ready` travels in the start record (SPEC 5), so it is known only once started.
      const int64_t seen_at = field == &lens::InstrRow::ready ? a.start : x;
      if (y == -1 && (x == -1 || seen_at == -1 || seen_at > traced_to)) continue;
      if (x != y) return where + num(name, x, y);
    }
    if (b.end != -1 && a.counters != b.counters) {
      return where + "counters " + CounterText(a.counters) + " (rtl) vs " + CounterText(b.counters) + " (hw)";
    }
  }
  if (bucket_cycles > 0 && !rtl.slices.empty() && !hw.slices.empty()) {
    for (const auto& [name, member] : lens::Buckets::Columns()) {
      const std::vector<int64_t>&x = rtl.slices[0].buckets.*member, &y = hw.slices[0].buckets.*member;
      for (size_t w = 0; w < std::min(x.size(), y.size()); ++w) {
        // A window's P and Q records follow its last cycle: the one just before the cut may
        // have lost its Q record with the cut.
        if (int64_t(w + 2) * bucket_cycles - 1 > traced_to) break;
        if (x[w] != y[w]) {
          return StrFormat("bucket %s of window %zu: %lld (rtl) vs %lld (hw)", name, w,
                           (long long)x[w], (long long)y[w]);
        }
      }
    }
  }
  return "";
}

CellResult RunCell(const Matrix& m, const Cell& cell, const CellOptions& opts) {
  const auto t0 = std::chrono::steady_clock::now();
  CellResult r;
  r.id = cell.id;
  r.index = cell.index;
  r.matrix = m.path;
  r.workload = cell.workload;
  r.config = cell.config;
  r.memory = cell.memory.Name();
  r.transport = cell.transport;
  r.seed = cell.seed;
  r.key = opts.key;
  r.command = opts.command;
  auto finish = [&](CellResult& res) -> CellResult {
    res.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
  };
  auto all_error = [&](const std::string& why) {
    r.verdicts.clear();
    for (const char* name : kVerdictNames) r.verdicts.push_back({name, Outcome::kError, why, ""});
    return finish(r);
  };

  StatusOr<isa::Config> cfg = ConfigNamed(cell.config);
  if (!cfg.ok()) return all_error(cfg.status().message());
  lens::TraceRequest req;
  req.pos = cell.pos;
  req.tokens = 1;
  req.wf = cell.wf;
  StatusOr<workloads::WorkloadRun> run = lens::MakeTracedWorkload(cell.workload, *cfg, req);
  if (!run.ok()) return all_error("workload " + cell.workload + ": " + run.status().message());

  // The golden model: the same steps on the ISA simulator.
  workloads::CheckReport isa_check;
  lens::IsaStepRunner isa;
  StatusOr<lens::Recording> isa_rec = lens::Record(Capturing(*run, &isa_check), isa);
  if (!isa_rec.ok()) return all_error("ISA simulator: " + isa_rec.status().message());

  // The board model in this process, with the core's event tap: the rtl profile (and, for a
  // sim cell, everything else).
  rtl::EventCollector collector(*cfg);
  host::BoardChoice choice;
  choice.sim = true;
  choice.config = cell.config;
  choice.mem = m.DramOf(cell);
  choice.hook = &collector;
  StatusOr<std::unique_ptr<host::BoardIface>> sim_board = host::MakeBoard(choice);
  if (!sim_board.ok()) return all_error("board model: " + sim_board.status().message());
  std::unique_ptr<FlippingBoard> flipping;
  host::BoardIface* board = sim_board->get();
  if (opts.flip_record >= 0 && cell.transport == "sim") {
    flipping = std::make_unique<FlippingBoard>(board, opts.flip_record, opts.flip_bit);
    board = flipping.get();
  }
  // A trace that does not decode is the parity verdict's finding; the other two cannot be
  // judged without the recording.
  auto trace_broken = [&](const Status& s, const std::string& where) {
    r.verdicts = {{"correctness", Outcome::kError, "no recording: " + s.message(), ""},
                  {"parity", Outcome::kFail, "the trace records do not decode (" + where + "): " + s.message(), ""},
                  {"performance", Outcome::kError, "no recording: " + s.message(), ""}};
    return finish(r);
  };
  StatusOr<BoardRecording> sim_rec = RecordOn(board, *run, choice.mem->Name(), m.timeout_s, &collector);
  if (!sim_rec.ok() && sim_rec.status().code() == StatusCode::kDataLoss) {
    return trace_broken(sim_rec.status(), "board model");
  }
  if (!sim_rec.ok()) return all_error("board model: " + sim_rec.status().message());

  BoardRecording rec = std::move(*sim_rec);
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
      flipping = std::make_unique<FlippingBoard>(board, opts.flip_record, opts.flip_bit);
      board = flipping.get();
    }
    StatusOr<BoardRecording> card_rec = RecordOn(board, *run, choice.mem->Name(), m.timeout_s, nullptr);
    if (!card_rec.ok() && card_rec.status().code() == StatusCode::kDataLoss) {
      return trace_broken(card_rec.status(), "card");
    }
    if (!card_rec.ok()) return all_error("card " + (*emu)->prefix() + ": " + card_rec.status().message());
    card_rec->rtl = std::move(rec.rtl);
    rec = std::move(*card_rec);
  }
  r.cycles = rec.hw.cycles;
  r.efficiency = rec.hw.roofline.efficiency;

  r.verdicts.push_back(Correctness(*run, isa.dram(), rec.dram, rec.check));
  r.verdicts.push_back(Parity(*rec.rtl, rec.hw, rec.bucket_cycles));
  const std::string baseline = opts.baselines_dir + "/" + cell.FileName() + ".json";
  // Performance is judged on the core's lossless event tap (the rtl profile of the same run),
  // which a trace buffer too small for the run cannot cut short; the card's counters come
  // from the board run. Parity above ties the two together.
  lens::Profile judged = *rec.rtl;
  judged.kind = lens::ProfileKind::kHw;
  judged.board = rec.hw.board;
  r.verdicts.push_back(Performance(cell.id, judged, opts, baseline, &r.accepted));

  if (r.outcome() != Outcome::kPass || opts.keep_profile) {
    lens::ProfileFile file;
    file.created = lens::NowIso8601();
    lens::Profile hw = rec.hw;
    hw.name = cell.id + " (hw)";
    file.profiles.push_back(std::move(hw));
    if (rec.rtl) {
      lens::Profile rtl = *rec.rtl;
      rtl.name = cell.id + " (rtl)";
      file.profiles.push_back(std::move(rtl));
    }
    const std::string rel = "profiles/" + cell.FileName() + ".otpuprof";
    std::error_code ec;
    std::filesystem::create_directories(opts.out_dir + "/profiles", ec);
    if (lens::Write(opts.out_dir + "/" + rel, file).ok()) r.profile = rel;
  }
  return finish(r);
}

}  // namespace otpu::regress
