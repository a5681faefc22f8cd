// Test helpers for SimBoard: a board that must come up, and register reads that must succeed
// (sim/board's own tests and tests/board's whole runs).
#ifndef OTPU_SIM_BOARD_SIM_BOARD_TESTING_H_
#define OTPU_SIM_BOARD_SIM_BOARD_TESTING_H_

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

#include "sim/board/sim_board.h"
#include "workloads/isa/defs.h"

namespace otpu::board::board_testing {

// The register offset of `reg`.
inline uint32_t Off(isa::Reg reg) { return static_cast<uint32_t>(reg); }

// A board with `opts`; aborts the test binary (naming why) when it cannot be made.
inline std::unique_ptr<SimBoard> MakeBoard(const SimBoardOptions& opts = {}) {
  StatusOr<std::unique_ptr<SimBoard>> board = SimBoard::Create(opts);
  if (!board.ok()) std::fprintf(stderr, "%s\n", board.status().message().c_str());
  OTPU_CHECK(board.ok());
  return std::move(board).value();
}

// The register at `offset`; a failed read fails the test and gives 0.
inline uint32_t Read(SimBoard& board, uint32_t offset) {
  StatusOr<uint32_t> v = board.ReadReg(offset);
  EXPECT_TRUE(v.ok()) << v.status().message();
  return v.ok() ? *v : 0;
}

}  // namespace otpu::board::board_testing

#endif  // OTPU_SIM_BOARD_SIM_BOARD_TESTING_H_
