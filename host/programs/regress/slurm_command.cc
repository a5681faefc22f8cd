#include "host/programs/regress/slurm_command.h"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "base/exit_codes.h"
#include "host/programs/regress/run_id.h"
#include "host/programs/regress/captured_command.h"
#include "host/programs/regress/slurm_backend.h"

namespace otpu::regress {
namespace {

namespace fs = std::filesystem;
namespace po = boost::program_options;

using exit_codes::regress::kExitBadInput;
using exit_codes::regress::kExitInfra;
using exit_codes::regress::kExitPass;
using exit_codes::regress::kExitUsage;

constexpr char kUsage[] =
    "usage: otpu-regress slurm MATRIX [-o DIR] [--wait] [--max-parallel K] [--only REGEX]\n"
    "                          [--sbatch-arg ARG]...\n";

int Fail(int code, const std::string& message) {
  std::cerr << "otpu-regress slurm: " << message << "\n";
  return code;
}

// Takes every `--sbatch-arg ARG` and `--sbatch-arg=ARG` out of `args` before option parsing:
// ARG itself starts with "--" (--partition=gpu), which program_options would read as an
// option of ours.
std::vector<std::string> TakeSbatchArgs(std::vector<std::string>& args, bool& missing_value) {
  std::vector<std::string> taken, rest;
  const std::string flag = "--sbatch-arg";
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == flag) {
      if (i + 1 == args.size()) { missing_value = true; break; }
      taken.push_back(args[++i]);
    } else if (args[i].rfind(flag + "=", 0) == 0) {
      taken.push_back(args[i].substr(flag.size() + 1));
    } else {
      rest.push_back(args[i]);
    }
  }
  args = rest;
  return taken;
}

// The path of the running otpu-regress, for the jobs to run the same binary.
StatusOr<std::string> SelfPath() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return Internal("cannot read /proc/self/exe: " + ec.message());
  return self.string();
}

}  // namespace

void DescribeSlurm(cli::Spec* spec) {
  spec->visible.add_options()
      ("out,o", po::value<std::string>()->value_name("DIR"),
       "DIR for scripts, logs/, cells/ and the merged index, on a file system every node sees "
       "(default out/regress/NAME, NAME the matrix file's stem)")
      ("wait", po::bool_switch(), "block until the merge job is done; exit with the merged verdict")
      ("max-parallel", po::value<int>()->value_name("K")->default_value(0),
       "at most K cells at once (--array=...%K); 0 for Slurm's own limits")
      ("only", po::value<std::string>()->value_name("REGEX"), "run only the cells whose id matches REGEX")
      ("sbatch-arg", po::value<std::vector<std::string>>()->value_name("ARG"),
       "ARG for both sbatch calls, repeatable (--sbatch-arg=--partition=p)");
  spec->hidden.add_options()("help,h", "this help")(
      "matrix", po::value<std::string>()->value_name("MATRIX"));
  spec->positional.add("matrix", 1);
}

int RunSlurmCommand(int argc, char** argv, const SlurmPrepare& prepare) {
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  bool sbatch_arg_missing = false;
  SlurmOptions options;
  options.sbatch_args = TakeSbatchArgs(args, sbatch_arg_missing);
  if (sbatch_arg_missing) return Fail(kExitUsage, "--sbatch-arg needs a value (see --help)");

  cli::Spec spec;
  DescribeSlurm(&spec);
  po::variables_map vm;
  if (!cli::Parse("otpu-regress", "slurm", args, spec, &vm)) return kExitUsage;
  if (vm.count("help")) {
    std::cout << kUsage << cli::OptionLines(spec.visible);
    return kExitPass;
  }
  const std::string matrix = vm.count("matrix") ? vm["matrix"].as<std::string>() : "";
  std::string out_dir = vm.count("out") ? vm["out"].as<std::string>() : "";
  options.max_parallel = vm["max-parallel"].as<int>();
  if (vm.count("only")) options.only = vm["only"].as<std::string>();
  if (matrix.empty()) return Fail(kExitUsage, "expected a MATRIX file (see --help)");
  if (options.max_parallel < 0) return Fail(kExitUsage, "--max-parallel must be 0 or more");

  auto self = SelfPath();
  if (!self.ok()) return Fail(kExitInfra, self.status().message());
  options.otpu_regress = *self;
  options.matrix = fs::absolute(matrix).lexically_normal().string();
  if (out_dir.empty()) out_dir = "out/regress/" + fs::path(matrix).stem().string();
  options.out_dir = fs::absolute(out_dir).lexically_normal().string();
  if (options.out_dir.size() > 1 && options.out_dir.back() == '/') options.out_dir.pop_back();

  // The cells, as the runner itself selects them: N is the number of lines.
  std::vector<std::string> list = {options.otpu_regress, "list", options.matrix};
  if (!options.only.empty()) list.insert(list.end(), {"--only", options.only});
  auto listed = RunCaptured(list);
  if (!listed.ok()) return Fail(kExitInfra, listed.status().message());
  if (listed->exit_code != 0) {
    // `list` already said what is wrong with the matrix (exit 4) or the options (2).
    std::cerr << listed->err;
    return listed->exit_code;
  }
  std::istringstream lines(listed->out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) ++options.cells;
  }
  if (options.cells == 0) {
    return Fail(kExitUsage, "no cells selected from " + options.matrix +
                                (options.only.empty() ? "" : " by --only " + options.only));
  }

  options.run_id = NewRunId();
  if (prepare) {
    Status prepared = prepare(options.matrix, options.only, options.out_dir, options.run_id);
    if (!prepared.ok()) {
      StatusCode c = prepared.code();
      bool bad_input = c == StatusCode::kInvalidArgument || c == StatusCode::kNotFound ||
                       c == StatusCode::kDataLoss;
      return Fail(bad_input ? kExitBadInput : kExitInfra, prepared.message());
    }
  }

  const auto submitted = fs::file_time_type::clock::now();
  auto submission = SubmitToSlurm(options);
  if (!submission.ok()) {
    int code = submission.status().code() == StatusCode::kInvalidArgument ? kExitUsage : kExitInfra;
    return Fail(code, submission.status().message());
  }
  std::cout << "otpu-regress slurm: array job " << submission->array_job << " ("
            << options.cells << (options.cells == 1 ? " cell" : " cells") << ", logs in "
            << options.out_dir << "/logs/<task>.log)\n"
            << "otpu-regress slurm: merge job " << submission->merge_job << " (afterany:"
            << submission->array_job << ", merges into " << options.out_dir << "/index.json)\n"
            << std::flush;
  if (!vm["wait"].as<bool>()) return kExitPass;

  SlurmWaitOptions wait;
  // Progress: results written into cells/ since the submission (older ones are from an
  // earlier run in the same DIR).
  int reported = 0;
  wait.on_poll = [&] {
    int done = 0;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(options.out_dir + "/cells", ec)) {
      std::error_code time_ec;
      if (entry.path().extension() == ".json" && entry.last_write_time(time_ec) >= submitted) ++done;
    }
    if (done != reported) {
      reported = done;
      std::cout << "otpu-regress slurm: " << done << "/" << options.cells << " cells done\n"
                << std::flush;
    }
  };
  auto verdict = WaitForSlurm(*submission, options.out_dir, wait);
  if (!verdict.ok()) return Fail(kExitInfra, verdict.status().message());
  const char* what = *verdict == 0   ? "every cell passed"
                     : *verdict == 1 ? "some verdict failed"
                     : *verdict == 5 ? "some cell could not be judged (infrastructure)"
                                     : "the merge failed";
  std::cout << "otpu-regress slurm: merge job " << submission->merge_job << " exited "
            << *verdict << ": " << what << "; see " << options.out_dir << "/summary.md and "
            << options.out_dir << "/logs/\n";
  return *verdict;
}

}  // namespace otpu::regress
