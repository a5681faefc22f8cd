#include "lens/rtl_step_runner.h"

#include <utility>

#include "lens/build_hw_profile.h"
#include "base/strings.h"

namespace otpu::lens {
decode::TraceRun ToTraceRun(const trace::RunEvents& events,
                           const std::vector<rtl::WindowRecord>& windows,
                           const std::array<int64_t, 4>& ports, bool halted) {
  decode::TraceRun t;
  t.events = events;
  t.ports = ports;
  t.halted = halted;
  t.windows.reserve(windows.size());
  for (const rtl::WindowRecord& w : windows) {
    decode::WindowCounts c;
    c.last = w.last;
    c.n = w.n;
    for (int i = 0; i < decode::kWindowColumns; ++i) c.columns[size_t(i)] = w.columns[size_t(i)];
    t.windows.push_back(c);
  }
  return t;
}

RtlStepRunner::RtlStepRunner(const rtl::DramOptions& mem, int window_cycles,
                             bool untraced_on_isa)
    : mem_(mem), window_cycles_(window_cycles), untraced_on_isa_(untraced_on_isa) {}

Status RtlStepRunner::Load(const workloads::WorkloadRun& run) {
  ASSIGN_OR_RETURN(harness_, rtl::RtlHarness::Create(run.config));
  dram_ = std::make_unique<SparseMemory>(run.image);
  isa_steps_ = rtl_steps_ = 0;
  isa_.reset();
  RETURN_IF_ERROR(harness_->LoadProgram(run.program));
  if (untraced_on_isa_) {
    // Both borrow the one DRAM, so the hand-over moves only the core's own memories.
    isa_ = std::make_unique<sim::IsaSim>(run.config, dram_.get());
    RETURN_IF_ERROR(isa_->LoadProgram(run.program));
  }
  return OkStatus();
}

void RtlStepRunner::HandOver() {
  harness_->WriteTmem(0, isa_->tmem());
  harness_->WriteActRam(isa_->act_ram());
  isa_.reset();
}

Status RtlStepRunner::WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) {
  if (!harness_) return Internal("RTL harness: WriteDram before Load");
  if (!dram_->Contains(addr, bytes.size()))
    return InvalidArgument(StrFormat("step write of %zu bytes at DRAM 0x%llx is outside DRAM",
                                     bytes.size(), (unsigned long long)addr));
  dram_->Write(addr, bytes.data(), bytes.size());
  return OkStatus();
}

StatusOr<trace::RunEvents> RtlStepRunner::Run(const workloads::Step& step) {
  if (!harness_) return Internal("RTL harness: Run before Load");
  if (isa_ && !step.traced) {
    sim::IsaRunOptions iopts;
    iopts.args = step.args;
    iopts.record_events = false;
    StatusOr<trace::RunEvents> events = isa_->Run(iopts);
    if (!events.ok()) return events.status().WithContext("ISA simulator (untraced step)");
    ++isa_steps_;
    return events;
  }
  if (isa_) HandOver();
  ++rtl_steps_;
  rtl::RtlRunOptions opts;
  opts.args = step.args;
  opts.mem = mem_;
  opts.window = uint32_t(window_cycles_);
  opts.record_events = step.traced;
  ASSIGN_OR_RETURN(last_, harness_->Run(dram_.get(), opts));
  if (last_.stop != rtl::Stop::kHalt) {
    std::string why = rtl::StopName(last_.stop);
    if (!last_.error.empty()) why += ": " + last_.error;
    return Internal(StrFormat("RTL run (%s memory) stopped at cycle %lld by %s",
                              mem_.Name().c_str(), (long long)last_.events.cycles, why.c_str()));
  }
  return last_.events;
}

StatusOr<Profile> RtlStepRunner::BuildStepProfile(const std::string& name,
                                                  const workloads::WorkloadRun& run,
                                                  const trace::RunEvents& events,
                                                  int bucket_cycles) {
  if (bucket_cycles != window_cycles_)
    return InvalidArgument(StrFormat("bucket of %d cycles, but the core counted windows of %d",
                                     bucket_cycles, window_cycles_));
  return BuildRtlProfile(name, run.config, run.program, ToTraceRun(events, last_.windows, last_.ports, last_.stop == rtl::Stop::kHalt), bucket_cycles,
                         mem_.Name());
}

}  // namespace otpu::lens
