#include "sim/board/board_top.h"

namespace otpu::board {

BoardTop::BoardTop(sc_core::sc_module_name name, const BoardTopParams& params)
    : sc_core::sc_module(name),
      dram("dram", params.config.DRAM_BYTES, params.config.D, params.mem),
      core("core", params.config, dram.model(), params.regmap),
      regs("regs", &core, params.reg_access),
      router("router", &core, params.config.DRAM_BYTES,
             params.regmap >= 2 ? uint64_t(BoardModel::TraceDepth()) : 0, params.window_read),
      host("host") {
  host.reg.bind(regs.socket);
  host.dma.bind(router.host);
  router.dram.bind(dram.dma);
}

void BoardTop::SetMemory(const rtl::DramOptions& mem) {
  core.board().set_dram(dram.Rebuild(mem));
}

}  // namespace otpu::board
