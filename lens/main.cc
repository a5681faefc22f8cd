// lens: records workloads into .otpuprof profiles and summarises profile files (docs/cli.md).
// Exit codes: 0 ok, 1 failure (I/O, failed check), 2 usage, 4 bad profile file.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "base/exit_codes.h"
#include "base/cli.h"
#include "lens/cli/commands.h"
#include "lens/otpuprof.h"
#include "lens/recorder.h"
#include "lens/rtl_step_runner.h"
#include "sim/rtl/rtl_configs.h"
#include "sim/rtl/stall_percent.h"
#include "workloads/list.h"
#include "workloads/traced_steps.h"
#include "workloads/version.h"

namespace otpu::lens {
namespace {

namespace po = boost::program_options;
using cli::Fail;
using cli::kExitFailure;
using cli::kExitOk;
using cli::kExitUsage;

void DescribeRecord(otpu::cli::Spec* spec) {
  spec->visible.add_options()("out,o", po::value<std::string>()->value_name("FILE"),
                              "profile file to write (required)")(
      "isa", po::bool_switch(), "run on the ISA simulator (analytic timing)")(
      "config", po::value<std::string>()->value_name("CONFIG"),
      ("RTL configuration: " + rtl::BuiltConfigNames() + " (default " + rtl::BuiltConfig().name +
       "; --isa: sim)").c_str())(
      "stall", po::value<int>()->value_name("N"),
      "RTL: DRAM withholds ready in N% of cycles, 0..99 (seeded)")(
      "axi", po::bool_switch(), "RTL: the board's two-channel DRAM model (with --stall too)")(
      "bucket", po::value<int>()->value_name("N")->default_value(kDefaultBucketCycles),
      "counter window, cycles")(
      "pos", po::value<int>()->value_name("N"), "step (decode position) to trace")(
      "open", po::bool_switch(), "serve the written file in the Lens app, as lens open FILE");
  cli::AddOpenOptions(spec);
  spec->hidden.add_options()(
      "workload", po::value<std::vector<std::string>>()->value_name("WORKLOAD"),
      "workload names (see lens list)");
  spec->positional.add("workload", -1);
}

int Record(const std::vector<std::string>& args) {
  otpu::cli::Spec spec;
  DescribeRecord(&spec);
  po::variables_map vm;
  if (!cli::Parse("lens", "record", args, spec, &vm)) return kExitUsage;
  if (!vm.count("workload"))
    return Fail(kExitUsage, "lens record: name a workload (see lens list)");
  if (!vm.count("out"))
    return Fail(kExitUsage, "lens record: missing -o FILE (the profile to write)");
  const bool isa = vm["isa"].as<bool>();
  // The configuration the workloads are built for; the RTL runner picks the Verilated core of
  // that configuration (both are built: sim/rtl/rtl_configs.h).
  isa::Config config = isa ? isa::Config::Sim() : rtl::BuiltConfig();
  if (vm.count("config")) {
    StatusOr<isa::Config> named = rtl::BuiltConfigNamed(vm["config"].as<std::string>());
    if (!named.ok()) return Fail(kExitUsage, "lens record: --config: " + named.status().message());
    config = *named;
  }
  rtl::DramOptions mem;
  if (vm["axi"].as<bool>()) {
    if (isa) return Fail(kExitUsage, "lens record: --axi selects an RTL memory; drop --isa");
    mem.axi = true;
  }
  if (vm.count("stall")) {
    if (isa) return Fail(kExitUsage, "lens record: --stall selects an RTL memory; drop --isa");
    mem.stall_percent = vm["stall"].as<int>();
    if (Status s = rtl::CheckStallPercent(mem.stall_percent); !s.ok())
      return Fail(kExitUsage, "lens record: " + s.message());
  }
  const bool open = vm["open"].as<bool>();
  if (!open && (!vm["port"].defaulted() || vm["no-browser"].as<bool>())) {
    return Fail(kExitUsage, std::string("lens record: ") +
                                (vm["no-browser"].as<bool>() ? "--no-browser" : "--port") +
                                ": only with --open");
  }
  if (std::string why = cli::PortProblem(vm); !why.empty())
    return Fail(kExitUsage, "lens record: " + why);
  RecordOptions ropts;
  ropts.bucket_cycles = vm["bucket"].as<int>();
  if (ropts.bucket_cycles < 1) {
    return Fail(kExitUsage, "lens record: --bucket " + std::to_string(ropts.bucket_cycles) +
                                ": the counter window must be at least 1 cycle");
  }
  const std::string out = vm["out"].as<std::string>();
  if (std::string why = cli::OutputProblem(out); !why.empty()) {
    return Fail(kExitUsage, "lens record: " + why);
  }

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
        workloads::MakeWorkload(name, config, wopts);
    if (!run.ok()) {
      int code = run.status().code() == StatusCode::kNotFound ? kExitUsage : kExitFailure;
      return Fail(code, "lens record: " + run.status().message());
    }
    if (vm.count("pos") && !positional && !workloads::TraceSteps(&*run, vm["pos"].as<int>(), 1)) {
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
  if (open) {
    std::fflush(stdout);
    return cli::OpenFile("lens", out, vm);
  }
  return kExitOk;
}

int Main(int argc, char** argv) {
  otpu::cli::Program program;
  program.name = "lens";
  program.summary = "Lens, the openTPU profiler: records workloads on the RTL or the ISA simulator "
                    "and explores profile files (docs/cli.md).";
  program.family = otpu::exit_codes::Family::kLens;
  otpu::cli::Command record;
  record.name = "record";
  record.synopsis = "WORKLOAD... -o FILE [--config CONFIG] [--isa | [--axi] [--stall N]] "
                    "[--bucket N] [--pos N] [--open [--port N] [--no-browser]]";
  record.summary = "run workloads on the Verilated core (or --isa) and write their profiles";
  record.describe = DescribeRecord;
  record.run = Record;
  program.commands = {cli::ListCommand("lens"),    record,
                      cli::InfoCommand("lens"),    cli::SummaryCommand("lens"),
                      cli::DiffCommand("lens"),    cli::OpenCommand("lens"),
                      cli::HtmlCommand("lens"),    cli::ExportCommand("lens")};
  cli::AddCompletionValues(&program);
  program.values["CONFIG"] = [] {
    std::vector<std::string> names;
    for (const isa::Config& c : rtl::BuiltConfigs()) names.push_back(c.name);
    return names;
  };
  return otpu::cli::RunProgram(program, argc, argv);
}

}  // namespace
}  // namespace otpu::lens

int main(int argc, char** argv) {
  if (otpu::PrintVersionIfAsked("lens", argc, argv)) return 0;
  try {
    return otpu::lens::Main(argc, argv);
  } catch (const std::exception& e) {  // out of memory and the like: still one line
    std::cerr << "lens: " << e.what() << "\n";
    return 1;
  }
}
