#include "sim/board/core_module.h"

#include <algorithm>
#include <utility>

#include <tlm_utils/tlm_quantumkeeper.h>

#include "base/status.h"

namespace otpu::board {

namespace {

// A quantum keeper that says how far its next sync point is, so the thread can run a whole
// quantum's cycles in one BoardModel::Cycles call.
class CycleQuantumKeeper : public tlm_utils::tlm_quantumkeeper {
 public:
  sc_core::sc_time ToSyncPoint() const {
    const sc_core::sc_time now = get_current_time();
    return m_next_sync_point > now ? m_next_sync_point - now : sc_core::SC_ZERO_TIME;
  }
};

int64_t TimeToCycles(const sc_core::sc_time& t) {
  return int64_t(t.value() / uint64_t(kCorePeriodPs));
}

}  // namespace

sc_core::sc_time CyclesToTime(int64_t n) {
  return sc_core::sc_time::from_value(uint64_t(n) * uint64_t(kCorePeriodPs));
}

namespace {

std::unique_ptr<BoardModel> MakeBoard(const isa::Config& cfg, rtl::DramModel* dram, int regmap) {
  StatusOr<std::unique_ptr<BoardModel>> board = BoardModel::Create(cfg, dram, regmap);
  OTPU_CHECK(board.ok());  // SimBoard::Create checked the configuration and the map version
  return std::move(board).value();
}

}  // namespace

CoreModule::CoreModule(sc_core::sc_module_name name, const isa::Config& cfg,
                       rtl::DramModel* dram, int regmap)
    : sc_core::sc_module(name),
      board_(MakeBoard(cfg, dram, regmap)),
      cycle0_(board_->cycle()) {
  // Cycle arithmetic below works in picoseconds.
  OTPU_CHECK(sc_core::sc_get_time_resolution() == sc_core::sc_time(1, sc_core::SC_PS));
  SC_THREAD(Run);
}

sc_core::sc_time CoreModule::time() const { return CyclesToTime(cycles()); }

void CoreModule::GrantUntil(const sc_core::sc_time& until) {
  horizon_ = std::max(horizon_, TimeToCycles(until));
  // A delta notification is legal between sc_start()s; the thread may instead be in a
  // quantum sync, and then sees the new horizon when it resumes.
  granted_.notify(sc_core::SC_ZERO_TIME);
}

void CoreModule::Run() {
  CycleQuantumKeeper qk;
  qk.reset();
  for (;;) {
    // Register accesses and window reads run bus cycles outside this thread, so the local
    // time is re-derived from the cycle count rather than accumulated.
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    OTPU_CHECK(time() >= now);
    qk.set(time() - now);
    const int64_t granted = horizon_ - cycles();
    if (granted <= 0) {
      if (qk.get_local_time() != sc_core::SC_ZERO_TIME) {
        qk.sync();  // let SystemC time catch up with the core before sleeping
        continue;
      }
      wait(granted_);
      qk.reset();
      continue;
    }
    const int64_t room = std::max<int64_t>(1, TimeToCycles(qk.ToSyncPoint()));
    const int64_t n = std::min(granted, room);
    board_->Cycles(n);
    qk.inc(CyclesToTime(n));
    if (qk.need_sync()) qk.sync();
  }
}

}  // namespace otpu::board
