#include "base/exit_codes.h"

namespace otpu::exit_codes {

std::string ExitStatusHelp(Family family) {
  switch (family) {
    case Family::kLens:
      return "Exit status:\n"
             "  0  success\n"
             "  1  failure (I/O, a failed check, a board error)\n"
             "  2  usage (bad command, option or value)\n"
             "  3  the device is busy (locked by another process)\n"
             "  4  a bad profile or checkpoint file\n";
    case Family::kRegress:
      return "Exit status:\n"
             "  0  every verdict passed\n"
             "  1  a verdict failed (a finding)\n"
             "  2  usage (bad command, option or value)\n"
             "  4  a bad matrix, baseline or index\n"
             "  5  infrastructure: a cell could not be judged (nothing failed)\n";
    case Family::kLock:
      return "Exit status:\n"
             "  N    COMMAND's status (128 + signal when a signal killed it)\n"
             "  1    the lock could not be taken (unsafe run dir or lock file, I/O error)\n"
             "  2    usage (bad option, no command)\n"
             "  3    the device was still busy when the wait ended\n"
             "  126  COMMAND cannot be executed\n"
             "  127  COMMAND was not found\n";
    case Family::kXdmaEmu:
      return "Exit status:\n"
             "  0  a clean stop (signal or unmount)\n"
             "  1  the board model or the mount failed\n"
             "  2  usage (bad option)\n"
             "  3  the mount point is busy (mounted on, or not empty)\n";
    case Family::kTools:
      return "Exit status:\n"
             "  0  done (or nothing to do)\n"
             "  1  failure (I/O, conversion)\n"
             "  2  usage (bad option)\n";
  }
  return "";
}

}  // namespace otpu::exit_codes
