#include "lens/board_record.h"

#include <optional>
#include <utility>

#include "base/strings.h"
#include "lens/greedy_tap.h"
#include "lens/recorder.h"
#include "workloads/captured_check.h"

namespace otpu::lens {

namespace {

// Reports each step's start and end, and the run in progress at every poll of the card.
class ProgressTap : public StepRunner {
 public:
  ProgressTap(StepRunner* inner, const BoardStepRunner* board, host::Card* card,
              std::function<void(const RecordProgress&)> report)
      : inner_(inner), board_(board), card_(card), report_(std::move(report)) {
    card_->set_poll_observer([this](host::PollWait, uint32_t) {
      if (!in_run_) return;
      at_.step_cycles = board_->cycle_so_far() >= 0 ? board_->cycle_so_far() + 1 : -1;
      at_.records = board_->records_so_far();
      report_(at_);
    });
  }
  ~ProgressTap() override { card_->set_poll_observer(nullptr); }

  ProfileKind kind() const override { return inner_->kind(); }
  Status Load(const workloads::WorkloadRun& run) override {
    at_.steps = int(run.steps.size());
    at_.step = -1;
    return inner_->Load(run);
  }
  Status WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) override {
    return inner_->WriteDram(addr, bytes);
  }
  StatusOr<trace::RunEvents> Run(const workloads::Step& step) override {
    ++at_.step;
    at_.traced = step.traced;
    at_.running = true;
    at_.step_cycles = -1;
    at_.records = 0;
    report_(at_);
    in_run_ = true;
    StatusOr<trace::RunEvents> events = inner_->Run(step);
    in_run_ = false;
    if (!events.ok()) return events;
    at_.running = false;
    at_.step_cycles = events->cycles;
    at_.records = board_->records_so_far();
    report_(at_);
    at_.cycles_done += events->cycles;
    at_.expect_cycles = events->cycles;
    return events;
  }
  const SparseMemory& dram() const override { return inner_->dram(); }
  StatusOr<Profile> BuildStepProfile(const std::string& name, const workloads::WorkloadRun& run,
                                     const trace::RunEvents& events, int bucket_cycles) override {
    return inner_->BuildStepProfile(name, run, events, bucket_cycles);
  }

 private:
  StepRunner* inner_;
  const BoardStepRunner* board_;
  host::Card* card_;
  std::function<void(const RecordProgress&)> report_;
  RecordProgress at_;
  bool in_run_ = false;
};

}  // namespace

StatusOr<std::unique_ptr<BoardRecorder>> BoardRecorder::Probe(host::BoardIface* board) {
  ASSIGN_OR_RETURN(std::unique_ptr<host::Card> card, host::Card::Probe(board));
  return std::unique_ptr<BoardRecorder>(new BoardRecorder(board, std::move(card)));
}

StatusOr<BoardRecording> BoardRecorder::Record(const workloads::WorkloadRun& run,
                                               const BoardRecordOptions& options) {
  const host::CardInfo& info = card_->info();
  if (options.need_trace && !info.has_trace()) {
    return FailedPrecondition(StrFormat("%s has no trace buffer (register map %d)",
                                        board_->Describe().c_str(), info.regmap));
  }
  if (info.config.Version() != run.config.Version()) {
    return FailedPrecondition(
        StrFormat("%s is configuration VERSION 0x%08x, workload %s needs 0x%08x",
                  board_->Describe().c_str(), info.config.Version(), run.name.c_str(),
                  run.config.Version()));
  }
  BoardRecording out;
  out.info = info;
  BoardStepRunner board_runner(card_.get(), options.runner);
  GreedyTap greedy(&board_runner);
  StepRunner* runner = options.greedy ? static_cast<StepRunner*>(&greedy)
                                      : static_cast<StepRunner*>(&board_runner);
  std::optional<ProgressTap> progress;
  if (options.progress) runner = &progress.emplace(runner, &board_runner, card_.get(),
                                                   options.progress);
  RecordOptions rec_opts;
  // A hw profile's buckets are the core's own counter windows; a board without a trace buffer
  // has none, and its counters-only profiles keep the default.
  if (info.has_trace()) rec_opts.bucket_cycles = int(info.counter_window());
  out.bucket_cycles = rec_opts.bucket_cycles;
  workloads::CheckReport captured;
  StatusOr<Recording> rec =
      options.capture_check
          ? lens::Record(workloads::WithCapturedCheck(run, &captured), *runner, rec_opts)
          : lens::Record(run, *runner, rec_opts);
  RETURN_IF_ERROR(rec.status());
  out.profiles = std::move(rec->profiles);
  out.check = options.capture_check ? captured : rec->check;
  out.dram = board_runner.dram();
  out.greedy_tokens = greedy.tokens();
  return out;
}

StatusOr<BoardRecording> RecordOnBoard(host::BoardIface& board, const workloads::WorkloadRun& run,
                                       const BoardRecordOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<BoardRecorder> recorder, BoardRecorder::Probe(&board));
  return recorder->Record(run, options);
}

std::string ProfileLine(const Profile& p) {
  std::string line =
      StrFormat("%s: %s profile, %lld cycles, %.1f%% of the roofline", p.name.c_str(),
                KindName(p.kind), (long long)p.cycles, 100 * p.roofline.efficiency);
  if (!p.hwtrace) return line + ", counters only (no trace buffer)";
  const HwTrace& t = *p.hwtrace;
  return line + StrFormat(", %lld records (count %lld, drop %lld, lost %lld, %s)",
                          (long long)t.records, (long long)t.count, (long long)t.drop,
                          (long long)t.lost,
                          t.keep == "stream" ? "streamed"
                          : t.wrapped        ? "wrapped"
                                             : "not wrapped");
}

std::vector<std::string> LossWarnings(const Profile& p) {
  std::vector<std::string> lines;
  if (!p.hwtrace || p.hwtrace->complete) return lines;
  const HwTrace& t = *p.hwtrace;
  const std::string head = "warning: " + p.name + ": ";
  if (t.drop > 0) {
    lines.push_back(head + StrFormat("the capture queue dropped %lld events (TRACE_DROP)%s",
                                     (long long)t.drop,
                                     t.keep == "stream" ? ": the host fell behind the stream" : ""));
  }
  if (t.lost > 0 && t.keep == "stream") {
    lines.push_back(head + StrFormat("%lld of %lld records were not drained", (long long)t.lost,
                                     (long long)t.count));
  } else if (t.lost > 0) {
    const std::string what =
        t.keep == "last" ? std::string("the ring kept the last ones")
                         : "the run after cycle " + std::to_string(t.traced_to) + " is missing";
    lines.push_back(head + StrFormat("%lld of %lld records did not fit the buffer of %lld: %s",
                                     (long long)t.lost, (long long)t.count, (long long)t.depth,
                                     what.c_str()));
  }
  if (lines.empty()) {
    lines.push_back(head + StrFormat("the trace is incomplete (%lld instructions without an end)",
                                     (long long)t.open_at_end));
  }
  return lines;
}

}  // namespace otpu::lens
