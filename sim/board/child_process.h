// A process holds one SystemC kernel and so one SimBoard: tests and the bench that need two
// boards (two quanta, say) make each in a forked child. C++20 (no SystemC).
#ifndef OTPU_SIM_BOARD_CHILD_PROCESS_H_
#define OTPU_SIM_BOARD_CHILD_PROCESS_H_

#include <functional>
#include <string>

#include "base/status.h"

namespace otpu::board {

// Runs `fn` in a forked child and returns the text it returned. The caller must not have
// made a SimBoard yet (the child inherits the kernel). Internal naming the child's exit
// status when it does not exit 0 (a crash, an OTPU_CHECK).
StatusOr<std::string> RunInChild(const std::function<std::string()>& fn);

}  // namespace otpu::board

#endif  // OTPU_SIM_BOARD_CHILD_PROCESS_H_
