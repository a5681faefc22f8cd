// otpu-regress: hardware regression without a card (docs/regress.md). A matrix of workloads x
// RTL configurations x memories x transports x seeds; per cell three verdicts (correctness,
// parity, performance against a reviewed baseline); JUnit and Markdown reports; local parallel
// processes, shards, or a Slurm job array.
#include <unistd.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/cli.h"
#include "base/exit_codes.h"
#include "host/programs/regress/baselines_at.h"
#include "host/programs/regress/out_dir_lock.h"
#include "host/programs/regress/cell_runner.h"
#include "host/programs/regress/code_coverage.h"
#include "base/strings.h"
#include "base/subprocess.h"
#include "sim/board/board_model.h"
#include "host/programs/regress/local_runner.h"
#include "host/programs/regress/matrix.h"
#include "host/programs/regress/report.h"
#include "host/programs/regress/slurm_command.h"
#include "lens/file_io.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"
#include "workloads/version.h"

namespace otpu::regress {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

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

// The otpu-regress of an instrumented build (waves, code coverage): this one when it is,
// else --instrumented, $OTPU_REGRESS_INSTRUMENTED, or build-instr/ beside this build directory
// (scripts/build_instrumented.sh). "" when none exists.
std::string FindInstrumented(const std::string& given) {
  if (board::BoardModel::Instrumented()) return SelfPath();
  std::vector<fs::path> tries;
  if (!given.empty()) {
    tries.push_back(given);
  } else if (const char* e = std::getenv("OTPU_REGRESS_INSTRUMENTED")) {
    tries.push_back(e);
  } else {
    // BUILD/host/programs/otpu-regress -> BUILD/../build-instr/host/programs/otpu-regress
    const fs::path build = fs::path(SelfPath()).parent_path().parent_path().parent_path();
    tries.push_back(build.parent_path() / "build-instr/host/programs/otpu-regress");
  }
  for (const fs::path& p : tries) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0) return fs::absolute(p).string();
  }
  return "";
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

// Parses the words of `cmd` against `spec`, whose one positional is MATRIX (merge: DIR).
bool ParseArgs(const std::string& cmd, const std::vector<std::string>& args, const cli::Spec& spec,
               po::variables_map* vm) {
  if (!cli::Parse("otpu-regress", cmd, args, spec, vm)) return false;
  const size_t n = vm->count("positional") ? (*vm)["positional"].as<std::vector<std::string>>().size() : 0;
  if (n != 1) {
    Fail(kExitUsage, "otpu-regress " + cmd + ": expected " +
                         std::string(cmd == "merge" ? "an output DIR" : "a MATRIX file") +
                         " (see otpu-regress " + cmd + " --help)");
    return false;
  }
  return true;
}

std::string Positional(const po::variables_map& vm) {
  return vm["positional"].as<std::vector<std::string>>()[0];
}

// The one positional of a command, named `value_name` in help and completion.
void AddPositional(cli::Spec* spec, const char* value_name) {
  spec->hidden.add_options()("positional",
                             po::value<std::vector<std::string>>()->value_name(value_name));
  spec->positional.add("positional", -1);
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
  o->add_options()("out,o", po::value<std::string>()->value_name("DIR"),
                   "output directory (default out/regress/NAME)")(
      "baselines", po::value<std::string>()->value_name("DIR"),
      "baseline directory (default: MATRIX's dir/baselines)")(
      "accept", po::bool_switch(), "rewrite the baselines of cells whose figures changed")(
      "keep-profiles", po::bool_switch(), "keep every cell's profile, not only failing ones")(
      "inject-trace-flip", po::value<std::string>()->value_name("R:B"),
      "flip bit B of trace record R (testing)")(
      "emulator", po::value<std::string>()->value_name("BINARY"),
      "the otpu-xdma-emu binary for card cells");
}

// A cell id as a file name (Cell::FileName): '/' as '.'.
std::string CellFileName(std::string id) {
  std::replace(id.begin(), id.end(), '/', '.');
  return id;
}

std::string OutDir(const po::variables_map& vm, const Matrix& m) {
  return vm.count("out") ? vm["out"].as<std::string>() : "out/regress/" + m.name;
}

std::string BaselinesDir(const po::variables_map& vm, const Matrix& m) {
  return vm.count("baselines") ? vm["baselines"].as<std::string>()
                               : (fs::path(m.path).parent_path() / "baselines").string();
}

void DescribeList(cli::Spec* spec) {
  spec->visible.add_options()("only", po::value<std::string>()->value_name("REGEX")->default_value(""),
                              "cells whose id matches")(
      "shard", po::value<std::string>()->value_name("K/M")->default_value("1/1"),
      "this machine's share")(
      "json", po::bool_switch(), "print one JSON object (docs/regress.md \"list --json\")");
  AddPositional(spec, "MATRIX");
}

// `list --json`: {"matrix", "path", "shard", "only", "cells": [{index, id, workload, pos,
// wformat, config, memory, transport, seed_index, seed, program_seed}]} (docs/regress.md).
std::string ListJson(const Matrix& m, const std::string& shard, const std::string& only,
                     const std::vector<Cell>& cells) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  auto str = [&w](const char* key, const std::string& value) {
    w.Key(key);
    w.String(value.c_str(), rapidjson::SizeType(value.size()));
  };
  w.StartObject();
  str("matrix", m.name);
  str("path", m.path);
  str("shard", shard);
  str("only", only);
  w.Key("cells");
  w.StartArray();
  for (size_t i = 0; i < cells.size(); ++i) {
    const Cell& c = cells[i];
    w.StartObject();
    w.Key("index");
    w.Uint64(i);
    str("id", c.id);
    str("workload", c.workload);
    w.Key("pos");
    if (c.pos >= 0) w.Int(c.pos);
    else w.Null();
    str("wformat", isa::WFormatName(c.wf));
    str("config", c.config);
    str("memory", c.memory.Name());
    str("transport", c.transport);
    w.Key("seed_index");
    w.Int(c.seed_index);
    w.Key("seed");
    w.Uint64(c.seed);
    w.Key("program_seed");
    w.Uint64(c.program_seed);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

int List(const std::vector<std::string>& args) {
  cli::Spec spec;
  DescribeList(&spec);
  po::variables_map vm;
  if (!ParseArgs("list", args, spec, &vm)) return kExitUsage;
  int k = 1, n = 1;
  if (!ParseShard(vm["shard"].as<std::string>(), &k, &n)) {
    return Fail(kExitUsage, "otpu-regress list: --shard " + vm["shard"].as<std::string>() + ": expected K/M");
  }
  int code = 0;
  std::optional<Matrix> m = LoadMatrix("list", Positional(vm), &code);
  if (!m) return code;
  StatusOr<std::vector<Cell>> cells = SelectCells(*m, vm["only"].as<std::string>(), k, n);
  if (!cells.ok()) return Fail(kExitUsage, "otpu-regress list: " + cells.status().message());
  if (vm["json"].as<bool>()) {
    std::fputs(ListJson(*m, vm["shard"].as<std::string>(), vm["only"].as<std::string>(), *cells).c_str(),
               stdout);
    return kExitPass;
  }
  for (size_t i = 0; i < cells->size(); ++i) std::printf("%zu %s\n", i, (*cells)[i].id.c_str());
  return kExitPass;
}

void DescribeCell(cli::Spec* spec) {
  spec->visible.add_options()("id", po::value<std::string>()->value_name("ID"), "the cell's id")(
      "index", po::value<int>()->value_name("I"), "the I-th selected cell (with --only)")(
      "only", po::value<std::string>()->value_name("REGEX")->default_value(""),
      "selection for --index")(
      "run", po::value<std::string>()->value_name("ID")->default_value(""),
      "the run id of DIR/selection.json, written into the result (run and slurm pass it)")(
      "waves", po::bool_switch(),
      "on a failure, rerun with an FST of the cycles around the first divergence (DIR/waves/)")(
      "waves-at", po::value<std::string>()->value_name("RUN:CYCLE"),
      "the FST around this run cycle")(
      "window", po::value<int64_t>()->value_name("N")->default_value(200),
      "cycles of waves around the cycle")(
      "code-coverage", po::bool_switch(), "write line and toggle counts to DIR/code-coverage/");
  AddCommon(&spec->visible);
  AddPositional(spec, "MATRIX");
}

int Cell_(const std::vector<std::string>& args) {
  cli::Spec spec;
  DescribeCell(&spec);
  po::variables_map vm;
  if (!ParseArgs("cell", args, spec, &vm)) return kExitUsage;
  const bool waves = vm["waves"].as<bool>();
  if (waves && vm.count("waves-at")) {
    return Fail(kExitUsage, "otpu-regress cell: give one of --waves and --waves-at");
  }
  if (vm["window"].as<int64_t>() < 1 || vm["window"].as<int64_t>() > 100000000) {
    return Fail(kExitUsage, "otpu-regress cell: --window must be 1..100000000 cycles");
  }
  if ((waves || vm.count("waves-at") || vm["code-coverage"].as<bool>()) &&
      !board::BoardModel::Instrumented()) {
    return Fail(kExitUsage, std::string("otpu-regress cell: --") +
                                (vm["code-coverage"].as<bool>() ? "code-coverage" : "waves") +
                                " needs an instrumented build (scripts/build_instrumented.sh; "
                                "docs/regress.md \"Waves\")");
  }
  if (vm["code-coverage"].as<bool>() && !board::BoardModel::CountsCoverage()) {
    return Fail(kExitUsage, "otpu-regress cell: --code-coverage needs a build with coverage "
                            "counters (this one has waves only: -DOTPU_RTL_INSTRUMENT_COVERAGE=OFF; "
                            "scripts/build_instrumented.sh builds both)");
  }
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
  opts.code_coverage = vm["code-coverage"].as<bool>();
  opts.waves_window = vm["window"].as<int64_t>();
  if (vm.count("waves-at")) {
    const std::string at = vm["waves-at"].as<std::string>();
    long long run = -1, cyc = -1;
    char tail = 0;
    if (std::sscanf(at.c_str(), "%lld:%lld%c", &run, &cyc, &tail) != 2 || run < 0 || cyc < 0 ||
        run > 1000000) {
      return Fail(kExitUsage, "otpu-regress cell: --waves-at " + at + ": expected RUN:CYCLE");
    }
    opts.waves_run = int(run);
    opts.waves_cycle = cyc;
  }
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
  if (!r.waves.empty()) std::printf("waves: %s/%s\n", opts.out_dir.c_str(), r.waves.c_str());
  if (opts.waves_run >= 0 && r.waves.empty()) {
    std::printf("waves: none written (configuration %s has no instrumented board in this build, "
                "or run %d is not one of the cell's)\n", cell->config.c_str(), opts.waves_run);
  }
  const int verdict = r.outcome() == Outcome::kPass ? kExitPass
                      : r.outcome() == Outcome::kFail ? kExitFail
                                                      : kExitInfra;
  if (!waves) return verdict;
  // One SystemC board per process: the waves come from a second run of the cell, in a child,
  // which rewrites the result with the FST named in it.
  if (r.divergence_cycle < 0) {
    std::printf("waves: none written (%s)\n", r.outcome() == Outcome::kPass
                                                  ? "the cell passed"
                                                  : "no verdict names a cycle of the run");
    return verdict;
  }
  std::vector<std::string> argv = {SelfPath(), "cell"};
  for (const std::string& a : args) {
    if (a != "--waves") argv.push_back(a);
  }
  argv.insert(argv.end(), {"--waves-at", StrFormat("%d:%lld", r.divergence_run,
                                                   (long long)r.divergence_cycle)});
  std::printf("waves: rerunning around run %d cycle %lld\n", r.divergence_run,
              (long long)r.divergence_cycle);
  std::fflush(stdout);
  SubprocessOptions child;
  child.argv = argv;
  StatusOr<SubprocessResult> res = RunSubprocess(child);
  if (!res.ok()) return Fail(kExitInfra, "otpu-regress cell: waves: " + res.status().message());
  return res->exit_code;
}

void DescribeMerge(cli::Spec* spec) { AddPositional(spec, "DIR"); }

int Merge(const std::vector<std::string>& args) {
  cli::Spec spec;
  DescribeMerge(&spec);
  po::variables_map vm;
  if (!ParseArgs("merge", args, spec, &vm)) return kExitUsage;
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

// `run --waves-on-fail K`: the first K failing cells whose verdicts name a cycle, each run
// again alone by the instrumented otpu-regress with waves around that cycle (its result then
// names the FST). True when any was rerun.
bool RerunWithWaves(const Matrix& m, const RunOptions& opts, const std::string& instrumented,
                    int k, int64_t window) {
  StatusOr<Index> index = ReadIndexDir(opts.out_dir);
  if (!index.ok()) return false;
  int done = 0;
  for (const CellResult& c : index->cells) {
    if (done >= k) break;
    if (c.outcome() != Outcome::kFail || c.divergence_cycle < 0) continue;
    std::vector<std::string> argv = {instrumented, "cell", m.path, "--id", c.id,
                                     "--out", opts.out_dir, "--baselines", opts.baselines_dir,
                                     "--run", c.run, "--window", std::to_string(window),
                                     "--waves-at", StrFormat("%d:%lld", c.divergence_run,
                                                             (long long)c.divergence_cycle)};
    if (!opts.inject.empty()) argv.insert(argv.end(), {"--inject-trace-flip", opts.inject});
    if (!opts.emulator.empty()) argv.insert(argv.end(), {"--emulator", opts.emulator});
    SubprocessOptions o;
    o.argv = argv;
    o.out = Stream::File(opts.out_dir + "/logs/" + CellFileName(c.id) + ".waves.log");
    o.err_to_out = true;
    StatusOr<SubprocessResult> r = RunSubprocess(o);
    std::printf("waves: %s around run %d cycle %lld: %s\n", c.id.c_str(), c.divergence_run,
                (long long)c.divergence_cycle,
                !r.ok() ? r.status().message().c_str()
                        : r->exit_code == kExitFail ? "written" : "rerun did not fail (see its log)");
    ++done;
  }
  return done > 0;
}

void DescribeRun(cli::Spec* spec) {
  spec->visible.add_options()("jobs,j", po::value<int>()->value_name("N")->default_value(int(std::max(1u, std::thread::hardware_concurrency()))),
                  "cells run at once (processes; default the cores)")(
      "shard", po::value<std::string>()->value_name("K/M")->default_value("1/1"), "this machine's share")(
      "only", po::value<std::string>()->value_name("REGEX")->default_value(""), "cells whose id matches")(
      "rerun-failed", po::value<std::string>()->value_name("INDEX"), "only the cells that failed in INDEX (an index.json)")(
      "no-reuse", po::bool_switch(), "run every cell, even when its key is unchanged")(
      "baselines-at", po::value<std::string>()->value_name("REV"),
      "judge against the baselines as git revision REV has them (for git bisect)")(
      "waves-on-fail", po::value<int>()->value_name("K")->default_value(0),
      "rerun the first K failing cells with waves of their first divergence")(
      "window", po::value<int64_t>()->value_name("N")->default_value(200),
      "cycles of waves (--waves-on-fail)")(
      "code-coverage", po::bool_switch(),
      "line and toggle coverage of the RTL, merged with verilator_coverage (code_coverage.json)")(
      "instrumented", po::value<std::string>()->value_name("PATH"),
      "the otpu-regress of an instrumented build (default: this one if instrumented, "
      "$OTPU_REGRESS_INSTRUMENTED, ../build-instr)");
  AddCommon(&spec->visible);
  AddPositional(spec, "MATRIX");
}

int Run(const std::vector<std::string>& args) {
  cli::Spec spec;
  DescribeRun(&spec);
  po::variables_map vm;
  if (!ParseArgs("run", args, spec, &vm)) return kExitUsage;
  RunOptions opts;
  const int waves_on_fail = vm["waves-on-fail"].as<int>();
  const int64_t window = vm["window"].as<int64_t>();
  if (waves_on_fail < 0) return Fail(kExitUsage, "otpu-regress run: --waves-on-fail must be >= 0");
  if (window < 1 || window > 100000000) {
    return Fail(kExitUsage, "otpu-regress run: --window must be 1..100000000 cycles");
  }
  opts.code_coverage = vm["code-coverage"].as<bool>();
  std::string instrumented;
  if (waves_on_fail > 0 || opts.code_coverage) {
    instrumented = FindInstrumented(vm.count("instrumented") ? vm["instrumented"].as<std::string>() : "");
    if (instrumented.empty()) {
      return Fail(kExitUsage, std::string("otpu-regress run: --") +
                                  (opts.code_coverage ? "code-coverage" : "waves-on-fail") +
                                  " needs an instrumented build: run scripts/build_instrumented.sh "
                                  "or give --instrumented PATH");
    }
  }
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
  if (opts.code_coverage) {
    opts.self = instrumented;  // the cells count coverage; their results are never reused
    opts.reuse = false;
  }
  code = RunLocal(*m, opts);
  if (code != kExitPass && code != kExitFail && code != kExitInfra) return code;
  const bool waves_written = waves_on_fail > 0 && code == kExitFail &&
                             RerunWithWaves(*m, opts, instrumented, waves_on_fail, window);
  if (!waves_written && !opts.code_coverage) return code;
  // The reports again, with the waves linked and the code coverage.
  StatusOr<Index> index = ReadIndexDir(opts.out_dir);
  if (!index.ok()) return Fail(kExitInfra, "otpu-regress run: " + index.status().message());
  StatusOr<OutDirLock> lock = OutDirLock::Acquire(opts.out_dir, "otpu-regress run");
  if (!lock.ok()) return Fail(kExitInfra, "otpu-regress run: " + lock.status().message());
  index->wall_s = 0;
  if (StatusOr<std::string> old = lens::ReadWholeFile(opts.out_dir + "/index.json"); old.ok()) {
    if (StatusOr<Index> prev = ParseIndex(*old, opts.out_dir + "/index.json"); prev.ok()) {
      index->wall_s = prev->wall_s;
    }
  }
  if (Status s = WriteReports(opts.out_dir, *index); !s.ok()) {
    return Fail(kExitInfra, "otpu-regress run: " + s.message());
  }
  if (opts.code_coverage) {
    StatusOr<CodeCoverage> cov = MergeCodeCoverage(opts.out_dir);
    if (!cov.ok()) {
      Fail(kExitInfra, "otpu-regress run: code coverage: " + cov.status().message());
      return code == kExitPass ? kExitInfra : code;
    }
    const std::string md = CodeCoverageMarkdown(*cov);
    StatusOr<std::string> summary = lens::ReadWholeFile(opts.out_dir + "/summary.md");
    for (const auto& [file, text] :
         {std::pair{"/code_coverage.json", CodeCoverageJson(*cov)},
          std::pair{"/code_coverage.md", md},
          std::pair{"/summary.md", (summary.ok() ? *summary + "\n" : std::string()) + md}}) {
      if (Status s = lens::WriteFileAtomically(opts.out_dir + file, text); !s.ok()) {
        return Fail(kExitInfra, "otpu-regress run: " + s.message());
      }
    }
    std::printf("code coverage: rtl/core line %.1f %%, toggle %.1f %% over %d cells; wrote %s/code_coverage.{json,md}\n",
                cov->core_line_percent(), cov->core_toggle_percent(), cov->cells,
                opts.out_dir.c_str());
  }
  return ExitCodeOf(*index);
}

// What `merge` needs in DIR before the Slurm jobs run: the selection with the submission's
// run id (slurm_command.h).
Status PrepareSlurmDir(const std::string& matrix, const std::string& only, const std::string& dir,
                       const std::string& run_id) {
  ASSIGN_OR_RETURN(Matrix m, ReadMatrix(matrix));
  ASSIGN_OR_RETURN(std::vector<Cell> cells, SelectCells(m, only, 1, 1));
  return WriteSelection(dir, m, cells, run_id);
}

cli::Command MakeCommand(const char* name, const char* synopsis, const char* summary,
                         void (*describe)(cli::Spec*), int (*run)(const std::vector<std::string>&)) {
  cli::Command c;
  c.name = name;
  c.synopsis = synopsis;
  c.summary = summary;
  c.describe = describe;
  c.run = run;
  return c;
}

int Main(int argc, char** argv) {
  cli::Program program;
  program.name = "otpu-regress";
  program.summary = "Hardware regression without a card: a matrix of cells, three verdicts each, "
                    "JUnit and Markdown reports (docs/regress.md).";
  program.family = otpu::exit_codes::Family::kRegress;
  cli::Command slurm = MakeCommand(
      "slurm", "MATRIX [-o DIR] [--wait] [--max-parallel K] [--only REGEX] [--sbatch-arg ARG]...",
      "submit the matrix as a Slurm job array and a merge job", DescribeSlurm, nullptr);
  slurm.run = [](const std::vector<std::string>& args) {
    std::vector<std::string> words = {"slurm"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    return RunSlurmCommand(int(argv.size()), argv.data(), PrepareSlurmDir);
  };
  program.commands = {
      MakeCommand("run",
                  "MATRIX [-j N] [--shard K/M] [--only REGEX] [--rerun-failed INDEX] [-o DIR] "
                  "[--baselines DIR | --baselines-at REV] [--accept] [--no-reuse] [--keep-profiles]",
                  "run the matrix's cells here, judge them and write the reports", DescribeRun, Run),
      MakeCommand("list", "MATRIX [--only REGEX] [--shard K/M] [--json]",
                  "print the selected cells, one per line (or as JSON)", DescribeList, List),
      MakeCommand("cell",
                  "MATRIX (--id ID | --index I [--only REGEX]) [-o DIR] [--baselines DIR] "
                  "[--accept] [--run ID]",
                  "run and judge one cell, write its result", DescribeCell, Cell_),
      MakeCommand("merge", "DIR", "merge DIR's cell results into index.json, junit.xml, summary.md",
                  DescribeMerge, Merge),
      slurm};
  return cli::RunProgram(program, argc, argv);
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
