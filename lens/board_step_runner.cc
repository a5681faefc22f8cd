#include "lens/board_step_runner.h"

#include <algorithm>
#include <utility>

#include "lens/build_board_profile.h"
#include "lens/build_hw_profile.h"
#include "lens/findings.h"
#include "lens/notes.h"
#include "lens/roofline.h"
#include "base/strings.h"

namespace otpu::lens {
namespace {

constexpr uint64_t kPage = SparseMemory::kPageBytes;
// The resident program's DRAM address: below every workload's data (workloads/list.h).
constexpr uint64_t kProgramAddr = 0;

// A trace that lost its halt record (a buffer that filled first) gives no cycles and no port
// totals; the card counted both. Fills them in, with the roofline, and redoes the notes that
// depend on them (the verdict, the hotspots' shares) in place.
void CompleteFromCounters(const host::RunCounters& c, Profile* p) {
  const std::vector<Note> stale = MakeNotes(*p);
  // The lost-cycle notes were made before the trace's loss was known, with no cycles to divide by.
  Profile before = *p;
  before.hwtrace.reset();
  const std::vector<Note> stale_lost = LostCycleNotes(before);
  p->cycles = c.cycles;
  p->slices[0].ports.c = c.cycles;
  std::vector<SliceRoofline> roofline = p->roofline.per_slice;
  roofline[0] = SliceRooflineOf(c.b_rd + c.b_wr, c.a_rd + c.a_wr);
  p->roofline = RooflineOf(std::move(roofline), c.cycles);
  const std::vector<Note> fresh = MakeNotes(*p);
  for (Note& n : p->notes) {
    const auto it = std::find(stale.begin(), stale.end(), n);
    if (it != stale.end()) n = fresh[size_t(it - stale.begin())];
  }
  const std::vector<Note> fresh_lost = LostCycleNotes(*p);
  std::vector<Note> kept;
  size_t at = std::string::npos;
  for (const Note& n : p->notes) {
    if (std::find(stale_lost.begin(), stale_lost.end(), n) == stale_lost.end()) {
      kept.push_back(n);
    } else if (at == std::string::npos) {
      at = kept.size();
    }
  }
  if (at != std::string::npos) {
    kept.insert(kept.begin() + std::ptrdiff_t(at), fresh_lost.begin(), fresh_lost.end());
    p->notes = std::move(kept);
  }
  p->notes.push_back({NoteLevel::kInfo,
                      "the trace lost the halt: cycles and the roofline's port totals are the "
                      "card's counters (CYCLES, B_RD + B_WR, A_RD + A_WR)"});
}

}  // namespace

const char* TraceKeepName(TraceKeep keep) {
  switch (keep) {
    case TraceKeep::kAuto:
      return "auto";
    case TraceKeep::kStream:
      return "stream";
    case TraceKeep::kFirst:
      return "first";
    case TraceKeep::kLast:
      return "last";
  }
  return "?";
}

BoardStepRunner::BoardStepRunner(host::Card* card, const BoardRunnerOptions& opts)
    : card_(card), opts_(opts) {}

ProfileKind BoardStepRunner::kind() const {
  return card_->info().has_trace() ? ProfileKind::kHw : ProfileKind::kBoard;
}

Status BoardStepRunner::Load(const workloads::WorkloadRun& run) {
  const isa::Config& cfg = card_->config();
  if (run.config.Version() != cfg.Version() || run.config.DRAM_BYTES > cfg.DRAM_BYTES) {
    return InvalidArgument(StrFormat("the workload was built for config %s, but %s has config %s",
                                     run.config.name.c_str(), card_->board().Describe().c_str(),
                                     cfg.name.c_str()));
  }
  const uint64_t program_end = kProgramAddr + uint64_t(run.program.size()) * isa::kInstrBytes;
  const auto& pages = run.image.pages();
  if (!pages.empty() && pages.begin()->first * kPage < program_end) {
    return InvalidArgument(
        StrFormat("the image starts at DRAM 0x%llx, inside the program's 0x%llx bytes at 0x%llx",
                  (unsigned long long)(pages.begin()->first * kPage),
                  (unsigned long long)program_end, (unsigned long long)kProgramAddr));
  }
  // Zero what the image leaves unwritten up to its last page or output, in runs of pages.
  uint64_t top = pages.empty() ? 0 : (pages.rbegin()->first + 1) * kPage;
  for (const workloads::DramRange& r : run.outputs) top = std::max(top, r.addr + r.bytes);
  top = std::min(top, run.image.size());
  for (uint64_t page = 0; page * kPage < top;) {
    if (pages.count(page)) {
      ++page;
      continue;
    }
    uint64_t end = page;
    while (end * kPage < top && !pages.count(end)) ++end;
    RETURN_IF_ERROR(card_->ScrubDram(page * kPage, std::min(end * kPage, top) - page * kPage));
    page = end;
  }
  RETURN_IF_ERROR(card_->WriteImage(run.image));
  RETURN_IF_ERROR(card_->WriteProgram(run.program, kProgramAddr));
  dram_ = std::make_unique<SparseMemory>(run.image);
  outputs_ = run.outputs;
  last_ = {};
  program_ = &run.program;
  builder_.reset();
  return OkStatus();
}

Status BoardStepRunner::WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) {
  if (!dram_) return Internal("board runner: WriteDram before Load");
  if (!dram_->Contains(addr, bytes.size())) {
    return InvalidArgument(StrFormat("step write of %zu bytes at DRAM 0x%llx is outside DRAM",
                                     bytes.size(), (unsigned long long)addr));
  }
  RETURN_IF_ERROR(card_->WriteDram(addr, bytes.data(), bytes.size()));
  dram_->Write(addr, bytes.data(), bytes.size());
  return OkStatus();
}

StatusOr<trace::RunEvents> BoardStepRunner::Run(const workloads::Step& step) {
  if (!dram_) return Internal("board runner: Run before Load");
  host::RunOptions ro;
  ro.args = step.args;
  ro.trace.enable = step.traced && card_->info().has_trace();
  const bool can_stream = card_->info().has_trace_stream();
  ro.trace.stream = opts_.keep == TraceKeep::kStream || (opts_.keep == TraceKeep::kAuto && can_stream);
  ro.trace.keep_last = opts_.keep == TraceKeep::kLast;
  // Every record reaches the decoder through FeedRecords: streamed ones as the card drains
  // them, while the step runs; a buffer read after the run (keep-first, keep-last) from the
  // result below, with CYCLES known.
  records_.clear();
  if (ro.trace.enable && ro.trace.stream) {
    ro.trace.sink = [this](const uint64_t* records, size_t n) { return FeedRecords(records, n); };
  }
  ro.timeout = opts_.timeout;
  builder_.reset();
  cycle_bound_ = -1;
  tracing_ = ro.trace.enable;
  StatusOr<host::RunResult> result = card_->Run(ro);
  if (result.ok() && result->trace && builder_ == nullptr) {
    // Nothing came while the run drained: decode what the card handed back, now that CYCLES
    // bounds the record cycles (docs/trace.md). An error returns at the build.
    cycle_bound_ = int64_t(result->counters.cycles);
    const std::vector<uint64_t>& records = result->trace->records;
    (void)FeedRecords(records.data(), records.size());
  }
  tracing_ = false;
  RETURN_IF_ERROR(result.status());
  last_ = std::move(result).value();
  if (last_.trace && !opts_.keep_records) last_.trace->records = std::vector<uint64_t>();
  for (const workloads::DramRange& r : outputs_) {
    std::vector<uint8_t> bytes(r.bytes);
    RETURN_IF_ERROR(card_->ReadDram(r.addr, bytes.data(), bytes.size()));
    dram_->Write(r.addr, bytes.data(), bytes.size());
  }
  trace::RunEvents events;
  events.cycles = last_.counters.cycles;
  events.retired = last_.counters.icount;
  return events;
}

Status BoardStepRunner::FeedRecords(const uint64_t* records, size_t n) {
  if (!tracing_) return FailedPrecondition("board runner: trace records outside a traced run");
  if (builder_ == nullptr) {
    // While the core runs CYCLES is not known (cycle_bound_ -1): record cycles are bounded by
    // the halt only.
    builder_ = std::make_unique<HwProfileBuilder>(card_->config(), *program_, cycle_bound_);
  }
  if (opts_.keep_records) records_.insert(records_.end(), records, records + n);
  return builder_->Feed(records, n);
}

StatusOr<Profile> BoardStepRunner::BuildStepProfile(const std::string& name,
                                                    const workloads::WorkloadRun& run,
                                                    const trace::RunEvents& events,
                                                    int bucket_cycles) {
  const host::CardInfo& info = card_->info();
  if (!last_.trace) {
    return BuildBoardProfile(name, info, run.program, last_.counters, opts_.mem);
  }
  if (bucket_cycles != info.counter_window()) {
    return InvalidArgument(StrFormat("bucket of %d cycles, but the card counts windows of %lld",
                                     bucket_cycles, (long long)info.counter_window()));
  }
  if (builder_ == nullptr) return FailedPrecondition("board runner: the trace was built already");
  const host::TraceDrain& t = *last_.trace;
  TraceRegisters regs;
  regs.count = t.count;
  regs.drop = t.drop;
  regs.depth = t.depth;
  regs.keep_last = t.keep_last;
  regs.stream = t.stream;
  for (const host::TraceGap& g : t.gaps) regs.gaps.push_back({g.from, g.to, g.lines});
  regs.cycles = last_.counters.cycles;
  std::unique_ptr<HwProfileBuilder> builder = std::move(builder_);
  ASSIGN_OR_RETURN(Profile p, builder->Finish(name, regs, bucket_cycles, opts_.mem));
  p.clock_mhz = info.clock_mhz();
  p.board = BoardCounters(last_.counters);
  if (p.cycles == 0 && last_.counters.cycles > 0) CompleteFromCounters(last_.counters, &p);
  return p;
}

}  // namespace otpu::lens
