// `otpu-regress slurm MATRIX [-o DIR] [--wait] [--max-parallel K] [--only REGEX]
// [--sbatch-arg ARG]...`: the command line of the Slurm backend (slurm_backend.h), kept apart
// from otpu-regress's main so the runner wires it in with one line.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_SLURM_COMMAND_H_
#define OTPU_HOST_PROGRAMS_REGRESS_SLURM_COMMAND_H_

#include <functional>
#include <string>

#include "base/cli.h"
#include "base/status.h"

namespace otpu::regress {

// Prepares DIR for `otpu-regress merge DIR` before anything is submitted: the runner writes
// there which cells MATRIX --only REGEX selects (its selection.json), so the merge can count a
// cell whose task died as missing. InvalidArgument, NotFound or DataLoss for a bad matrix
// (exit 4), anything else is infrastructure (exit 5).
// `run_id` is the submission's id (run_id.h): the selection records it, every task stamps its
// result with it, and the merge counts no other result.
using SlurmPrepare = std::function<Status(const std::string& matrix, const std::string& only,
                                          const std::string& out_dir, const std::string& run_id)>;

// Runs the `slurm` subcommand. argv[0] is the subcommand's name ("slurm") and is ignored; the
// rest are its options. Selects the cells with `<this binary> list MATRIX [--only REGEX]`,
// submits the array and the merge job, prints both job ids, and with --wait blocks until the
// merge job is done. Returns the process exit code: 0 submitted (or, with --wait, every cell
// passed), otherwise with --wait the merge's exit code (1 some verdict failed, 5 some cell not
// judged), 2 usage, 4 bad matrix (as `list` or `prepare` reported it), 5 infrastructure (sbatch
// or squeue missing or failing, merge job lost), each with one stderr line naming what failed.
// `prepare` (may be empty) runs after the selection and before the submission.
int RunSlurmCommand(int argc, char** argv, const SlurmPrepare& prepare = {});

// The options and the MATRIX positional of `slurm` (help and completion: base/cli.h).
void DescribeSlurm(cli::Spec* spec);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_SLURM_COMMAND_H_
