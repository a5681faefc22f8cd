// otpu-xdma-emu: serves a simulated card as XDMA device files through FUSE (SPEC 7,
// docs/xdma.md), so the real XDMA code path runs without a card.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "base/cli.h"
#include "base/exit_codes.h"
#include "host/programs/board_factory.h"
#include "host/xdma_emu/emulated_xdma.h"
#include "host/xdma_emu/fault_plan.h"
#include "sim/board/sim_board.h"
#include "host/xdma_emu/fuse_server.h"
#include "host/xdma_emu/mountpoint.h"
#include "sim/rtl/rtl_configs.h"
#include "sim/rtl/stall_percent.h"
#include "base/status.h"
#include "workloads/version.h"

namespace po = boost::program_options;

namespace otpu::xdma_emu {
namespace {

using exit_codes::xdma_emu::kExitBusy;
using exit_codes::xdma_emu::kExitError;
using exit_codes::xdma_emu::kExitUsage;

constexpr char kEpilog[] =
    "Serves a simulated openTPU card as MOUNTPOINT/xdma0_user, _h2c_0 and _c2h_0 (XDMA driver\n"
    "semantics) and prints the device prefix MOUNTPOINT/xdma0 once mounted. Stop it with\n"
    "SIGINT/SIGTERM or `fusermount3 -u MOUNTPOINT`.\n"
    "fault SPEC: eio:FILE:N | short:FILE:N | timeout:FILE:N | slow:FILE:MS | hang\n"
    "  (FILE = user, h2c or c2h; N = that file's Nth request, from 1)\n";

struct Options {
  std::string mountpoint;
  std::string config;  // empty: the build's default RTL configuration
  int regmap = 2;
  int stall = 0;
  std::string mem;           // --mem: the DRAM model by name ("" = the board's axi)
  uint64_t seed = 1;         // --seed: of the DRAM model's stalls
  int latency = 0;           // --latency (0 = the model's default)
  int queue_beats = 0;       // --queue-beats (0 = default)
  double beats_per_cycle = 0;  // --beats-per-cycle (0 = default)
  std::vector<std::string> faults;
  bool foreground = false;
};

// The DRAM model named by --mem (rtl::ParseDramName); --stall adds stalls to a name without.
StatusOr<rtl::DramOptions> ParseMemoryName(const std::string& name, int stall) {
  StatusOr<rtl::DramOptions> mem = rtl::ParseDramName(name);
  if (!mem.ok()) return InvalidArgument("--mem " + mem.status().message());
  if (mem->stall_percent == 0) mem->stall_percent = stall;
  return mem;
}

// The options and the MOUNTPOINT positional (help and completion: base/cli.h).
void Describe(cli::Spec* spec) {
  spec->visible.add_options()
      ("config", po::value<std::string>()->value_name("CONFIG"),
       ("RTL configuration of the simulated card: " + rtl::BuiltConfigNames() + " (default " +
        rtl::BuiltConfig().name + ")").c_str())
      ("regmap", po::value<int>()->value_name("1|2")->default_value(2),
       "register-map version of the simulated bitstream: 2, or 1 (no REGMAP, CAPS, counters "
       "or trace)")
      ("stall", po::value<int>()->value_name("N")->default_value(0),
       "percent of cycles the board's DRAM withholds ready, 0..99 (seeded)")
      ("mem", po::value<std::string>()->value_name("NAME"),
       "DRAM model: ideal, stall N, axi (default) or axi stall N")
      ("seed", po::value<uint64_t>()->value_name("N")->default_value(1),
       "seed of the DRAM model's stalls")
      ("latency", po::value<int>()->value_name("N")->default_value(0),
       "DRAM read latency in cycles (0: the model's default)")
      ("queue-beats", po::value<int>()->value_name("N")->default_value(0),
       "axi: backlog per channel above which ready is withheld (0: default)")
      ("beats-per-cycle", po::value<double>()->value_name("X")->default_value(0),
       "axi: bandwidth cap per channel, in (0, 1] (0: default)")
      ("fault", po::value<std::vector<std::string>>()->value_name("SPEC")->composing(),
       "inject a fault (repeatable; SPEC below)")
      ("foreground,f", po::bool_switch(),
       "stay in the foreground (messages on stderr) instead of detaching");
  spec->hidden.add_options()("mountpoint", po::value<std::string>()->value_name("MOUNTPOINT"));
  spec->positional.add("mountpoint", 1);
}

// Parses the command line; false (after one stderr line) on a usage error.
bool ParseOptions(const std::vector<std::string>& args, Options* options,
                  std::vector<Fault>* faults) {
  cli::Spec spec;
  Describe(&spec);
  po::options_description all;
  all.add(spec.visible).add(spec.hidden);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(spec.positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::fprintf(stderr, "otpu-xdma-emu: %s (see otpu-xdma-emu --help)\n", e.what());
    return false;
  }
  if (vm.count("mountpoint")) options->mountpoint = vm["mountpoint"].as<std::string>();
  if (vm.count("config")) options->config = vm["config"].as<std::string>();
  options->regmap = vm["regmap"].as<int>();
  options->stall = vm["stall"].as<int>();
  if (vm.count("mem")) options->mem = vm["mem"].as<std::string>();
  options->seed = vm["seed"].as<uint64_t>();
  options->latency = vm["latency"].as<int>();
  options->queue_beats = vm["queue-beats"].as<int>();
  options->beats_per_cycle = vm["beats-per-cycle"].as<double>();
  if (vm.count("fault")) options->faults = vm["fault"].as<std::vector<std::string>>();
  options->foreground = vm["foreground"].as<bool>();
  std::string error;
  if (options->mountpoint.empty()) error = "no MOUNTPOINT";
  else if (!options->config.empty() && !rtl::BuiltConfigNamed(options->config).ok())
    error = "--config: " + rtl::BuiltConfigNamed(options->config).status().message();
  else if (options->regmap != 1 && options->regmap != 2) error = "--regmap must be 1 or 2";
  else if (Status stall = rtl::CheckStallPercent(options->stall); !stall.ok()) error = stall.message();
  else if (!options->mem.empty() && !ParseMemoryName(options->mem, options->stall).ok())
    error = ParseMemoryName(options->mem, options->stall).status().message();
  else if (options->latency < 0 || options->latency > 4096) error = "--latency must be 0..4096 (cycles)";
  else if (options->queue_beats < 0 || options->queue_beats > 4096) error = "--queue-beats must be 0..4096";
  else if (options->beats_per_cycle < 0 || options->beats_per_cycle > 1)
    error = "--beats-per-cycle must be in (0, 1]";
  for (const std::string& spec : options->faults) {
    if (!error.empty()) break;
    StatusOr<Fault> fault = ParseFault(spec);
    if (fault.ok()) faults->push_back(*fault);
    else error = fault.status().message();
  }
  if (!error.empty()) {
    std::fprintf(stderr, "otpu-xdma-emu: %s (see otpu-xdma-emu --help)\n", error.c_str());
    return false;
  }
  return true;
}

int ExitCodeFor(const Status& status) {
  return status.code() == StatusCode::kUnavailable ? kExitBusy : kExitError;
}

// How the serving process tells that the mount is ready or why it could not mount.
struct Startup {
  std::function<void(const std::string& prefix)> ready;
  std::function<void(int exit_code, const std::string& message)> failed;
};

// Builds the board, mounts and serves until a signal or an unmount. The exit code.
int Serve(const std::string& mountpoint, const Options& options, std::vector<Fault> faults,
          const Startup& startup) {
  BlockStopSignals();
  host::BoardChoice choice;
  choice.sim = true;
  choice.config = options.config;
  choice.regmap = options.regmap;
  choice.stall_percent = options.stall;
  if (!options.mem.empty() || options.seed != 1 || options.latency || options.queue_beats ||
      options.beats_per_cycle > 0) {
    rtl::DramOptions mem;
    if (options.mem.empty()) {
      mem.axi = true;
      mem.stall_percent = options.stall;
    } else {
      mem = *ParseMemoryName(options.mem, options.stall);
    }
    mem.seed = options.seed;
    if (options.latency) mem.latency = options.latency;
    if (options.queue_beats) mem.queue_beats = options.queue_beats;
    if (options.beats_per_cycle > 0) mem.beats_per_cycle = options.beats_per_cycle;
    choice.mem = mem;
  }
  StatusOr<std::unique_ptr<host::BoardIface>> board = host::MakeBoard(choice);
  if (!board.ok()) {
    startup.failed(kExitError, "cannot build the board model: " + board.status().message());
    return kExitError;
  }
  // A slow request's wait is the card's time too: the board model runs those milliseconds, so
  // a slow host falls behind a streamed trace as it would on a card.
  auto* sim_board = dynamic_cast<board::SimBoard*>(board->get());
  EmulatedXdma::CardRuns card_runs;
  if (sim_board) {
    card_runs = [sim_board](int ms) { sim_board->RunFor(std::chrono::milliseconds(ms)); };
  }
  EmulatedXdma device(board->get(), FaultPlan(std::move(faults)), std::move(card_runs));
  const std::string prefix = mountpoint + "/" + kDeviceName;
  bool mounted = false;
  Status served = ServeDevice(mountpoint, &device, [&] {
    mounted = true;
    startup.ready(prefix);
  });
  if (!served.ok()) {
    if (!mounted) startup.failed(kExitError, served.message());
    else std::fprintf(stderr, "otpu-xdma-emu: %s\n", served.message().c_str());
    return kExitError;
  }
  return 0;
}

// Runs Serve in a detached child; the parent returns once the mount is ready (printing the
// prefix) or failed (printing why), with the matching exit code.
int ServeDetached(const std::string& mountpoint, const Options& options,
                  std::vector<Fault> faults) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    std::fprintf(stderr, "otpu-xdma-emu: pipe: %s\n", std::strerror(errno));
    return kExitError;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::fprintf(stderr, "otpu-xdma-emu: fork: %s\n", std::strerror(errno));
    return kExitError;
  }
  if (pid == 0) {
    ::close(pipe_fds[0]);
    ::setsid();
    if (::chdir("/") != 0) std::_Exit(kExitError);
    const int report = pipe_fds[1];
    auto send = [report](const std::string& line) {
      if (::write(report, line.data(), line.size()) < 0) {
        // The parent is gone: nobody is left to tell; serving goes on.
      }
    };
    Startup startup;
    startup.ready = [&](const std::string& prefix) {
      send("R " + prefix + "\n");
      ::close(report);
      const int null_fd = ::open("/dev/null", O_RDWR);
      for (int fd = 0; fd <= 2; ++fd) ::dup2(null_fd, fd);
      if (null_fd > 2) ::close(null_fd);
    };
    startup.failed = [&](int code, const std::string& message) {
      send("F " + std::to_string(code) + " " + message + "\n");
    };
    std::_Exit(Serve(mountpoint, options, std::move(faults), startup));
  }
  ::close(pipe_fds[1]);
  std::string reply;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(pipe_fds[0], buf, sizeof(buf))) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    reply.append(buf, static_cast<size_t>(n));
  }
  ::close(pipe_fds[0]);
  if (!reply.empty() && reply.back() == '\n') reply.pop_back();
  if (reply.rfind("R ", 0) == 0) {
    std::printf("%s\n", reply.c_str() + 2);
    return 0;
  }
  ::waitpid(pid, nullptr, 0);
  if (reply.rfind("F ", 0) == 0) {
    const size_t space = reply.find(' ', 2);
    std::fprintf(stderr, "otpu-xdma-emu: %s\n", reply.c_str() + space + 1);
    return std::atoi(reply.c_str() + 2);
  }
  std::fprintf(stderr, "otpu-xdma-emu: the emulator process ended before %s was mounted\n",
               mountpoint.c_str());
  return kExitError;
}

int Run(const std::vector<std::string>& args) {
  Options options;
  std::vector<Fault> faults;
  if (!ParseOptions(args, &options, &faults)) return kExitUsage;
  StatusOr<std::string> mountpoint = CheckMountpoint(options.mountpoint);
  if (!mountpoint.ok()) {
    std::fprintf(stderr, "otpu-xdma-emu: %s\n", mountpoint.status().message().c_str());
    return ExitCodeFor(mountpoint.status());
  }
  if (!options.foreground) return ServeDetached(*mountpoint, options, std::move(faults));
  Startup startup;
  startup.ready = [](const std::string& prefix) {
    std::printf("%s\n", prefix.c_str());
    std::fflush(stdout);
  };
  startup.failed = [](int, const std::string& message) {
    std::fprintf(stderr, "otpu-xdma-emu: %s\n", message.c_str());
  };
  return Serve(*mountpoint, options, std::move(faults), startup);
}

int Main(int argc, char** argv) {
  cli::Program program;
  program.name = "otpu-xdma-emu";
  program.summary = "Serves a simulated card as XDMA device files through FUSE (docs/xdma.md).";
  program.epilog = kEpilog;
  program.family = exit_codes::Family::kXdmaEmu;
  cli::Command command;
  command.synopsis = "MOUNTPOINT [--config CONFIG] [--regmap 1|2] [--stall N] [--mem NAME] "
                     "[--seed N] [--latency N] [--queue-beats N] [--beats-per-cycle X] "
                     "[--fault SPEC]... [--foreground]";
  command.describe = Describe;
  command.run = Run;
  program.commands = {command};
  program.values["CONFIG"] = [] {
    std::vector<std::string> names;
    for (const isa::Config& c : rtl::BuiltConfigs()) names.push_back(c.name);
    return names;
  };
  return cli::RunProgram(program, argc, argv);
}

}  // namespace
}  // namespace otpu::xdma_emu

int main(int argc, char** argv) {
  if (otpu::PrintVersionIfAsked("otpu-xdma-emu", argc, argv)) return 0;
  return otpu::xdma_emu::Main(argc, argv);
}
