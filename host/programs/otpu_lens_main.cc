// otpu-lens: records profiles from a board's trace buffer and explores them (SPEC 9,
// docs/cli.md). list, info, summary, diff, open, html and export are lens's own code
// (lens/cli/commands.h).
// Exit codes: 0 ok, 1 failure, 2 usage, 3 device busy (with a card), 4 bad profile file.
#include <sys/stat.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "base/cli.h"
#include "base/exit_codes.h"
#include "host/lock/device_lock.h"
#include "host/stop_request.h"
#include "host/programs/board_factory.h"
#include "host/programs/record_command.h"
#include "lens/cli/commands.h"
#include "sim/rtl/rtl_configs.h"
#include "base/strings.h"
#include "workloads/list.h"
#include "workloads/models/checkpoint_run.h"
#include "workloads/models/model_source.h"
#include "workloads/models/qwen3_formats.h"
#include "workloads/version.h"

namespace otpu::host {
namespace {

namespace po = boost::program_options;
using lens::cli::Fail;
using lens::cli::kExitFailure;
using lens::cli::kExitOk;
using lens::cli::kExitUsage;

// A card answers a run within the driver's 10 s; the board model is far slower (about 1e5
// cycles/s against 1e8): a run there may take minutes before it counts as hung.
constexpr double kCardTimeoutSeconds = 10;
constexpr double kSimTimeoutSeconds = 30 * 60;

// Options that only a checkpoint's decode takes.
constexpr const char* kCheckpointOnly[] = {"prompt", "prompt-ids", "head-format"};

// Whether the directory `out` goes into exists and is writable, so a long recording does not
// end in an error about its output.
bool OutputDirWritable(const std::string& out, std::string* why) {
  std::filesystem::path dir = std::filesystem::path(out).parent_path();
  if (dir.empty()) dir = ".";
  struct stat st;
  int err = 0;
  if (stat(dir.c_str(), &st) != 0) {
    err = errno;
  } else if (!S_ISDIR(st.st_mode)) {
    err = ENOTDIR;
  } else if (access(dir.c_str(), W_OK) != 0) {
    err = errno;
  }
  if (err == 0) return true;
  *why = "directory " + dir.string() + " is not writable (" + std::strerror(err) + ")";
  return false;
}

// The kernel workload's weight format (--wformat without a checkpoint).
StatusOr<isa::WFormat> KernelWFormat(const std::string& wf) {
  for (isa::WFormat f : {isa::WFormat::kINT8, isa::WFormat::kINT4, isa::WFormat::kFP4}) {
    if (wf == isa::WFormatName(f)) return f;
  }
  return InvalidArgument("--wformat " + wf + ": expected int8, int4 or fp4" +
                         (wf == "mix" ? " (mix is for a checkpoint: --model)" : ""));
}

void DescribeRecord(otpu::cli::Spec* spec) {
  auto add = spec->visible.add_options();
  add("out,o", po::value<std::string>()->value_name("FILE"), "profile file to write (required)");
  add("dev", po::value<std::string>()->value_name("PREFIX"),
      "XDMA device prefix (default /dev/xdma0)");
  add("sim", po::bool_switch(), "the Verilator board model instead of a card");
  add("config", po::value<std::string>()->value_name("CONFIG"),
      ("RTL configuration of the board model with --sim: " + rtl::BuiltConfigNames() +
       " (default " + rtl::BuiltConfig().name + ")").c_str());
  add("model", po::value<std::string>()->value_name("DIR"),
      "Hugging Face checkpoint directory (default models/Qwen3-0.6B on a card)");
  add("prompt", po::value<std::string>()->value_name("TEXT"), "prompt, in the chat template");
  add("prompt-ids", po::value<std::string>()->value_name("IDS"),
      "comma-separated token ids instead of --prompt");
  add("workload", po::value<std::string>()->value_name("WORKLOAD"),
      "a kernel from list, or qwen-tiny (default mlp-small with --sim)");
  add("tokens", po::value<int>()->value_name("N")->default_value(1),
      "steps to trace, one profile each");
  add("pos", po::value<int>()->value_name("N"),
      "first traced position (default the last prompt token) or step");
  add("keep", po::value<std::string>()->value_name("auto|stream|first|last")->default_value("auto"),
      "trace mode: stream it while the core runs, or when the buffer fills stop (first) or keep "
      "a ring (last); auto streams when the card can");
  add("wformat", po::value<std::string>()->value_name("int8|int4|fp4|mix")->default_value("int8"),
      "weight format (mix: a checkpoint's)");
  add("head-format", po::value<std::string>()->value_name("int8|int4|fp4"),
      "LM head weight format (default the layers')");
  add("timeout", po::value<double>()->value_name("SEC"),
      "seconds one run may take (card 10, --sim 1800)");
  add("open", po::bool_switch(), "serve the profile in the Lens app after writing");
  add("progress", po::bool_switch(),
      "a status line on stderr even when it is not a terminal (one line a second)");
  add("rtl-parity", po::bool_switch(),
      "with --sim: also build each traced step's rtl profile from the core's event tap and "
      "fail (writing nothing) unless the hw profile equals it");
  lens::cli::AddOpenOptions(spec);
}

int Record(const std::vector<std::string>& args) {
  otpu::cli::Spec spec;
  DescribeRecord(&spec);
  po::variables_map vm;
  if (!lens::cli::Parse("otpu-lens", "record", args, spec, &vm)) return kExitUsage;
  const std::string prog = "otpu-lens record: ";
  if (!vm.count("out")) return Fail(kExitUsage, prog + "missing -o FILE (the profile to write)");
  BoardChoice choice;
  choice.sim = vm["sim"].as<bool>();
  isa::Config model_config = rtl::BuiltConfig();  // the board model's, with --sim
  if (choice.sim && vm.count("dev")) {
    return Fail(kExitUsage, prog + "--dev and --sim: record on a card or on the board model");
  }
  if (vm.count("dev")) choice.dev = vm["dev"].as<std::string>();
  if (vm.count("config")) {
    if (!choice.sim) {
      return Fail(kExitUsage, prog + "--config: only with --sim (a card's configuration is its "
                                     "bitstream's, read from VERSION)");
    }
    choice.config = vm["config"].as<std::string>();
    const StatusOr<isa::Config> named = rtl::BuiltConfigNamed(choice.config);
    if (!named.ok()) return Fail(kExitUsage, prog + "--config: " + named.status().message());
    model_config = *named;
  }
  if (vm["rtl-parity"].as<bool>() && !choice.sim) {
    return Fail(kExitUsage, prog + "--rtl-parity: only with --sim (the rtl profile comes from "
                                   "the board model's core)");
  }
  if (vm.count("model") && vm.count("workload")) {
    return Fail(kExitUsage, prog + "--model and --workload: record a checkpoint or a workload");
  }
  // A card decodes a checkpoint unless --workload names a kernel; the model runs a workload
  // unless --model names a checkpoint.
  const bool checkpoint = vm.count("model") || (!choice.sim && !vm.count("workload"));
  if (!checkpoint) {
    for (const char* name : kCheckpointOnly) {
      if (vm.count(name)) {
        return Fail(kExitUsage,
                    prog + "--" + name + ": only with a checkpoint (--model DIR), not a workload");
      }
    }
  }
  if (!vm["open"].as<bool>() && (!vm["port"].defaulted() || vm["no-browser"].as<bool>())) {
    return Fail(kExitUsage, prog + (vm["no-browser"].as<bool>() ? "--no-browser" : "--port") +
                                ": only with --open");
  }
  if (std::string why = lens::cli::PortProblem(vm); !why.empty()) return Fail(kExitUsage, prog + why);
  if (vm.count("prompt") && vm.count("prompt-ids")) {
    return Fail(kExitUsage, prog + "--prompt and --prompt-ids: give the prompt one way");
  }

  RecordArgs ra;
  ra.out = vm["out"].as<std::string>();
  const int tokens = vm["tokens"].as<int>();
  if (tokens < 1) {
    return Fail(kExitUsage,
                prog + "--tokens " + std::to_string(tokens) + ": trace at least 1 step");
  }
  int pos = -1;
  if (vm.count("pos")) {
    pos = vm["pos"].as<int>();
    if (pos < 0) {
      return Fail(kExitUsage, prog + "--pos " + std::to_string(pos) + ": a position is at least 0");
    }
  }
  const std::string keep = vm["keep"].as<std::string>();
  if (keep == "auto") {
    ra.keep = lens::TraceKeep::kAuto;
  } else if (keep == "stream") {
    ra.keep = lens::TraceKeep::kStream;
  } else if (keep == "first") {
    ra.keep = lens::TraceKeep::kFirst;
  } else if (keep == "last") {
    ra.keep = lens::TraceKeep::kLast;
  } else {
    return Fail(kExitUsage, prog + "--keep " + keep + ": expected auto, stream, first or last");
  }
  const std::string wf = vm["wformat"].as<std::string>();
  if (checkpoint) {
    models::CheckpointRequest req;
    req.model = vm.count("model") ? vm["model"].as<std::string>()
                                  : std::string(models::kDefaultCheckpointDir);
    req.prompt = vm.count("prompt") ? vm["prompt"].as<std::string>()
                                    : std::string(models::kDefaultPrompt);
    if (vm.count("prompt-ids")) {
      StatusOr<std::vector<int>> ids = models::ParsePromptIds(vm["prompt-ids"].as<std::string>());
      if (!ids.ok()) return Fail(kExitUsage, prog + ids.status().message());
      req.ids = *ids;
    }
    req.pos = pos;
    req.tokens = tokens;
    const std::string hf = vm.count("head-format") ? vm["head-format"].as<std::string>() : "-";
    StatusOr<models::WeightFormats> formats = models::ParseWeightFormats(wf, hf);
    if (!formats.ok()) {
      return Fail(kExitUsage, prog + (formats.status().message().rfind("head", 0) == 0
                                          ? "--head-format: "
                                          : "--wformat: ") +
                                  formats.status().message());
    }
    req.formats = *formats;
    ra.checkpoint = req;
  } else {
    ra.workload = vm.count("workload") ? vm["workload"].as<std::string>() : "mlp-small";
    ra.trace.tokens = tokens;
    ra.trace.pos = pos;
    StatusOr<isa::WFormat> f = KernelWFormat(wf);
    if (!f.ok()) return Fail(kExitUsage, prog + f.status().message());
    ra.trace.wf = *f;
    bool known = false;
    for (const workloads::WorkloadInfo& w : workloads::ListWorkloads())
      known |= w.name == ra.workload;
    if (!known) {
      return Fail(kExitUsage, prog + "unknown workload '" + ra.workload + "' (see otpu-lens list)");
    }
  }
  double timeout_s = choice.sim ? kSimTimeoutSeconds : kCardTimeoutSeconds;
  if (vm.count("timeout")) {
    timeout_s = vm["timeout"].as<double>();
    if (!(timeout_s > 0)) {
      return Fail(kExitUsage,
                  prog + StrFormat("--timeout %g: a run needs more than 0 seconds", timeout_s));
    }
  }
  ra.timeout = std::chrono::milliseconds(int64_t(timeout_s * 1000));
  ra.progress = vm["progress"].as<bool>();
  std::string why;
  struct stat out_st;
  if (stat(ra.out.c_str(), &out_st) == 0 && S_ISDIR(out_st.st_mode)) {
    // Found now, not at the final rename after the whole recording.
    return Fail(kExitUsage, prog + "-o " + ra.out + ": is a directory, not a profile file");
  }
  if (!OutputDirWritable(ra.out, &why)) return Fail(kExitFailure, prog + ra.out + ": " + why);

  // A card is held for the whole recording, so no other tool's runs interleave with ours.
  std::unique_ptr<DeviceLock> lock;
  if (!choice.sim) {
    StatusOr<std::unique_ptr<DeviceLock>> held = DeviceLock::ForTool(choice.dev);
    if (!held.ok()) {
      return Fail(held.status().code() == StatusCode::kUnavailable ? lens::cli::kExitBusy : kExitFailure,
                  prog + held.status().message());
    }
    lock = std::move(*held);
  }
  // From here on SIGINT/SIGTERM stop the run (CTRL=0) and exit 130/143 with one line (while
  // waiting for the lock above they still simply end the program).
  InstallStopHandlers();
  ra.mem = BoardMemoryName(choice);
  std::unique_ptr<RtlParityTap> parity;
  if (vm["rtl-parity"].as<bool>()) {
    parity = std::make_unique<RtlParityTap>(model_config);
    choice.hook = parity.get();
    ra.rtl_parity = parity.get();
  }
  int code = kExitFailure;
  {
    StatusOr<std::unique_ptr<BoardIface>> board = MakeBoard(choice);
    if (!board.ok()) return Fail(kExitFailure, prog + board.status().message());
    code = RecordOn(**board, ra);
  }
  lock.reset();  // the board is closed; --open serves the file without the card
  RestoreStopSignals();  // Ctrl-C ends the server as usual
  if (code != kExitOk || !vm["open"].as<bool>()) return code;
  return lens::cli::OpenFile("otpu-lens", ra.out, vm);
}

int Main(int argc, char** argv) {
  otpu::cli::Program program;
  program.name = "otpu-lens";
  program.summary = "The host frontend of Lens: records profiles from a board's trace buffer (a "
                    "card or the board model) and explores them (docs/cli.md).";
  program.family = otpu::exit_codes::Family::kLens;
  otpu::cli::Command record;
  record.name = "record";
  record.synopsis = "-o FILE [--dev PREFIX | --sim [--config CONFIG]] [--model DIR | --workload "
                    "WORKLOAD] [options]";
  record.summary = "record a checkpoint's decode or a kernel on a card or the board model";
  record.describe = DescribeRecord;
  record.run = Record;
  program.commands = {record,
                      lens::cli::ListCommand("otpu-lens"),
                      lens::cli::InfoCommand("otpu-lens"),
                      lens::cli::SummaryCommand("otpu-lens"),
                      lens::cli::DiffCommand("otpu-lens"),
                      lens::cli::OpenCommand("otpu-lens"),
                      lens::cli::HtmlCommand("otpu-lens"),
                      lens::cli::ExportCommand("otpu-lens")};
  lens::cli::AddCompletionValues(&program);
  program.values["CONFIG"] = [] {
    std::vector<std::string> names;
    for (const isa::Config& c : rtl::BuiltConfigs()) names.push_back(c.name);
    return names;
  };
  return otpu::cli::RunProgram(program, argc, argv);
}

}  // namespace
}  // namespace otpu::host

int main(int argc, char** argv) {
  if (otpu::PrintVersionIfAsked("otpu-lens", argc, argv)) return 0;
  try {
    return otpu::host::Main(argc, argv);
  } catch (const std::exception& e) {  // out of memory and the like: still one line
    std::cerr << "otpu-lens: " << e.what() << "\n";
    return 1;
  }
}
