// SV assertion failures of the Verilated models as data (docs/regress.md "Assertions"). Every
// model is verilated with `--assert` (rtl/otpu_verilator.cmake), and Verilator's runtime in
// them prints through otpu_vl_printf and stops through our vl_stop_maybe (sim/rtl/vl_hooks.h).
// While an AssertionCapture is alive on a thread, an immediate assertion's `$error` that a
// model evaluated on that thread raises becomes an AssertionFailure in the capture's list, and
// the simulation goes on; without one, Verilator's own behaviour stands (print, then abort).
#ifndef OTPU_SIM_RTL_ASSERTIONS_H_
#define OTPU_SIM_RTL_ASSERTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace otpu::rtl {

// One failed assertion.
struct AssertionFailure {
  std::string name;     // the assertion's label ("FifoNoPushWhenFull"), or its scope's last part
  std::string scope;    // its hierarchical scope, "otpu_board.u_core....FifoNoPushWhenFull"
  std::string file;     // the SV file as Verilator names it, "rtl/core/otpu_fifo.sv"
  int line = 0;
  std::string message;  // what its $error says
  int64_t cycle = -1;   // the run cycle whose clock edge it failed at (0 = RUN's first); -1: none
  // "FifoNoPushWhenFull at rtl/core/otpu_fifo.sv:67, run cycle 12: otpu_fifo: push when full"
  std::string Text() const;
  // (Spelled out: sim/board compiles as C++17, as Debian's SystemC was built.)
  bool operator==(const AssertionFailure& o) const {
    return name == o.name && scope == o.scope && file == o.file && line == o.line &&
           message == o.message && cycle == o.cycle;
  }
};

// Captures on this thread while alive (nests: the innermost wins). `sink` and `cycle` are
// borrowed; *cycle is read when a failure happens.
class AssertionCapture {
 public:
  AssertionCapture(std::vector<AssertionFailure>* sink, const int64_t* cycle);
  ~AssertionCapture();
  AssertionCapture(const AssertionCapture&) = delete;
  AssertionCapture& operator=(const AssertionCapture&) = delete;

 private:
  std::vector<AssertionFailure>* prev_sink_;
  const int64_t* prev_cycle_;
};

// True when the models of this build were verilated with --assert (the CMake option
// OTPU_RTL_ASSERT, on by default): without, no assertion can fail.
bool AssertionsCompiled();

// The line a model prints for `f` on stderr ("otpu-rtl: assertion failed: " + f.Text()) and
// its parser (false for any other line): how a failure in another process (the card's
// emulator) reaches otpu-regress.
std::string AssertionLine(const AssertionFailure& f);
bool ParseAssertionLine(const std::string& line, AssertionFailure* f);

}  // namespace otpu::rtl

#endif  // OTPU_SIM_RTL_ASSERTIONS_H_
