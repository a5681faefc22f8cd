// `otpu-regress slurm MATRIX [--out DIR] [--wait] [--max-parallel K] [--only REGEX]
// [--sbatch-arg ARG]...`: the command line of the Slurm backend (slurm_backend.h), kept apart
// from otpu-regress's main so the runner wires it in with one line.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_SLURM_COMMAND_H_
#define OTPU_HOST_PROGRAMS_REGRESS_SLURM_COMMAND_H_

namespace otpu::regress {

// Runs the `slurm` subcommand. argv[0] is the subcommand's name ("slurm") and is ignored; the
// rest are its options. Selects the cells with `<this binary> list MATRIX [--only REGEX]`,
// submits the array and the merge job, prints both job ids, and with --wait blocks until the
// merge job is done. Returns the process exit code: 0 submitted (or, with --wait, every cell
// passed), 1 some cell failed (--wait), 2 usage, 4 bad matrix (as `list` reported it),
// 5 infrastructure (sbatch or squeue missing or failing, merge job lost), each with one
// stderr line naming what failed.
int RunSlurmCommand(int argc, char** argv);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_SLURM_COMMAND_H_
