#include "sim/rtl/rtl_harness.h"

#include <algorithm>
#include <cstdio>
#include <bit>
#include <chrono>

#include "sim/isa/checks.h"
#include "sim/rtl/core_model.h"
#include "workloads/isa/disasm.h"

namespace otpu::rtl {

const char* StopName(Stop stop) {
  switch (stop) {
    case Stop::kHalt: return "halt";
    case Stop::kError: return "error";
    case Stop::kCycleLimit: return "cycle limit";
  }
  return "?";
}

StatusOr<std::unique_ptr<RtlHarness>> RtlHarness::Create(const isa::Config& cfg) {
  ASSIGN_OR_RETURN(const std::string name, SelectBuiltConfig(cfg));
  ASSIGN_OR_RETURN(std::unique_ptr<CoreModel> model, CoreModel::Create(name));
  if (model->version() != cfg.Version()) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "the RTL model reports VERSION 0x%08x, not 0x%08x",
                  model->version(), cfg.Version());
    return Internal(buf);
  }
  return std::unique_ptr<RtlHarness>(new RtlHarness(cfg, std::move(model)));
}

RtlHarness::RtlHarness(const isa::Config& cfg, std::unique_ptr<CoreModel> model)
    : cfg_(cfg), model_(std::move(model)) {}

RtlHarness::~RtlHarness() = default;

Status RtlHarness::LoadProgram(const std::vector<isa::Instr>& code) {
  if (code.size() > cfg_.IMEM_WORDS) {
    return InvalidArgument("program of " + std::to_string(code.size()) +
                           " instructions does not fit IMEM (IMEM_WORDS=" +
                           std::to_string(cfg_.IMEM_WORDS) + ")");
  }
  for (size_t pc = 0; pc < code.size(); ++pc) model_->WriteImem(uint32_t(pc), code[pc]);
  model_->FinishWrites();
  code_ = code;
  prog_n_ = uint32_t(code.size());
  return OkStatus();
}

StatusOr<RtlRun> RtlHarness::Run(SparseMemory* dram, const RtlRunOptions& opts) {
  OTPU_CHECK(dram != nullptr);
  if (dram->size() != cfg_.DRAM_BYTES) {
    return InvalidArgument("DRAM of " + std::to_string(dram->size()) +
                           " bytes: the RTL model has DRAM_BYTES=" +
                           std::to_string(cfg_.DRAM_BYTES));
  }
  if (opts.mem.latency < 1 || opts.mem.stall_percent < 0 || opts.mem.stall_percent > 99) {
    return InvalidArgument("memory latency " + std::to_string(opts.mem.latency) + ", stall " +
                           std::to_string(opts.mem.stall_percent) +
                           "%: the latency must be at least 1 and the stall 0..99");
  }
  if (opts.mem.axi && (!(opts.mem.beats_per_cycle > 0) || opts.mem.queue_beats < 1)) {
    return InvalidArgument("axi memory with " + std::to_string(opts.mem.beats_per_cycle) +
                           " beats per cycle and a queue of " +
                           std::to_string(opts.mem.queue_beats) +
                           " beats: both must be positive");
  }
  DramModel mem(dram, cfg_.D, opts.mem);
  EventCollector collector(cfg_);

  // RUN low, then high: the core registers its inputs once, so two edges each; the run's
  // cycle 0 follows.
  const MemOffer idle;
  model_->SetRunInputs(opts.args, prog_n_, std::max<uint32_t>(1, opts.window));
  for (bool run : {false, false, true, true}) {
    model_->SetRun(run);
    model_->Drive(idle);
    model_->Rise();
  }
  if (!model_->running() || model_->cycle() != 0) {
    model_->Reset();
    return Internal("the RTL model did not start its run");
  }
  collector.OnRunStart();
  for (ClockHook* h : hooks_) h->OnRunStart();

  RtlRun run;
  MemOffer offer;
  MemRequests req;
  CoreCycle cyc;
  run.stop = Stop::kCycleLimit;
  const auto t0 = std::chrono::steady_clock::now();
  for (int64_t cycle = 0; cycle < opts.max_cycles; ++cycle) {
    mem.Offer(cycle, &offer);
    model_->Drive(offer);
    model_->ReadRequests(offer, &req);
    mem.Accept(cycle, offer, req);
    bool halt;
    if (opts.record_events) {
      cyc.cycle = cycle;
      model_->ReadEvents(&cyc);
      collector.OnClock(cyc);
      for (ClockHook* h : hooks_) h->OnClock(cyc);
      halt = cyc.halt.valid;
    } else {
      halt = model_->HaltEvent();
      if (halt) {  // the halt's cycle and port totals
        cyc.cycle = cycle;
        model_->ReadEvents(&cyc);
        collector.OnClock(cyc);
      }
    }
    model_->Rise();
    if (halt) {
      run.stop = model_->error() ? Stop::kError : Stop::kHalt;
      break;
    }
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  model_->SetRun(false);
  for (ClockHook* h : hooks_) h->OnRunEnd();

  // A broken rule leaves the core in an unknown state: the next run starts from reset.
  for (const Status* st : {&mem.status(), &collector.status()}) {
    if (!st->ok()) {
      model_->Reset();
      return *st;
    }
  }
  run.events = std::move(collector.events());
  run.events.retired = model_->retired();
  run.windows = collector.windows();
  run.ports = collector.ports();
  const auto lose = model_->lose();
  for (int u = 0; u < kCoreUnits; ++u) run.lose[size_t(u)] = lose[size_t(u)];
  run.dram = mem.stats();
  if (run.stop == Stop::kCycleLimit) {
    run.events.cycles = opts.max_cycles;
    model_->Reset();  // the next run starts from a clean core
    return run;
  }
  if (!mem.Idle()) {
    model_->Reset();
    return Internal("the core halted with port reads still unanswered");
  }
  if (run.stop == Stop::kError) {
    run.error_pc = model_->error_pc();
    run.error_cause = model_->error_cause();
    const std::string name =
        run.error_pc < code_.size() ? " (" + isa::InstrName(code_[run.error_pc]) + ")" : "";
    run.error = "pc " + std::to_string(run.error_pc) + name + ": " + sim::ErrorCauseName(run.error_cause);
  }
  return run;
}

std::vector<uint32_t> RtlHarness::ReadTmem(uint32_t first, uint32_t count) {
  const uint32_t lanes = uint32_t(cfg_.LANES);
  std::vector<uint32_t> out(count);
  std::vector<uint32_t> group(lanes);
  for (uint32_t base = first / lanes * lanes; base < first + count; base += lanes) {
    model_->ReadTmem(base, group.data());
    for (uint32_t l = 0; l < lanes; ++l) {
      if (base + l >= first && base + l < first + count) out[base + l - first] = group[l];
    }
  }
  return out;
}

void RtlHarness::WriteTmem(uint32_t first, const std::vector<uint32_t>& words) {
  const uint32_t lanes = uint32_t(cfg_.LANES);
  const uint32_t end = first + uint32_t(words.size());
  std::vector<uint32_t> group(lanes);
  for (uint32_t base = first / lanes * lanes; base < end; base += lanes) {
    model_->ReadTmem(base, group.data());
    for (uint32_t l = 0; l < lanes; ++l) {
      if (base + l >= first && base + l < end) group[l] = words[base + l - first];
    }
    model_->WriteTmem(base, group.data());
  }
}

void RtlHarness::ReadActRam(sim::ActRam* act) {
  for (int r = 0; r < act->rows(); ++r) {
    for (int b = 0; b < act->blocks(); ++b) {
      uint32_t scale = 0;
      model_->ReadAct(r, b, act->Block(r, b), &scale);
      act->Scale(r, b) = std::bit_cast<float>(scale);
    }
  }
}

void RtlHarness::WriteActRam(const sim::ActRam& act) {
  for (int r = 0; r < act.rows(); ++r) {
    for (int b = 0; b < act.blocks(); ++b) {
      model_->WriteAct(r, b, act.Block(r, b), std::bit_cast<uint32_t>(act.Scale(r, b)));
    }
  }
}

}  // namespace otpu::rtl
