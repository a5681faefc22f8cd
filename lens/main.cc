// lens: records workloads into .otpuprof profiles and summarises profile files (docs/cli.md).
// Exit codes: 0 ok, 1 failure (I/O, failed check), 2 usage, 4 bad profile file.
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "lens/app/page.h"
#include "lens/app_server.h"
#include "lens/chrome_trace.h"
#include "lens/html_export.h"
#include "lens/info.h"
#include "lens/otpuprof.h"
#include "lens/recorder.h"
#include "lens/rtl_step_runner.h"
#include "lens/summary.h"
#include "workloads/list.h"

namespace otpu::lens {
namespace {

namespace po = boost::program_options;

enum ExitCode { kExitOk = 0, kExitFailure = 1, kExitUsage = 2, kExitBadFile = 4 };

constexpr const char* kUsage =
    "usage: lens list\n"
    "       lens record WORKLOAD... -o FILE [--isa | [--axi] [--stall N]] [--bucket N] [--pos N]\n"
    "       lens info FILE\n"
    "       lens summary FILE [--json]\n"
    "       lens open [FILE] [--port N] [--no-browser]\n"
    "       lens html FILE -o OUT.html\n"
    "       lens export FILE --chrome-trace -o OUT.json.gz\n";

constexpr const char* kCommands = "list, record, info, summary, open, html, export";

// The one stderr line of a failure, and its exit code.
int Fail(int code, const std::string& line) {
  std::cerr << line << "\n";
  return code;
}

// Parses `args` against `opts` (positionals into `pos`); false (and the usage error printed)
// when they do not fit.
bool Parse(const std::string& cmd, const std::vector<std::string>& args,
           const po::options_description& opts, const po::positional_options_description& pos,
           po::variables_map* vm) {
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), *vm);
    po::notify(*vm);
  } catch (const po::error& e) {
    Fail(kExitUsage, "lens " + cmd + ": " + e.what());
    return false;
  }
  return true;
}

int List(const std::vector<std::string>& args) {
  if (!args.empty()) return Fail(kExitUsage, "lens list: unexpected argument '" + args[0] + "'");
  for (const workloads::WorkloadInfo& w : workloads::ListWorkloads()) {
    std::printf("%-10s %s\n", w.name.c_str(), w.description.c_str());
  }
  return kExitOk;
}

// Marks step `pos` as the one traced; false when the workload has no such step.
bool TraceStep(workloads::WorkloadRun* run, int pos) {
  if (pos < 0 || size_t(pos) >= run->steps.size()) return false;
  for (size_t i = 0; i < run->steps.size(); ++i) run->steps[i].traced = i == size_t(pos);
  return true;
}

int Record(const std::vector<std::string>& args) {
  po::options_description opts("lens record options");
  opts.add_options()("out,o", po::value<std::string>(), "profile file to write")(
      "isa", po::bool_switch(), "run on the ISA simulator (analytic timing)")(
      "stall", po::value<int>(), "RTL: DRAM withholds ready in N% of cycles (seeded)")(
      "axi", po::bool_switch(), "RTL: the board's two-channel DRAM model (with --stall too)")(
      "bucket", po::value<int>()->default_value(kDefaultBucketCycles), "counter window, cycles")(
      "pos", po::value<int>(), "step (decode position) to trace")(
      "workload", po::value<std::vector<std::string>>(), "workload names (see lens list)");
  po::positional_options_description pos;
  pos.add("workload", -1);
  po::variables_map vm;
  if (!Parse("record", args, opts, pos, &vm)) return kExitUsage;
  if (!vm.count("workload"))
    return Fail(kExitUsage, "lens record: name a workload (see lens list)");
  if (!vm.count("out"))
    return Fail(kExitUsage, "lens record: missing -o FILE (the profile to write)");
  const bool isa = vm["isa"].as<bool>();
  rtl::DramOptions mem;
  if (vm["axi"].as<bool>()) {
    if (isa) return Fail(kExitUsage, "lens record: --axi selects an RTL memory; drop --isa");
    mem.axi = true;
  }
  if (vm.count("stall")) {
    if (isa) return Fail(kExitUsage, "lens record: --stall selects an RTL memory; drop --isa");
    mem.stall_percent = vm["stall"].as<int>();
    if (mem.stall_percent < 0 || mem.stall_percent > 99)
      return Fail(kExitUsage, "lens record: --stall " + std::to_string(mem.stall_percent) +
                                  ": expected a percent of cycles from 0 to 99");
  }
  RecordOptions ropts;
  ropts.bucket_cycles = vm["bucket"].as<int>();
  if (ropts.bucket_cycles < 1) {
    return Fail(kExitUsage, "lens record: --bucket " + std::to_string(ropts.bucket_cycles) +
                                ": the counter window must be at least 1 cycle");
  }
  const std::string out = vm["out"].as<std::string>();

  // Build every workload first: an unknown name fails before anything runs.
  std::vector<workloads::WorkloadRun> runs;
  for (const std::string& name : vm["workload"].as<std::vector<std::string>>()) {
    // A decode workload builds its steps up to the --pos position; the others trace step --pos.
    const bool positional = workloads::TakesPosition(name);
    workloads::WorkloadOptions wopts;
    if (vm.count("pos") && positional) {
      wopts.pos = vm["pos"].as<int>();
      if (wopts.pos < 0)
        return Fail(kExitUsage, "lens record: --pos " + std::to_string(wopts.pos) +
                                    ": a position is at least 0");
    }
    StatusOr<workloads::WorkloadRun> run =
        workloads::MakeWorkload(name, isa ? isa::Config::Sim() : rtl::BuiltConfig(), wopts);
    if (!run.ok()) {
      int code = run.status().code() == StatusCode::kNotFound ? kExitUsage : kExitFailure;
      return Fail(code, "lens record: " + run.status().message());
    }
    if (vm.count("pos") && !positional && !TraceStep(&*run, vm["pos"].as<int>())) {
      return Fail(kExitUsage, "lens record: --pos " + std::to_string(vm["pos"].as<int>()) +
                                  ": workload " + name + " has steps 0.." +
                                  std::to_string(int(run->steps.size()) - 1));
    }
    runs.push_back(std::move(run).value());
  }

  ProfileFile file;
  file.created = NowIso8601();
  for (const workloads::WorkloadRun& run : runs) {
    std::unique_ptr<StepRunner> runner;
    RtlStepRunner* rtl_runner = nullptr;
    if (isa) {
      runner = std::make_unique<IsaStepRunner>();
    } else {
      // The steps before the traced one (a decode's earlier positions) run untimed on the ISA
      // simulator; the RTL takes over the machine state for the traced step.
      auto r = std::make_unique<RtlStepRunner>(mem, ropts.bucket_cycles, /*untraced_on_isa=*/true);
      rtl_runner = r.get();
      runner = std::move(r);
    }
    StatusOr<Recording> rec = lens::Record(run, *runner, ropts);
    if (!rec.ok()) return Fail(kExitFailure, "lens record: " + rec.status().message());
    if (rtl_runner && rtl_runner->isa_steps() > 0) {
      std::printf("%s: %d untraced step%s on the ISA simulator, then %d on the RTL\n",
                  run.name.c_str(), rtl_runner->isa_steps(),
                  rtl_runner->isa_steps() == 1 ? "" : "s", rtl_runner->rtl_steps());
    }
    for (Profile& p : rec->profiles) {
      std::printf("%s: %s profile, %lld cycles, %.1f%% of the roofline, %zu instructions\n",
                  p.name.c_str(), KindName(p.kind), (long long)p.cycles,
                  100 * p.roofline.efficiency, p.instrs.size());
      file.profiles.push_back(std::move(p));
    }
    std::printf("%s: check ok: %s\n", run.name.c_str(), rec->check.detail.c_str());
  }
  Status written = Write(out, file);
  if (!written.ok()) return Fail(kExitFailure, "lens record: " + written.message());
  std::printf("wrote %s (%zu profile%s)\n", out.c_str(), file.profiles.size(),
              file.profiles.size() == 1 ? "" : "s");
  return kExitOk;
}

// The one FILE positional of `cmd`: its path, or "" (and the usage error printed) when there is
// none (and `required`) or more than one.
bool OneFile(const std::string& cmd, const po::variables_map& vm, bool required, std::string* path) {
  if (!vm.count("file")) {
    if (required) Fail(kExitUsage, "lens " + cmd + ": name a profile FILE");
    return !required;
  }
  const std::vector<std::string>& files = vm["file"].as<std::vector<std::string>>();
  if (files.size() > 1) {
    Fail(kExitUsage, "lens " + cmd + ": one FILE at a time (also got '" + files[1] + "')");
    return false;
  }
  *path = files[0];
  return true;
}

// Reads a profile file for `cmd`; on failure prints the error and sets *code.
std::optional<ProfileFile> ReadFor(const std::string& cmd, const std::string& path, int* code) {
  StatusOr<ProfileFile> file = Read(path);
  if (!file.ok()) {
    *code = Fail(file.status().code() == StatusCode::kDataLoss ? kExitBadFile : kExitFailure,
                 "lens " + cmd + ": " + file.status().message());
    return std::nullopt;
  }
  return std::move(file).value();
}

int Info(const std::vector<std::string>& args) {
  po::options_description opts("lens info options");
  opts.add_options()("file", po::value<std::vector<std::string>>(), "profile file");
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  std::string path;
  if (!Parse("info", args, opts, pos, &vm) || !OneFile("info", vm, true, &path)) return kExitUsage;
  int code = kExitOk;
  std::optional<ProfileFile> file = ReadFor("info", path, &code);
  if (!file) return code;
  std::fputs(InfoText(*file, path).c_str(), stdout);
  return kExitOk;
}

int Summary(const std::vector<std::string>& args) {
  po::options_description opts("lens summary options");
  opts.add_options()("file", po::value<std::vector<std::string>>(), "profile file")
      ("json", po::bool_switch(), "print JSON instead of text");
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  std::string path;
  if (!Parse("summary", args, opts, pos, &vm) || !OneFile("summary", vm, true, &path)) return kExitUsage;
  int code = kExitOk;
  std::optional<ProfileFile> file = ReadFor("summary", path, &code);
  if (!file) return code;
  std::fputs((vm["json"].as<bool>() ? SummaryJson(*file, path) : SummaryText(*file, path)).c_str(), stdout);
  return kExitOk;
}

int Html(const std::vector<std::string>& args) {
  po::options_description opts("lens html options");
  opts.add_options()("file", po::value<std::vector<std::string>>(), "profile file")
      ("out,o", po::value<std::string>(), "page to write");
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  std::string path;
  if (!Parse("html", args, opts, pos, &vm) || !OneFile("html", vm, true, &path)) return kExitUsage;
  if (!vm.count("out")) return Fail(kExitUsage, "lens html: missing -o OUT (the page to write)");
  const std::string out = vm["out"].as<std::string>();
  StatusOr<HtmlExportInfo> info = ExportHtml(path, out);
  if (!info.ok()) {
    return Fail(info.status().code() == StatusCode::kDataLoss ? kExitBadFile : kExitFailure,
                "lens html: " + info.status().message());
  }
  std::printf("wrote %s (%.1f MB, %d profile%s); open it in a browser: file://%s\n", out.c_str(),
              double(info->page_bytes) / 1e6, info->profiles, info->profiles == 1 ? "" : "s",
              std::filesystem::absolute(out).c_str());
  return kExitOk;
}

int Open(const std::vector<std::string>& args) {
  po::options_description opts("lens open options");
  opts.add_options()("file", po::value<std::vector<std::string>>(), "profile file")
      ("port", po::value<int>()->default_value(0), "port on 127.0.0.1 (0: any free one)")
      ("no-browser", po::bool_switch(), "do not open a browser");
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  std::string path;
  if (!Parse("open", args, opts, pos, &vm) || !OneFile("open", vm, false, &path)) return kExitUsage;
  const int port = vm["port"].as<int>();
  if (port < 0 || port > 65535) {
    return Fail(kExitUsage, "lens open: --port " + std::to_string(port) + ": expected 0 (any free port) to 65535");
  }
  int code = kExitOk;
  if (!path.empty() && !ReadFor("open", path, &code)) return code;  // a bad file fails here, not in the page
  StatusOr<std::unique_ptr<AppServer>> server = AppServer::Create(
      std::string(AppPage()), path.empty() ? "" : std::filesystem::absolute(path).string(), port);
  if (!server.ok()) return Fail(kExitFailure, "lens open: " + server.status().message());
  std::printf("Lens is serving %s at %s (Ctrl-C to stop)\n", path.empty() ? "no profile" : path.c_str(),
              (*server)->Url().c_str());
  if (!vm["no-browser"].as<bool>()) {
    StatusOr<std::string> browser = OpenBrowser((*server)->Url());
    if (!browser.ok()) std::printf("%s\n", browser.status().message().c_str());
  }
  std::fflush(stdout);
  (*server)->Wait();
  return kExitOk;
}

int Export(const std::vector<std::string>& args) {
  po::options_description opts("lens export options");
  opts.add_options()("file", po::value<std::vector<std::string>>(), "profile file")
      ("chrome-trace", po::bool_switch(), "Chrome trace events (Perfetto), gzip-compressed")
      ("out,o", po::value<std::string>(), "file to write");
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  std::string path;
  if (!Parse("export", args, opts, pos, &vm) || !OneFile("export", vm, true, &path)) return kExitUsage;
  if (!vm["chrome-trace"].as<bool>()) return Fail(kExitUsage, "lens export: name a format: --chrome-trace");
  if (!vm.count("out")) return Fail(kExitUsage, "lens export: missing -o OUT (the trace to write)");
  int code = kExitOk;
  std::optional<ProfileFile> file = ReadFor("export", path, &code);
  if (!file) return code;
  const std::string out = vm["out"].as<std::string>();
  Status s = WriteChromeTrace(*file, out);
  if (!s.ok()) return Fail(kExitFailure, "lens export: " + s.message());
  std::printf("wrote %s (Chrome trace events; open it in https://ui.perfetto.dev)\n", out.c_str());
  return kExitOk;
}

int Main(int argc, char** argv) {
  if (argc < 2) return Fail(kExitUsage, "lens: no command (" + std::string(kCommands) + "); see lens --help");
  const std::string cmd = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::fputs(kUsage, stdout);
    return kExitOk;
  }
  if (cmd == "list") return List(args);
  if (cmd == "record") return Record(args);
  if (cmd == "info") return Info(args);
  if (cmd == "summary") return Summary(args);
  if (cmd == "open") return Open(args);
  if (cmd == "html") return Html(args);
  if (cmd == "export") return Export(args);
  return Fail(kExitUsage, "lens: unknown command '" + cmd + "' (" + std::string(kCommands) + ")");
}

}  // namespace
}  // namespace otpu::lens

int main(int argc, char** argv) {
  try {
    return otpu::lens::Main(argc, argv);
  } catch (const std::exception& e) {  // out of memory and the like: still one line
    std::cerr << "lens: " << e.what() << "\n";
    return 1;
  }
}
