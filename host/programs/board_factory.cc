#include "host/programs/board_factory.h"

#include "host/xdma/xdma_board.h"
#include "sim/board/sim_board.h"
#include "sim/rtl/rtl_configs.h"

namespace otpu::host {

StatusOr<std::unique_ptr<BoardIface>> MakeBoard(const BoardChoice& choice) {
  if (!choice.sim) {
    ASSIGN_OR_RETURN(std::unique_ptr<XdmaBoard> card, XdmaBoard::Create(choice.dev));
    return std::unique_ptr<BoardIface>(std::move(card));
  }
  board::SimBoardOptions opts;
  if (!choice.config.empty()) {
    ASSIGN_OR_RETURN(opts.config, rtl::BuiltConfigNamed(choice.config));
  }
  opts.regmap = choice.regmap;
  opts.mem.stall_percent = choice.stall_percent;
  if (choice.mem) opts.mem = *choice.mem;
  ASSIGN_OR_RETURN(std::unique_ptr<board::SimBoard> b, board::SimBoard::Create(opts));
  if (choice.hook) b->AddHook(choice.hook);
  return std::unique_ptr<BoardIface>(std::move(b));
}

std::string BoardMemoryName(const BoardChoice& choice) {
  if (!choice.sim) return "card";
  if (choice.mem) return choice.mem->Name();
  rtl::DramOptions mem = board::SimBoardOptions::DefaultMemory();
  mem.stall_percent = choice.stall_percent;
  return mem.Name();
}

}  // namespace otpu::host
