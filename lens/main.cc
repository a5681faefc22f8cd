// lens: records workloads into .otpuprof profiles and summarises profile files (docs/cli.md).
// Exit codes: 0 ok, 1 failure (I/O, failed check), 2 usage, 4 bad profile file.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "lens/info.h"
#include "lens/otpuprof.h"
#include "lens/recorder.h"
#include "workloads/list.h"

namespace otpu::lens {
namespace {

namespace po = boost::program_options;

enum ExitCode { kExitOk = 0, kExitFailure = 1, kExitUsage = 2, kExitBadFile = 4 };

constexpr const char* kUsage =
    "usage: lens list\n"
    "       lens record WORKLOAD... --isa -o FILE [--bucket N] [--pos N]\n"
    "       lens info FILE\n";

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
  if (!vm["isa"].as<bool>()) {
    return Fail(kExitUsage, "lens record: the RTL path is not built yet; use --isa");
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
    StatusOr<workloads::WorkloadRun> run = workloads::MakeWorkload(name, isa::Config::Sim());
    if (!run.ok()) {
      int code = run.status().code() == StatusCode::kNotFound ? kExitUsage : kExitFailure;
      return Fail(code, "lens record: " + run.status().message());
    }
    if (vm.count("pos") && !TraceStep(&*run, vm["pos"].as<int>())) {
      return Fail(kExitUsage, "lens record: --pos " + std::to_string(vm["pos"].as<int>()) +
                                  ": workload " + name + " has steps 0.." +
                                  std::to_string(int(run->steps.size()) - 1));
    }
    runs.push_back(std::move(run).value());
  }

  ProfileFile file;
  file.created = NowIso8601();
  for (const workloads::WorkloadRun& run : runs) {
    IsaStepRunner runner;
    StatusOr<Recording> rec = lens::Record(run, runner, ropts);
    if (!rec.ok()) return Fail(kExitFailure, "lens record: " + rec.status().message());
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

int Info(const std::vector<std::string>& args) {
  po::options_description opts("lens info options");
  opts.add_options()("file", po::value<std::vector<std::string>>(), "profile file");
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  if (!Parse("info", args, opts, pos, &vm)) return kExitUsage;
  if (!vm.count("file")) return Fail(kExitUsage, "lens info: name a profile FILE");
  const std::vector<std::string>& files = vm["file"].as<std::vector<std::string>>();
  if (files.size() > 1) {
    return Fail(kExitUsage, "lens info: one FILE at a time (also got '" + files[1] + "')");
  }
  const std::string& path = files[0];
  StatusOr<ProfileFile> file = Read(path);
  if (!file.ok()) {
    int code = file.status().code() == StatusCode::kDataLoss ? kExitBadFile : kExitFailure;
    return Fail(code, "lens info: " + file.status().message());
  }
  std::fputs(InfoText(*file, path).c_str(), stdout);
  return kExitOk;
}

int Main(int argc, char** argv) {
  if (argc < 2) return Fail(kExitUsage, "lens: no command (list, record, info); see lens --help");
  const std::string cmd = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::fputs(kUsage, stdout);
    return kExitOk;
  }
  if (cmd == "list") return List(args);
  if (cmd == "record") return Record(args);
  if (cmd == "info") return Info(args);
  return Fail(kExitUsage, "lens: unknown command '" + cmd + "' (list, record, info)");
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
