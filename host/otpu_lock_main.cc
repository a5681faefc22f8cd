// otpu-lock: runs a command while holding the openTPU device lock (SPEC 9, docs/otpu-lock.md).
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "base/cli.h"
#include "base/exit_codes.h"
#include "host/lock/command_runner.h"
#include "host/lock/device_lock.h"
#include "host/lock/prebuild.h"
#include "base/status.h"
#include "workloads/version.h"

namespace po = boost::program_options;

namespace otpu::host {
namespace {

// Exit codes of otpu-lock itself; otherwise it exits with the command's code.
using exit_codes::lock::kExitBusy;
using exit_codes::lock::kExitError;
using exit_codes::lock::kExitUsage;

// Test seam (see CommandOptions::exec_delay_ms): milliseconds the child waits before exec.
constexpr char kExecDelayEnv[] = "OTPU_LOCK_TEST_EXEC_DELAY_MS";

struct Options {
  std::string dev;
  std::string wait;
  std::vector<std::string> prebuilds;
  std::string config;  // --config (deprecated spelling --prebuild-cfg)
  std::vector<std::string> command;
};

// The options; the words from the first positional on are the command (base/cli.h).
void Describe(cli::Spec* spec) {
  spec->visible.add_options()
      ("dev", po::value<std::string>()->value_name("PREFIX")->default_value("/dev/xdma0"),
       "XDMA device prefix to lock")
      ("wait", po::value<std::string>()->value_name("SEC"),
       "seconds to wait for a busy device (0: do not wait; default $OTPU_LOCK_WAIT, else 3600)")
      ("prebuild", po::value<std::vector<std::string>>()->value_name("MODEL:WF:HF")->composing(),
       "quantize into the image cache first, outside the lock (repeatable)")
      ("config", po::value<std::string>()->value_name("sim|board"),
       "card configuration for --prebuild (default sim)");
  spec->hidden.add_options()
      ("prebuild-cfg", po::value<std::string>()->value_name("sim|board"),
       "deprecated spelling of --config (the seed's)")
      ("command", po::value<std::vector<std::string>>()->value_name("COMMAND"), "command to run");
  spec->positional.add("command", -1);
}

// Index in args (argv without argv[0]) where the command starts: at "--" or at the first word
// that is neither an option nor an option's value, so `otpu-lock make -j2` needs no `--`.
size_t CommandStart(const std::vector<std::string>& args, const cli::Spec& spec) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--" || arg.size() < 2 || arg[0] != '-') return i;
    if (arg.rfind("--", 0) == 0 && arg.find('=') == std::string::npos) {
      const std::string name = arg.substr(2);
      const po::option_description* option = spec.visible.find_nothrow(name, false);
      if (!option) option = spec.hidden.find_nothrow(name, false);
      if (option && option->semantic()->max_tokens() > 0) ++i;  // the next word is its value
    }
  }
  return args.size();
}

// Parses the command line into `options`; false (after one stderr line) on a usage error.
bool ParseOptions(std::vector<std::string> args, Options* options) {
  cli::Spec spec;
  Describe(&spec);
  const size_t command_start = CommandStart(args, spec);
  options->command.assign(args.begin() + command_start, args.end());
  if (!options->command.empty() && options->command.front() == "--") {
    options->command.erase(options->command.begin());
  }
  args.resize(command_start);
  po::options_description all;
  all.add(spec.visible).add(spec.hidden);
  po::variables_map vm;
  try {
    // No abbreviations: CommandStart matches option names exactly, and so must Boost.
    po::store(po::command_line_parser(args)
                  .options(all)
                  .style(po::command_line_style::default_style &
                         ~po::command_line_style::allow_guessing)
                  .run(),
              vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::fprintf(stderr, "otpu-lock: %s (see otpu-lock --help)\n", e.what());
    return false;
  }
  options->dev = vm["dev"].as<std::string>();
  if (vm.count("wait")) options->wait = vm["wait"].as<std::string>();
  if (vm.count("prebuild")) options->prebuilds = vm["prebuild"].as<std::vector<std::string>>();
  if (vm.count("prebuild-cfg")) {
    if (vm.count("config")) {
      std::fprintf(stderr, "otpu-lock: --prebuild-cfg and --config: give the configuration once "
                           "(--prebuild-cfg is the deprecated spelling of --config)\n");
      return false;
    }
    std::fprintf(stderr, "otpu-lock: warning: --prebuild-cfg is deprecated; use --config\n");
    options->config = vm["prebuild-cfg"].as<std::string>();
  }
  if (vm.count("config")) options->config = vm["config"].as<std::string>();
  return true;
}

// --wait's default when it is not given.
constexpr char kDefaultWait[] = "3600";

// The wait: --wait, else $OTPU_LOCK_WAIT (the variable the busy message names, so setting it
// works for otpu-lock as for every tool), else kDefaultWait. InvalidArgument naming its source.
StatusOr<double> WaitSeconds(const std::string& option) {
  if (!option.empty()) return ParseWaitSeconds(option, "--wait");
  const char* env = std::getenv(kLockWaitEnv);
  if (env && *env) return ParseWaitSeconds(env, kLockWaitEnv);
  return ParseWaitSeconds(kDefaultWait, "--wait");
}

// Runs every --prebuild; a failure is reported and the command still runs.
void RunPrebuilds(const std::vector<PrebuildSpec>& specs, const std::string& cfg) {
  if (specs.empty()) return;
  const std::string program = PrebuildProgram();
  for (const PrebuildSpec& requested : specs) {
    StatusOr<PrebuildSpec> spec = ResolvePrebuildModel(requested);
    Status status = spec.ok() ? RunPrebuild(program, *spec, cfg) : spec.status();
    if (!status.ok()) {
      std::fprintf(stderr, "otpu-lock: prebuild %s failed: %s; the command will quantize under the lock\n",
                   requested.ToString().c_str(), status.message().c_str());
    }
  }
}

int Run(const std::vector<std::string>& args) {
  Options options;
  if (!ParseOptions(args, &options)) return kExitUsage;
  if (options.command.empty()) {
    std::fprintf(stderr, "otpu-lock: no command\n");
    return kExitUsage;
  }
  StatusOr<double> wait_seconds = WaitSeconds(options.wait);
  std::vector<PrebuildSpec> specs;
  Status usage = wait_seconds.status();
  for (const std::string& text : options.prebuilds) {
    StatusOr<PrebuildSpec> spec = ParsePrebuildSpec(text);
    if (!spec.ok() && usage.ok()) usage = spec.status();
    if (spec.ok()) specs.push_back(*spec);
  }
  if (usage.ok()) usage = ValidatePrebuildConfig(options.config);
  if (usage.ok()) usage = LockFileName(options.dev).status().WithContext("--dev");
  if (!usage.ok()) {
    std::fprintf(stderr, "otpu-lock: %s\n", usage.message().c_str());
    return kExitUsage;
  }

  // Prebuilds go first: quantizing must not happen while we hold the card.
  RunPrebuilds(specs, options.config);

  // Nested under another otpu-lock for this device: keep the outer holder (and its variables).
  std::unique_ptr<DeviceLock> lock = InheritedLock(options.dev);
  if (!lock) {
    StatusOr<std::unique_ptr<DeviceLock>> acquired = DeviceLock::Acquire(options.dev, *wait_seconds);
    if (!acquired.ok()) {
      std::fprintf(stderr, "otpu-lock: %s\n", acquired.status().message().c_str());
      return acquired.status().code() == StatusCode::kUnavailable ? kExitBusy : kExitError;
    }
    lock = std::move(acquired).value();
    // Like flock(1): the command inherits the locked descriptor, so the lock outlives a
    // killed otpu-lock for as long as any process of the command runs.
    if (Status shared = lock->ShareWithChildren(); !shared.ok()) {
      std::fprintf(stderr, "otpu-lock: %s\n", shared.message().c_str());
      return kExitError;
    }
    ::setenv(kLockHeldEnv, options.dev.c_str(), 1);
    ::setenv(kLockPidEnv, std::to_string(::getpid()).c_str(), 1);
  }

  CommandOptions run;
  run.forward_signals = true;
  run.own_process_group = !InForeground();
  if (const char* delay = std::getenv(kExecDelayEnv)) run.exec_delay_ms = std::atoi(delay);
  StatusOr<int> exit_code = RunCommand(options.command, run);
  if (!exit_code.ok()) {
    std::fprintf(stderr, "otpu-lock: %s\n", exit_code.status().message().c_str());
    return ExitCodeForStartFailure(exit_code.status());
  }
  return *exit_code;  // the lock is released after the child is gone, as `lock` goes out of scope
}

int Main(int argc, char** argv) {
  cli::Program program;
  program.name = "otpu-lock";
  program.summary = "Runs COMMAND while holding the openTPU device lock; exits with its status "
                    "(docs/otpu-lock.md).";
  program.family = exit_codes::Family::kLock;
  cli::Command command;
  command.synopsis = "[--dev PREFIX] [--wait SEC] [--prebuild MODEL:WF:HF]... [--config CFG] "
                     "[--] COMMAND [ARGS...]";
  command.describe = Describe;
  command.run = Run;
  command.options_end_at_positional = true;
  program.commands = {command};
  return cli::RunProgram(program, argc, argv);
}

}  // namespace
}  // namespace otpu::host

int main(int argc, char** argv) {
  if (otpu::PrintVersionIfAsked("otpu-lock", argc, argv)) return 0;
  return otpu::host::Main(argc, argv);
}
