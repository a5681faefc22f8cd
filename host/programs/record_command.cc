#include "host/programs/record_command.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>

#include <string.h>

#include "base/progress.h"
#include "base/strings.h"
#include "host/card.h"
#include "host/stop_request.h"
#include "lens/board_record.h"
#include "lens/cli/commands.h"
#include "lens/greedy_tap.h"
#include "lens/otpuprof.h"

namespace otpu::host {

using lens::cli::Fail;

namespace {

// "otpu-lens record: step 2/5 (traced), 12.3M cycles, 5.32M records, elapsed 15s, about 40s
// left": the time left from the steps done and, inside a step, its cycles so far against the
// previous step's (decode steps at nearby positions take about as long).
std::string ProgressText(const lens::RecordProgress& p, double elapsed) {
  const int64_t cycles = p.cycles_done + std::max<int64_t>(0, p.step_cycles);
  double in_step = p.running ? 0 : 1;
  if (p.running && p.expect_cycles > 0 && p.step_cycles > 0) {
    in_step = std::min(0.99, double(p.step_cycles) / double(p.expect_cycles));
  }
  const double share = p.steps > 0 ? (p.step + in_step) / p.steps : 0;
  std::string text = StrFormat("otpu-lens record: step %d/%d%s, %s cycles", p.step + 1, p.steps,
                               p.traced ? " (traced)" : "", FormatCount(double(cycles)).c_str());
  if (p.traced) text += ", " + FormatCount(double(p.records)) + " records";
  return text + ", " + ElapsedAndLeft(elapsed, share);
}

}  // namespace

int RecordOn(BoardIface& board, const RecordArgs& args) {
  const std::string prog = "otpu-lens record: ";
  StatusOr<std::unique_ptr<lens::BoardRecorder>> recorder = lens::BoardRecorder::Probe(&board);
  if (!recorder.ok()) return Fail(lens::cli::kExitFailure, prog + recorder.status().message());
  (*recorder)->card().set_note_sink([](const std::string& note) {
    std::fprintf(stderr, "otpu-lens record: note: %s\n", note.c_str());
  });
  const CardInfo& info = (*recorder)->info();
  const std::string trace =
      info.has_trace() ? StrFormat("trace buffer of %lld records, read through %s%s",
                                   (long long)info.trace_depth(),
                                   info.has_trace_window() ? "the DMA window" : "TRACE_LO/HI",
                                   info.has_trace_stream() ? ", which can stream (CAPS bit2)" : "")
                       : std::string("no trace buffer: counters only");
  std::printf("%s: register map %d, config %s (VERSION 0x%08X), %s\n", board.Describe().c_str(),
              info.regmap, info.config.name.c_str(), info.version, trace.c_str());
  std::fflush(stdout);
  if (!info.has_trace()) {
    std::fprintf(stderr,
                 "otpu-lens record: note: the bitstream on %s has no trace buffer (register map "
                 "%d): the profiles are counters only (kind board)\n",
                 board.Describe().c_str(), info.regmap);
  }

  ProgressLine line(stderr, args.progress);
  line.Update(args.checkpoint ? "otpu-lens record: loading " + args.checkpoint->model +
                                    " and building its image"
                              : "otpu-lens record: building " + args.workload);
  StatusOr<workloads::WorkloadRun> run =
      args.checkpoint ? models::MakeCheckpointRun(*args.checkpoint, info.config)
                      : workloads::MakeTracedWorkload(args.workload, info.config, args.trace);
  if (!run.ok()) {
    line.Done();
    // An unknown workload or steps it does not have: the command line asked for them. A
    // checkpoint that is not there is a failure (the default one may simply not be fetched).
    // Bad checkpoint input (any file of it, any check) is DataLoss: exit 4, as a bad profile.
    const StatusCode code = run.status().code();
    const bool usage = code == StatusCode::kInvalidArgument ||
                       (code == StatusCode::kNotFound && !args.checkpoint);
    return Fail(code == StatusCode::kDataLoss ? lens::cli::kExitBadFile
                : usage                       ? lens::cli::kExitUsage
                                              : lens::cli::kExitFailure,
                prog + run.status().message());
  }

  if (args.rtl_parity) {
    std::vector<bool> traced;
    for (const workloads::Step& step : run->steps) traced.push_back(step.traced);
    args.rtl_parity->SetTraced(std::move(traced));
  }

  lens::BoardRecordOptions opts;
  opts.runner.keep = args.keep;
  opts.runner.timeout = args.timeout;
  opts.runner.mem = args.mem;
  opts.greedy = args.checkpoint.has_value();
  if (line.enabled()) {
    opts.progress = [&line](const lens::RecordProgress& p) {
      line.Update(ProgressText(p, line.Elapsed()));
    };
  }
  const auto start = std::chrono::steady_clock::now();
  StatusOr<lens::BoardRecording> rec = (*recorder)->Record(*run, opts);
  line.Done();
  if (int sig = StopSignal()) {
    // SIGINT/SIGTERM: the run loop stopped the run, so the profiles would be of a cut run;
    // write nothing.
    return Fail(128 + sig, prog + (rec.ok() ? "interrupted by SIG" + std::string(sigabbrev_np(sig))
                                            : rec.status().message()) +
                               "; no profile written");
  }
  if (!rec.ok()) return Fail(lens::cli::kExitFailure, prog + rec.status().message());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%zu steps in %.2f s, %zu traced\n", run->steps.size(), seconds,
              rec->profiles.size());

  lens::ProfileFile file;
  file.created = lens::NowIso8601();
  for (lens::Profile& p : rec->profiles) {
    std::printf("%s\n", lens::ProfileLine(p).c_str());
    for (const std::string& w : lens::LossWarnings(p)) std::printf("%s\n", w.c_str());
    file.profiles.push_back(std::move(p));
  }
  std::printf("%s: check ok: %s\n", run->name.c_str(), rec->check.detail.c_str());
  if (args.checkpoint) std::printf("%s\n", lens::GreedyLine(rec->greedy_tokens).c_str());
  if (args.rtl_parity) {
    StatusOr<std::vector<lens::decode::TraceRun>> runs = args.rtl_parity->TracedRuns();
    StatusOr<std::string> first =
        runs.ok() ? RtlParity(file.profiles, *runs, info.config, run->program,
                              rec->bucket_cycles, args.mem)
                  : StatusOr<std::string>(runs.status());
    if (!first.ok()) {
      return Fail(lens::cli::kExitFailure, prog + "rtl parity: " + first.status().message());
    }
    if (!first->empty()) {
      return Fail(lens::cli::kExitFailure,
                  prog + "rtl parity: the hw profile differs from the rtl profile of its run: " +
                      *first + "; no profile written");
    }
    size_t instrs = 0;
    for (const lens::Profile& p : file.profiles) instrs += p.instrs.size();
    std::printf("rtl parity: %s (%zu instructions)\n",
                file.profiles.size() == 1
                    ? "the hw profile equals the rtl profile of its run"
                    : StrFormat("the %zu hw profiles equal the rtl profiles of their runs",
                                file.profiles.size()).c_str(),
                instrs);
  }
  Status written = lens::Write(args.out, file);
  if (!written.ok()) return Fail(lens::cli::kExitFailure, prog + written.message());
  std::printf("wrote %s (%zu profile%s)\n", args.out.c_str(), file.profiles.size(),
              file.profiles.size() == 1 ? "" : "s");
  std::fflush(stdout);
  return lens::cli::kExitOk;
}

}  // namespace otpu::host
