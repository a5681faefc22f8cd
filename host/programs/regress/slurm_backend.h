// The Slurm backend of otpu-regress (docs/regress.md, "Slurm backend"): one job array with a
// task per matrix cell, plus a merge job that runs after all of them (afterany). Slurm is the
// scheduler; this only writes two batch scripts, submits them and watches the merge job.
//
// Task i runs `otpu-regress cell MATRIX --index i --out DIR [--only RE]`, which writes
// DIR/cells/<ID>.json; the merge job runs `otpu-regress merge DIR` and records its exit code in
// DIR/merge.rc. Wait() reads the verdict from DIR/merge.rc rather than from index.json: the
// file exists only when the merge itself ran to the end, so "merge never ran" (cancelled,
// node failure) is told apart from "some cell failed". DIR must be on a file system every
// node sees.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_SLURM_BACKEND_H_
#define OTPU_HOST_PROGRAMS_REGRESS_SLURM_BACKEND_H_

#include <functional>
#include <string>
#include <vector>

#include "base/status.h"

namespace otpu::regress {

// What to submit. Paths must be absolute: the jobs run elsewhere, in another directory.
struct SlurmOptions {
  std::string otpu_regress;  // the otpu-regress binary the tasks and the merge run
  std::string matrix;        // the matrix file
  std::string out_dir;       // DIR: scripts, logs/, cells/, merge.rc, index.json
  int cells = 0;             // N, the number of selected cells (`otpu-regress list`); > 0
  int max_parallel = 0;      // K, at most K tasks at once (--array=...%K); 0 for no limit
  std::string only;          // the --only regex the cells were selected with; "" for all
  std::string run_id;        // the submission's id, passed to every task (--run); "" for none
  std::vector<std::string> sbatch_args;  // passed to both sbatch calls (--partition=...)
  std::string sbatch = "sbatch";         // the sbatch program (PATH searched)
};

// The two jobs of one submission.
struct SlurmSubmission {
  std::string array_job;  // job id of the cell array
  std::string merge_job;  // job id of the merge job
};

// How Wait polls.
struct SlurmWaitOptions {
  std::string squeue = "squeue";  // the squeue program (PATH searched)
  double poll_seconds = 2;        // between two squeue calls
  double timeout_seconds = 0;     // give up after this long; 0 waits for ever
  int max_squeue_failures = 30;   // consecutive failed squeue calls (controller away) tolerated
  // How long merge.rc may take to appear after the merge job left the queue: on NFS the
  // submitting host can see a file written on a compute node seconds later.
  double merge_rc_grace_seconds = 15;
  // Called before every squeue poll and once the merge job has left the queue (progress
  // reports); may be empty.
  std::function<void()> on_poll;
};

// Script file names inside DIR.
inline constexpr char kCellsScript[] = "cells.sbatch";
inline constexpr char kMergeScript[] = "merge.sbatch";
// The merge job's exit code, written by the merge script once `otpu-regress merge` returned.
inline constexpr char kMergeRcFile[] = "merge.rc";

// The array's batch script: runs the cell of $SLURM_ARRAY_TASK_ID.
std::string CellsScript(const SlurmOptions& options);
// The merge job's batch script: merges, then records the merge's exit code in DIR/merge.rc.
std::string MergeScript(const SlurmOptions& options);

// The sbatch command lines Submit runs (the merge's without its --dependency).
std::vector<std::string> CellsSbatchCommand(const SlurmOptions& options);
std::vector<std::string> MergeSbatchCommand(const SlurmOptions& options,
                                            const std::string& array_job);

// Parses `sbatch --parsable` output ("ID" or "ID;CLUSTER") into the job id.
StatusOr<std::string> ParseJobId(const std::string& sbatch_output);

// Creates DIR/logs and DIR/cells, removes a stale DIR/merge.rc and the results of earlier
// submissions (DIR/cells/*.json), writes both scripts (each to a
// temporary name, then renamed), and submits the array, then the merge with
// --dependency=afterany:<array>. Errors name the command and quote sbatch's stderr; when the
// merge submission fails the array is already queued, and the message gives its id.
StatusOr<SlurmSubmission> SubmitToSlurm(const SlurmOptions& options);

// Polls `squeue -h -j <merge job>` until the merge job has left the queue, then returns the
// merged verdict, `otpu-regress merge`'s exit code from DIR/merge.rc (0 every cell passed,
// 1 some verdict failed, 5 some cell could not be judged, 4 unreadable results). Internal when
// the merge job ended without writing merge.rc (naming its log), Unavailable when squeue kept
// failing, DeadlineExceeded on timeout.
StatusOr<int> WaitForSlurm(const SlurmSubmission& submission, const std::string& out_dir,
                           const SlurmWaitOptions& options);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_SLURM_BACKEND_H_
