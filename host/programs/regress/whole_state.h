// Whole-state correctness (docs/regress.md "Verdicts"): after a cell's last step, the
// state-dump epilogue (workloads/state_dump.h) runs on the ISA simulator and on the board, and
// the correctness verdict compares the dump region and every DRAM byte the ISA simulator's
// instructions wrote, naming the first differing word and the last instruction that wrote it.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_WHOLE_STATE_H_
#define OTPU_HOST_PROGRAMS_REGRESS_WHOLE_STATE_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "base/sparse_memory.h"
#include "host/board_iface.h"
#include "host/programs/regress/cell_result.h"
#include "lens/recorder.h"
#include "workloads/state_dump.h"

namespace otpu::regress {

// The ISA step runner, recording every unit instruction of every step (the recorder asks for
// events of traced steps only): what the comparison reads and who wrote what.
class WriteLog : public lens::StepRunner {
 public:
  // One unit instruction as the ISA simulator ran it.
  struct Entry {
    int step = 0;
    int64_t idx = 0;
    uint32_t pc = 0;
    isa::Instr resolved;
  };
  explicit WriteLog(lens::IsaStepRunner* isa) : isa_(isa) {}
  lens::ProfileKind kind() const override { return isa_->kind(); }
  Status Load(const workloads::WorkloadRun& run) override;
  Status WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) override;
  StatusOr<trace::RunEvents> Run(const workloads::Step& step) override;
  const SparseMemory& dram() const override { return isa_->dram(); }
  StatusOr<lens::Profile> BuildStepProfile(const std::string& name,
                                           const workloads::WorkloadRun& run,
                                           const trace::RunEvents& events,
                                           int bucket_cycles) override {
    return isa_->BuildStepProfile(name, run, events, bucket_cycles);
  }
  // The DRAM ranges the instructions wrote (ST, QST), merged and sorted.
  std::vector<workloads::DramRange> DramWrites(const isa::Config& cfg) const;
  // "step 0 #12 pc 20 ST ..." for the last instruction that wrote `addr` of `space` ("DRAM":
  // a byte address, "TMEM": a word, "ACT": row·ACT_BLOCKS + block); "" when none did.
  std::string LastWriter(const isa::Config& cfg, const std::string& space, uint64_t addr) const;
  // Every unit instruction run, in order (step, then dispatch order).
  const std::vector<Entry>& entries() const { return entries_; }
  // The unit instructions of step `step` (0-based), in dispatch order.
  std::vector<Entry> StepEntries(int step) const {
    std::vector<Entry> out;
    for (const Entry& e : entries_) {
      if (e.step == step) out.push_back(e);
    }
    return out;
  }

 private:
  lens::IsaStepRunner* isa_;
  int step_ = 0;
  std::vector<Entry> entries_;
};

// Runs `dump` on the ISA simulator's state (after the workload's steps).
Status DumpOnIsa(lens::IsaStepRunner& isa, const workloads::StateDump& dump);

// Runs `dump` on `board` (after the workload's steps) and reads back the dump region and
// `ranges` into a memory.
StatusOr<SparseMemory> DumpOnBoard(host::BoardIface& board, const workloads::StateDump& dump,
                                   const std::vector<workloads::DramRange>& ranges,
                                   std::chrono::milliseconds timeout);

// Correctness over the whole state: `ranges` (the DRAM the ISA simulator wrote) and the
// dump's TMEM and ACT regions of `board` against `isa`. Fails naming the memory (DRAM, TMEM
// or ACT), the address, both 32-bit words and the last instruction that wrote it (from `log`).
Verdict WholeState(const isa::Config& cfg, const workloads::StateDump& dump,
                   const std::vector<workloads::DramRange>& ranges, const SparseMemory& isa,
                   const SparseMemory& board, const WriteLog* log);

// The correctness verdict: `outputs` (the declared outputs and the reference check) first,
// then `whole`; a pass names both.
Verdict WithWholeState(Verdict outputs, const Verdict& whole);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_WHOLE_STATE_H_
