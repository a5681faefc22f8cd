// The one range of `--stall N` in every program (lens record, otpu-xdma-emu): a percent of
// cycles from 0 (no stalls) to kMaxStallPercent (100 would never be ready). Defined in
// dram_model.cc, whose stalling memory it parameterises; a header of its own so the programs
// that check the option do not rebuild with every change to the memory model.
#ifndef OTPU_SIM_RTL_STALL_PERCENT_H_
#define OTPU_SIM_RTL_STALL_PERCENT_H_

#include "base/status.h"

namespace otpu::rtl {

inline constexpr int kMaxStallPercent = 99;

// OK for 0..kMaxStallPercent; InvalidArgument "--stall N: expected a percent of cycles from 0
// to 99" otherwise.
Status CheckStallPercent(int percent);

}  // namespace otpu::rtl

#endif  // OTPU_SIM_RTL_STALL_PERCENT_H_
