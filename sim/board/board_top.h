// The SystemC board (SPEC 3.5): the core clock domain with the Verilated board, the DRAM
// module, the register bus, the host DMA router and the host port, bound together:
//   host.reg -> regs.socket -> core (register port)
//   host.dma -> router.host -> router.dram -> dram.dma   (DRAM addresses)
//                           -> core (trace DMA-window port)   (kTraceWindowBase..)
//   core -> dram.model() by direct calls every cycle
// C++17 (SystemC).
#ifndef OTPU_SIM_BOARD_BOARD_TOP_H_
#define OTPU_SIM_BOARD_BOARD_TOP_H_

#include <cstdint>

#include <systemc>

#include "sim/board/core_module.h"
#include "sim/board/dma_router.h"
#include "sim/board/dram_module.h"
#include "sim/board/host_port.h"
#include "sim/board/reg_bus.h"
#include "sim/rtl/dram_model.h"
#include "workloads/isa/config.h"

namespace otpu::board {

struct BoardTopParams {
  isa::Config config;            // a built RTL configuration (rtl_configs.h)
  rtl::DramOptions mem;
  int regmap = 2;                // map version; 1 has no trace window
  sc_core::sc_time reg_access;   // one host register access in all
  DmaReadCost window_read;       // what a host DMA read of the trace window costs
};

class BoardTop : public sc_core::sc_module {
 public:
  BoardTop(sc_core::sc_module_name name, const BoardTopParams& params);

  // Declaration order is construction order: the DRAM before the core that uses it.
  DramModule dram;
  CoreModule core;
  RegBus regs;
  DmaRouter router;
  HostPort host;

  // SetMemory: a new DRAM model under the same store, and the core clocked against it.
  void SetMemory(const rtl::DramOptions& mem);
};

}  // namespace otpu::board

#endif  // OTPU_SIM_BOARD_BOARD_TOP_H_
