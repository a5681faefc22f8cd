// `otpu-lens record` on any board (SPEC 9): probe it, build the workload for its configuration
// (a kernel from list, or a checkpoint's decode), record it (lens/board_record.h), print one
// line per profile and the losses, write the file. A card (XdmaBoard) and the board model
// (SimBoard) run the same code: only the BoardIface differs.
#ifndef OTPU_HOST_PROGRAMS_RECORD_COMMAND_H_
#define OTPU_HOST_PROGRAMS_RECORD_COMMAND_H_

#include <chrono>
#include <optional>
#include <string>

#include "host/board_iface.h"
#include "host/programs/rtl_parity_tap.h"
#include "lens/board_step_runner.h"
#include "workloads/models/checkpoint_run.h"
#include "workloads/traced_steps.h"

namespace otpu::host {

struct RecordArgs {
  std::string out;                           // -o: the profile file
  std::string workload = "mlp-small";        // --workload, when no checkpoint
  workloads::TraceRequest trace;             // --pos, --tokens, --wformat of the workload
  std::optional<models::CheckpointRequest> checkpoint;  // --model ...: the checkpoint's decode
  lens::TraceKeep keep = lens::TraceKeep::kAuto;  // --keep
  std::string mem = "card";                  // config.MEM of the profiles
  std::chrono::milliseconds timeout{10000};  // per run: a card's; the model needs far more
  bool progress = false;  // --progress: the status line on stderr even off a terminal
  // --rtl-parity (board model only): the core's event tap, attached to the board; each hw
  // profile must equal the rtl profile of its run, or nothing is written (exit 1).
  RtlParityTap* rtl_parity = nullptr;
};

// Records on `board` and writes args.out (nothing on failure). Prints progress on stdout, a
// note on stderr when the board has no trace buffer, and a failure as one stderr line; returns
// the exit code (docs/cli.md: 1 failure, 2 usage). A checkpoint run also prints the greedy
// token of every traced step.
int RecordOn(BoardIface& board, const RecordArgs& args);

}  // namespace otpu::host

#endif  // OTPU_HOST_PROGRAMS_RECORD_COMMAND_H_
