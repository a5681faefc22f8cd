// Force-included into Verilator's runtime sources (verilated.cpp) of every model
// (rtl/otpu_verilator.cmake: -DVL_PRINTF=otpu_vl_printf -DVL_USER_STOP_MAYBE): the two hooks
// through which an assertion's $error reaches sim/rtl/assertions.h. Defined in vl_hooks.cc.
#ifndef OTPU_SIM_RTL_VL_HOOKS_H_
#define OTPU_SIM_RTL_VL_HOOKS_H_

// printf for Verilator's messages ($display, $error's text): printed, and an assertion's text
// kept for the vl_stop_maybe that follows it.
int otpu_vl_printf(const char* format, ...) __attribute__((format(printf, 1, 2)));

// Verilator's $stop and $error end here (VL_STOP_MT): under an AssertionCapture the failure is
// recorded and the simulation goes on; otherwise Verilator's own vl_stop_maybe (count, then
// stop past +verilator+error+limit). Verilator declares it nowhere when a user defines it.
void vl_stop_maybe(const char* filename, int linenum, const char* hier, bool maybe);

#endif  // OTPU_SIM_RTL_VL_HOOKS_H_
