// otpu-regress: hardware regression without a card (docs/regress.md). A matrix of workloads x
// RTL configurations x memories x transports x seeds; per cell three verdicts (correctness,
// parity, performance against a reviewed baseline); JUnit and Markdown reports; local parallel
// processes, shards, or a Slurm job array.
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/exit_codes.h"
#include "host/programs/regress/baselines_at.h"
#include "host/programs/regress/out_dir_lock.h"
#include "host/programs/regress/cell_runner.h"
#include "host/programs/regress/local_runner.h"
#include "host/programs/regress/matrix.h"
#include "host/programs/regress/report.h"
#include "host/programs/regress/slurm_command.h"
#include "lens/file_io.h"
#include "workloads/version.h"

namespace otpu::regress {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: otpu-regress run MATRIX [-j N] [--shard K/M] [--only REGEX] [--rerun-failed INDEX]\n"
    "                        [--out DIR] [--baselines DIR | --baselines-at REV] [--accept] [--no-reuse]\n"
    "                        [--keep-profiles]\n"
    "       otpu-regress list MATRIX [--only REGEX] [--shard K/M]\n"
    "       otpu-regress cell MATRIX (--id ID | --index I [--only REGEX]) [--out DIR] [--baselines DIR] [--accept]\n"
    "                         [--run ID]\n"
    "       otpu-regress merge DIR\n"
    "       otpu-regress slurm MATRIX [--out DIR] [--wait] [--max-parallel K] [--only REGEX]\n"
    "                          [--sbatch-arg ARG]...\n"
    "See docs/regress.md.\n";

int Fail(int code, const std::string& line) {
  std::cerr << line << "\n";
  return code;
}

std::string SelfPath() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("otpu-regress") : p.string();
}

// otpu-xdma-emu: $OTPU_XDMA_EMU, else beside this binary in the build tree, else on PATH.
std::string FindEmulator() {
  if (const char* e = std::getenv("OTPU_XDMA_EMU")) return e;
  const fs::path self = fs::path(SelfPath()).parent_path();
  // The build tree keeps otpu-regress in host/programs, otpu-xdma-emu in host/xdma_emu.
  for (const fs::path& p : {self / "../xdma_emu/otpu-xdma-emu", self / "../../xdma_emu/otpu-xdma-emu",
                            self / "otpu-xdma-emu", self / "../../host/xdma_emu/otpu-xdma-emu"}) {
    std::error_code ec;
    if (fs::exists(p, ec)) return fs::weakly_canonical(p).string();
  }
  return "otpu-xdma-emu";
}

bool ParseShard(const std::string& text, int* k, int* m) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos) return false;
  try {
    size_t used = 0;
    *k = std::stoi(text.substr(0, slash), &used);
    if (used != slash) return false;
    *m = std::stoi(text.substr(slash + 1), &used);
    return used == text.size() - slash - 1 && *m >= 1 && *k >= 1 && *k <= *m;
  } catch (const std::exception&) {
    return false;
  }
}

bool ParseFlip(const std::string& text, int64_t* record, int* bit) {
  const size_t colon = text.find(':');
  try {
    *record = std::stoll(text.substr(0, colon));
    *bit = colon == std::string::npos ? 0 : std::stoi(text.substr(colon + 1));
  } catch (const std::exception&) {
    return false;
  }
  return *record >= 0 && *bit >= 0 && *bit < 64;
}

bool ParseArgs(const std::string& cmd, const std::vector<std::string>& args,
               const po::options_description& opts, po::variables_map* vm, int positionals) {
  po::positional_options_description pos;
  pos.add("positional", positionals);
  po::options_description all;
  all.add(opts).add_options()("positional", po::value<std::vector<std::string>>());
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), *vm);
    po::notify(*vm);
  } catch (const po::error& e) {
    Fail(kExitUsage, "otpu-regress " + cmd + ": " + e.what());
    return false;
  }
  const size_t n = vm->count("positional") ? (*vm)["positional"].as<std::vector<std::string>>().size() : 0;
  if (n != size_t(positionals)) {
    Fail(kExitUsage, "otpu-regress " + cmd + ": expected " +
                         std::string(cmd == "merge" ? "an output DIR" : "a MATRIX file") +
                         " (see otpu-regress --help)");
    return false;
  }
  return true;
}

std::string Positional(const po::variables_map& vm) {
  return vm["positional"].as<std::vector<std::string>>()[0];
}

// Reads the matrix named on the command line; prints the error.
std::optional<Matrix> LoadMatrix(const std::string& cmd, const std::string& path, int* code) {
  StatusOr<Matrix> m = ReadMatrix(path);
  if (!m.ok()) {
    *code = Fail(kExitBadInput, "otpu-regress " + cmd + ": " + m.status().message());
    return std::nullopt;
  }
  return std::move(*m);
}

void AddCommon(po::options_description* o) {
  o->add_options()("out", po::value<std::string>(), "output directory (default out/regress/NAME)")(
      "baselines", po::value<std::string>(), "baseline directory (default: MATRIX's dir/baselines)")(
      "accept", po::bool_switch(), "rewrite the baselines of cells whose figures changed")(
      "keep-profiles", po::bool_switch(), "keep every cell's profile, not only failing ones")(
      "inject-trace-flip", po::value<std::string>(), "R:B: flip bit B of trace record R (testing)")(
      "emulator", po::value<std::string>(), "the otpu-xdma-emu binary for card cells");
}

std::string OutDir(const po::variables_map& vm, const Matrix& m) {
  return vm.count("out") ? vm["out"].as<std::string>() : "out/regress/" + m.name;
}

std::string BaselinesDir(const po::variables_map& vm, const Matrix& m) {
  return vm.count("baselines") ? vm["baselines"].as<std::string>()
                               : (fs::path(m.path).parent_path() / "baselines").string();
}

int List(const std::vector<std::string>& args) {
  po::options_description o("list options");
  o.add_options()("only", po::value<std::string>()->default_value(""), "cells whose id matches")(
      "shard", po::value<std::string>()->default_value("1/1"), "K/M");
  po::variables_map vm;
  if (!ParseArgs("list", args, o, &vm, 1)) return kExitUsage;
  int k = 1, n = 1;
  if (!ParseShard(vm["shard"].as<std::string>(), &k, &n)) {
    return Fail(kExitUsage, "otpu-regress list: --shard " + vm["shard"].as<std::string>() + ": expected K/M");
  }
  int code = 0;
  std::optional<Matrix> m = LoadMatrix("list", Positional(vm), &code);
  if (!m) return code;
  StatusOr<std::vector<Cell>> cells = SelectCells(*m, vm["only"].as<std::string>(), k, n);
  if (!cells.ok()) return Fail(kExitUsage, "otpu-regress list: " + cells.status().message());
  for (size_t i = 0; i < cells->size(); ++i) std::printf("%zu %s\n", i, (*cells)[i].id.c_str());
  return kExitPass;
}

int Cell_(const std::vector<std::string>& args) {
  po::options_description o("cell options");
  o.add_options()("id", po::value<std::string>(), "the cell's id")(
      "index", po::value<int>(), "the I-th selected cell (with --only)")(
      "only", po::value<std::string>()->default_value(""), "selection for --index")(
      "run", po::value<std::string>()->default_value(""),
      "the run id of DIR/selection.json, written into the result (run and slurm pass it)");
  AddCommon(&o);
  po::variables_map vm;
  if (!ParseArgs("cell", args, o, &vm, 1)) return kExitUsage;
  if (vm.count("id") == vm.count("index")) {
    return Fail(kExitUsage, "otpu-regress cell: give exactly one of --id ID and --index I");
  }
  int code = 0;
  std::optional<Matrix> m = LoadMatrix("cell", Positional(vm), &code);
  if (!m) return code;
  StatusOr<std::vector<Cell>> cells = SelectCells(*m, vm["only"].as<std::string>(), 1, 1);
  if (!cells.ok()) return Fail(kExitUsage, "otpu-regress cell: " + cells.status().message());
  const Cell* cell = nullptr;
  if (vm.count("id")) {
    for (const Cell& c : *cells) {
      if (c.id == vm["id"].as<std::string>()) cell = &c;
    }
    if (!cell) {
      return Fail(kExitUsage, "otpu-regress cell: --id " + vm["id"].as<std::string>() +
                                  ": no such cell in " + m->path + " (see otpu-regress list)");
    }
  } else {
    const int i = vm["index"].as<int>();
    if (i < 0 || size_t(i) >= cells->size()) {
      return Fail(kExitUsage, "otpu-regress cell: --index " + std::to_string(i) + ": the selection has " +
                                  std::to_string(cells->size()) + " cells");
    }
    cell = &(*cells)[size_t(i)];
  }
  CellOptions opts;
  opts.out_dir = OutDir(vm, *m);
  opts.baselines_dir = BaselinesDir(vm, *m);
  opts.accept = vm["accept"].as<bool>();
  opts.keep_profile = vm["keep-profiles"].as<bool>();
  opts.emulator = vm.count("emulator") ? vm["emulator"].as<std::string>() : FindEmulator();
  opts.run_id = vm["run"].as<std::string>();
  std::string inject;
  if (vm.count("inject-trace-flip")) {
    inject = vm["inject-trace-flip"].as<std::string>();
    if (!ParseFlip(inject, &opts.flip_record, &opts.flip_bit)) {
      return Fail(kExitUsage, "otpu-regress cell: --inject-trace-flip " + inject +
                                  ": expected RECORD:BIT (bit 0..63)");
    }
  }
  const std::string default_baselines = (fs::path(m->path).parent_path() / "baselines").string();
  opts.command = ReproduceCommand(*m, *cell, opts.baselines_dir, default_baselines);
  opts.key = CellKey(*m, *cell,
                     CurrentKeyInputs(std::string(opts.accept ? "accept" : "") + inject, opts.emulator),
                     opts.baselines_dir);
  std::error_code ec;
  fs::create_directories(opts.out_dir + "/cells", ec);
  const CellResult r = RunCell(*m, *cell, opts);
  const std::string path = opts.out_dir + "/cells/" + cell->FileName() + ".json";
  if (Status s = lens::WriteFileAtomically(path, CellResultJson(r)); !s.ok()) {
    return Fail(kExitInfra, "otpu-regress cell: " + s.message());
  }
  std::printf("%s %s (%lld cycles, %.1f s)\n", OutcomeName(r.outcome()), r.id.c_str(),
              (long long)r.cycles, r.wall_s);
  for (const Verdict& v : r.verdicts) {
    std::printf("  %-11s %-5s %s\n", v.name.c_str(), OutcomeName(v.outcome), v.message.c_str());
    if (v.outcome != Outcome::kPass && !v.detail.empty()) std::fputs(v.detail.c_str(), stdout);
  }
  if (!r.accepted.empty()) std::printf("baseline updated:\n%s", r.accepted.c_str());
  std::printf("wrote %s\n", path.c_str());
  return r.outcome() == Outcome::kPass ? kExitPass
         : r.outcome() == Outcome::kFail ? kExitFail
                                         : kExitInfra;
}

int Merge(const std::vector<std::string>& args) {
  po::options_description o("merge options");
  po::variables_map vm;
  if (!ParseArgs("merge", args, o, &vm, 1)) return kExitUsage;
  const std::string dir = Positional(vm);
  StatusOr<Index> index = ReadIndexDir(dir);
  if (!index.ok()) return Fail(kExitBadInput, "otpu-regress merge: " + index.status().message());
  StatusOr<OutDirLock> lock = OutDirLock::Acquire(dir, "otpu-regress merge");
  if (!lock.ok()) return Fail(kExitInfra, "otpu-regress merge: " + lock.status().message());
  if (Status s = WriteReports(dir, *index); !s.ok()) return Fail(kExitInfra, "otpu-regress merge: " + s.message());
  std::printf("%s: %d passed, %d failed, %d errors; wrote %s/{index.json,junit.xml,summary.md}\n",
              index->passed() ? "PASSED" : "FAILED", index->count(Outcome::kPass),
              index->count(Outcome::kFail), index->count(Outcome::kError) + int(index->missing.size()),
              dir.c_str());
  return ExitCodeOf(*index);
}

int Run(const std::vector<std::string>& args) {
  po::options_description o("run options");
  o.add_options()("jobs,j", po::value<int>()->default_value(int(std::max(1u, std::thread::hardware_concurrency()))),
                  "cells run at once (processes)")(
      "shard", po::value<std::string>()->default_value("1/1"), "K/M: this machine's share")(
      "only", po::value<std::string>()->default_value(""), "cells whose id matches (regex)")(
      "rerun-failed", po::value<std::string>(), "INDEX: only the cells that failed in it")(
      "no-reuse", po::bool_switch(), "run every cell, even when its key is unchanged")(
      "baselines-at", po::value<std::string>(),
      "REV: judge against the baselines as git revision REV has them (for git bisect)");
  AddCommon(&o);
  po::variables_map vm;
  if (!ParseArgs("run", args, o, &vm, 1)) return kExitUsage;
  RunOptions opts;
  if (!ParseShard(vm["shard"].as<std::string>(), &opts.shard, &opts.shards)) {
    return Fail(kExitUsage, "otpu-regress run: --shard " + vm["shard"].as<std::string>() +
                                ": expected K/M with 1 <= K <= M");
  }
  opts.jobs = vm["jobs"].as<int>();
  if (opts.jobs < 1) return Fail(kExitUsage, "otpu-regress run: -j must be at least 1");
  if (vm.count("inject-trace-flip")) {
    int64_t r;
    int b;
    opts.inject = vm["inject-trace-flip"].as<std::string>();
    if (!ParseFlip(opts.inject, &r, &b)) {
      return Fail(kExitUsage, "otpu-regress run: --inject-trace-flip " + opts.inject +
                                  ": expected RECORD:BIT (bit 0..63)");
    }
  }
  int code = 0;
  std::optional<Matrix> m = LoadMatrix("run", Positional(vm), &code);
  if (!m) return code;
  opts.out_dir = OutDir(vm, *m);
  opts.baselines_dir = BaselinesDir(vm, *m);
  std::optional<BaselinesAt> baselines_at;  // removed when the run ends
  if (vm.count("baselines-at")) {
    if (vm["accept"].as<bool>()) {
      return Fail(kExitUsage, "otpu-regress run: --accept cannot write into --baselines-at's copy");
    }
    StatusOr<BaselinesAt> at = BaselinesAt::Extract(opts.baselines_dir, vm["baselines-at"].as<std::string>());
    if (!at.ok()) return Fail(kExitUsage, "otpu-regress run: " + at.status().message());
    baselines_at.emplace(std::move(*at));
    opts.baselines_dir = baselines_at->path();
  }
  opts.only = vm["only"].as<std::string>();
  if (vm.count("rerun-failed")) opts.rerun_failed = vm["rerun-failed"].as<std::string>();
  opts.reuse = !vm["no-reuse"].as<bool>();
  opts.accept = vm["accept"].as<bool>();
  opts.keep_profiles = vm["keep-profiles"].as<bool>();
  opts.self = SelfPath();
  opts.emulator = vm.count("emulator") ? vm["emulator"].as<std::string>() : FindEmulator();
  return RunLocal(*m, opts);
}

// What `merge` needs in DIR before the Slurm jobs run: the selection with the submission's
// run id (slurm_command.h).
Status PrepareSlurmDir(const std::string& matrix, const std::string& only, const std::string& dir,
                       const std::string& run_id) {
  ASSIGN_OR_RETURN(Matrix m, ReadMatrix(matrix));
  ASSIGN_OR_RETURN(std::vector<Cell> cells, SelectCells(m, only, 1, 1));
  return WriteSelection(dir, m, cells, run_id);
}

int Main(int argc, char** argv) {
  if (argc < 2) return Fail(kExitUsage, "otpu-regress: no command (run, list, cell, merge, slurm); see otpu-regress --help");
  const std::string cmd = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::fputs(kUsage, stdout);
    std::fputs(otpu::exit_codes::ExitStatusHelp(otpu::exit_codes::Family::kRegress).c_str(), stdout);
    return kExitPass;
  }
  if (cmd == "run") return Run(args);
  if (cmd == "list") return List(args);
  if (cmd == "cell") return Cell_(args);
  if (cmd == "merge") return Merge(args);
  if (cmd == "slurm") return RunSlurmCommand(argc - 1, argv + 1, PrepareSlurmDir);
  return Fail(kExitUsage, "otpu-regress: unknown command '" + cmd + "' (run, list, cell, merge, slurm)");
}

}  // namespace
}  // namespace otpu::regress

int main(int argc, char** argv) {
  if (otpu::PrintVersionIfAsked("otpu-regress", argc, argv)) return 0;
  try {
    return otpu::regress::Main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "otpu-regress: " << e.what() << "\n";
    return otpu::regress::kExitInfra;
  }
}
