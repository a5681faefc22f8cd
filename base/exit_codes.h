// The exit codes of each program family, in one place: mains return these, `--help` prints
// ExitStatusHelp(family), and each family's doc page states the table once.
#ifndef OTPU_BASE_EXIT_CODES_H_
#define OTPU_BASE_EXIT_CODES_H_

#include <string>

namespace otpu::exit_codes {

// lens and otpu-lens (docs/cli.md "Exit codes and errors").
namespace lens {
inline constexpr int kExitOk = 0;       // success
inline constexpr int kExitFailure = 1;  // I/O, a failed check, a board error
inline constexpr int kExitUsage = 2;    // bad command line
inline constexpr int kExitBusy = 3;     // the device is locked by another process
inline constexpr int kExitBadFile = 4;  // a bad profile or checkpoint file
}  // namespace lens

// otpu-regress (docs/regress.md "Exit codes").
namespace regress {
inline constexpr int kExitPass = 0;      // every verdict passed
inline constexpr int kExitFail = 1;      // some verdict failed (a finding)
inline constexpr int kExitUsage = 2;     // bad command line
inline constexpr int kExitBadInput = 4;  // unreadable or invalid matrix, baseline or index
inline constexpr int kExitInfra = 5;     // a cell could not be judged (crash, emulator, Slurm)
}  // namespace regress

// otpu-lock's own codes; otherwise it exits with the command's (docs/otpu-lock.md).
namespace lock {
inline constexpr int kExitError = 1;  // unsafe lock file or run dir, I/O error
inline constexpr int kExitUsage = 2;  // bad option, no command
inline constexpr int kExitBusy = 3;   // the device was still busy when the wait ended
}  // namespace lock

// otpu-xdma-emu (docs/xdma.md "Exit codes").
namespace xdma_emu {
inline constexpr int kExitOk = 0;     // a clean stop
inline constexpr int kExitError = 1;  // the board or the mount failed
inline constexpr int kExitUsage = 2;  // bad option
inline constexpr int kExitBusy = 3;   // the mount point is taken or not empty
}  // namespace xdma_emu

// otpu-mkcheckpoint and otpu-prebuild (docs/models.md "Exit codes").
namespace tools {
inline constexpr int kExitOk = 0;       // done (or nothing to do)
inline constexpr int kExitFailure = 1;  // I/O or conversion failure
inline constexpr int kExitUsage = 2;    // bad option
}  // namespace tools

// The program families above.
enum class Family { kLens, kRegress, kLock, kXdmaEmu, kTools };

// The "Exit status:" lines `--help` prints for `family`, ending in a newline.
std::string ExitStatusHelp(Family family);

}  // namespace otpu::exit_codes

#endif  // OTPU_BASE_EXIT_CODES_H_
