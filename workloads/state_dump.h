// The state-dump epilogue: a program that stores all of TMEM and a signature of all of ACT
// RAM into a DRAM region, so a board's architectural state can be compared with the ISA
// simulator's through the ISA alone (as the RISC-V architecture tests do with their
// signature region). Run after a workload's last step; it overwrites TMEM words
// [0, 2·ACT_ROWS·D) after dumping them.
//
// ACT RAM holds int8 values and per-block scales that no instruction stores; an MM with UNIT
// weights that are the D×D identity gives out[i][j] = mul(float(act[i][b·D + j]), sa[i][b])
// for block b: the signature of (row i, block b) is those D words.
#ifndef OTPU_WORKLOADS_STATE_DUMP_H_
#define OTPU_WORKLOADS_STATE_DUMP_H_

#include <cstdint>
#include <vector>

#include "workloads/isa/config.h"
#include "workloads/isa/program.h"
#include "workloads/workload.h"

namespace otpu::workloads {

struct StateDump {
  isa::Program program;
  std::vector<DramWrite> writes;  // the identity weights, written before the program runs
  DramRange tmem;                 // TMEM word w at tmem.addr + 4·w
  DramRange act;                  // ACT (row, block) signature word j at act.addr +
                                  // 4·((block·ACT_ROWS + row)·D + j)
};

// The dump for `cfg`, its region at the top of DRAM (whole 64 KiB pages no workload uses).
StateDump MakeStateDump(const isa::Config& cfg);

}  // namespace otpu::workloads

#endif  // OTPU_WORKLOADS_STATE_DUMP_H_
