#include "host/programs/regress/slurm_backend.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "host/programs/regress/captured_command.h"

namespace otpu::regress {
namespace {

namespace fs = std::filesystem;

std::string Trim(const std::string& text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

// `text` trimmed, its lines joined with "; ", so a tool's stderr fits one message line.
std::string OneLine(const std::string& text) {
  std::string line;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string part = Trim(text.substr(start, end - start));
    if (!part.empty()) line += (line.empty() ? "" : "; ") + part;
    start = end + 1;
  }
  return line;
}

std::string Path(const std::string& dir, const std::string& name) { return dir + "/" + name; }

// Writes `text` to `path` through `path`.tmp and a rename, so a job never starts a half
// written script (a resubmission may race with a task of the previous one).
Status WriteFileAtomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
    file << text;
    file.close();
    if (!file) return Internal("cannot write " + tmp + ": " + std::strerror(errno));
  }
  std::error_code ec;
  fs::permissions(tmp, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec, ec);
  if (ec) return Internal("cannot chmod " + tmp + ": " + ec.message());
  fs::rename(tmp, path, ec);
  if (ec) return Internal("cannot rename " + tmp + " to " + path + ": " + ec.message());
  return OkStatus();
}

// Runs one sbatch command line and returns the job id it printed.
StatusOr<std::string> RunSbatch(const std::vector<std::string>& argv) {
  auto result = RunCaptured(argv);
  if (!result.ok()) return result.status().WithContext(CommandLine(argv));
  if (result->exit_code != 0) {
    std::string err = OneLine(result->err);
    return Internal(CommandLine(argv) + " failed (exit " + std::to_string(result->exit_code) +
                    ")" + (err.empty() ? "" : ": " + err));
  }
  auto id = ParseJobId(result->out);
  if (!id.ok()) return id.status().WithContext(CommandLine(argv));
  return id;
}

}  // namespace

std::string CellsScript(const SlurmOptions& options) {
  std::string only = options.only.empty() ? "" : " --only " + ShellQuote(options.only);
  if (!options.run_id.empty()) only += " --run " + ShellQuote(options.run_id);
  return "#!/bin/sh\n"
         "# Written by `otpu-regress slurm` (docs/regress.md): array task i runs the i-th\n"
         "# selected cell of the matrix and writes its result JSON into cells/.\n"
         ": \"${SLURM_ARRAY_TASK_ID:?is not set: submit this script as a Slurm job array}\"\n"
         "exec " + ShellQuote(options.otpu_regress) + " cell " + ShellQuote(options.matrix) +
         " --index \"$SLURM_ARRAY_TASK_ID\" --out " + ShellQuote(options.out_dir) + only + "\n";
}

std::string MergeScript(const SlurmOptions& options) {
  std::string rc = ShellQuote(Path(options.out_dir, kMergeRcFile));
  std::string rc_tmp = ShellQuote(Path(options.out_dir, std::string(kMergeRcFile) + ".tmp"));
  return "#!/bin/sh\n"
         "# Written by `otpu-regress slurm` (docs/regress.md): runs after every array task\n"
         "# ended (afterany), merges cells/ into index.json, junit.xml and summary.md, and\n"
         "# records the merge's exit code (0 all passed, 1 not) in merge.rc for --wait.\n"
         + ShellQuote(options.otpu_regress) + " merge " + ShellQuote(options.out_dir) + "\n"
         "rc=$?\n"
         "echo \"$rc\" > " + rc_tmp + " && mv -f " + rc_tmp + " " + rc + "\n"
         "exit \"$rc\"\n";
}

std::vector<std::string> CellsSbatchCommand(const SlurmOptions& options) {
  std::string array = "--array=0-" + std::to_string(options.cells - 1);
  if (options.max_parallel > 0) array += "%" + std::to_string(options.max_parallel);
  std::vector<std::string> argv = {options.sbatch, "--parsable", "--job-name=otpu-regress-cells",
                                   array,
                                   "--output=" + Path(options.out_dir, "logs/%a.log")};
  // After ours, so a user's --job-name or --output wins (sbatch keeps the last one).
  argv.insert(argv.end(), options.sbatch_args.begin(), options.sbatch_args.end());
  argv.push_back(Path(options.out_dir, kCellsScript));
  return argv;
}

std::vector<std::string> MergeSbatchCommand(const SlurmOptions& options,
                                            const std::string& array_job) {
  std::vector<std::string> argv = {options.sbatch, "--parsable", "--job-name=otpu-regress-merge",
                                   "--dependency=afterany:" + array_job,
                                   "--output=" + Path(options.out_dir, "logs/merge.log")};
  argv.insert(argv.end(), options.sbatch_args.begin(), options.sbatch_args.end());
  argv.push_back(Path(options.out_dir, kMergeScript));
  return argv;
}

StatusOr<std::string> ParseJobId(const std::string& sbatch_output) {
  std::string line = Trim(sbatch_output);
  // sbatch may print warnings before the id; the id is the last line.
  size_t newline = line.find_last_of('\n');
  if (newline != std::string::npos) line = Trim(line.substr(newline + 1));
  std::string id = line.substr(0, line.find(';'));  // "ID;CLUSTER" on federated clusters
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    return DataLoss("expected a job id from sbatch --parsable, got '" + Trim(sbatch_output) + "'");
  }
  return id;
}

StatusOr<SlurmSubmission> SubmitToSlurm(const SlurmOptions& options) {
  for (const std::string* path : {&options.otpu_regress, &options.matrix, &options.out_dir}) {
    if (path->empty() || (*path)[0] != '/') {
      return InvalidArgument("slurm backend: '" + *path + "' is not an absolute path");
    }
  }
  if (options.cells <= 0) return InvalidArgument("slurm backend: no cells to submit");
  if (options.max_parallel < 0) return InvalidArgument("slurm backend: max parallel below 0");

  std::error_code ec;
  for (const char* sub : {"logs", "cells"}) {
    fs::create_directories(Path(options.out_dir, sub), ec);
    if (ec) return Internal("cannot create " + Path(options.out_dir, sub) + ": " + ec.message());
  }
  // A merge.rc left by an earlier submission would make Wait report that one's verdict.
  fs::remove(Path(options.out_dir, kMergeRcFile), ec);
  if (ec) return Internal("cannot remove " + Path(options.out_dir, kMergeRcFile) + ": " + ec.message());
  // Results of an earlier submission must not be merged as this one's (the merge also refuses
  // them by run id; removing them keeps DIR/cells/ to this submission's).
  for (const auto& entry : fs::directory_iterator(Path(options.out_dir, "cells"), ec)) {
    if (entry.path().extension() != ".json") continue;
    std::error_code rm;
    fs::remove(entry.path(), rm);
    if (rm) return Internal("cannot remove " + entry.path().string() + ": " + rm.message());
  }
  if (ec) return Internal("cannot list " + Path(options.out_dir, "cells") + ": " + ec.message());
  RETURN_IF_ERROR(WriteFileAtomically(Path(options.out_dir, kCellsScript), CellsScript(options)));
  RETURN_IF_ERROR(WriteFileAtomically(Path(options.out_dir, kMergeScript), MergeScript(options)));

  SlurmSubmission submission;
  ASSIGN_OR_RETURN(submission.array_job, RunSbatch(CellsSbatchCommand(options)));
  auto merge = RunSbatch(MergeSbatchCommand(options, submission.array_job));
  if (!merge.ok()) {
    return merge.status().WithContext("array job " + submission.array_job +
                                      " is queued, but its merge job was not submitted");
  }
  submission.merge_job = *merge;
  return submission;
}

StatusOr<int> WaitForSlurm(const SlurmSubmission& submission, const std::string& out_dir,
                           const SlurmWaitOptions& options) {
  const std::vector<std::string> argv = {options.squeue, "-h", "-j", submission.merge_job,
                                         "-o", "%T"};
  auto start = std::chrono::steady_clock::now();
  int failures = 0;
  for (;;) {
    if (options.on_poll) options.on_poll();
    auto result = RunCaptured(argv);
    if (!result.ok()) return result.status().WithContext(CommandLine(argv));
    std::string err = OneLine(result->err);
    if (result->exit_code == 0) {
      failures = 0;
      // squeue lists pending and running jobs only: no line means the job has ended.
      if (Trim(result->out).empty()) break;
    } else if (err.find("Invalid job id") != std::string::npos) {
      break;  // ended and already purged from the controller's memory (MinJobAge)
    } else if (++failures > options.max_squeue_failures) {
      return Unavailable(CommandLine(argv) + " failed " + std::to_string(failures) +
                         " times in a row (exit " + std::to_string(result->exit_code) + ")" +
                         (err.empty() ? "" : ": " + err));
    }
    std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start;
    if (options.timeout_seconds > 0 && waited.count() >= options.timeout_seconds) {
      return DeadlineExceeded("merge job " + submission.merge_job + " still queued after " +
                              std::to_string(static_cast<int>(waited.count())) + " s");
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(options.poll_seconds));
  }

  if (options.on_poll) options.on_poll();
  const std::string rc_path = Path(out_dir, kMergeRcFile);
  const std::string log = Path(out_dir, "logs/merge.log");
  auto gone = std::chrono::steady_clock::now();
  while (!fs::exists(rc_path) &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - gone).count() <
             options.merge_rc_grace_seconds) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  std::ifstream file(rc_path);
  if (!file) {
    return Internal("merge job " + submission.merge_job + " ended without writing " + rc_path +
                    " (cancelled or never started?); see " + log);
  }
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::string rc = Trim(text);
  if (rc.empty() || rc.size() > 3 || rc.find_first_not_of("0123456789") != std::string::npos) {
    return Internal(rc_path + ": expected the merge's exit code, got '" + rc + "'; see " + log);
  }
  return std::stoi(rc);
}

}  // namespace otpu::regress
