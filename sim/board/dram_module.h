// The board's DRAM (SPEC 3.5): the backing store (a SparseMemory of the built configuration's
// DRAM_BYTES) and the two-channel DRAM model in front of it. The core reaches the model by
// direct calls every cycle; host DMA reaches the store through a TLM target socket, at no
// cost in core cycles. C++17 (SystemC).
#ifndef OTPU_SIM_BOARD_DRAM_MODULE_H_
#define OTPU_SIM_BOARD_DRAM_MODULE_H_

#include <cstdint>
#include <memory>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "sim/rtl/dram_model.h"
#include "base/sparse_memory.h"

namespace otpu::board {

class DramModule : public sc_core::sc_module {
 public:
  // `bytes` of DRAM served in D-byte chunks (`chunk_bytes`) as `opts` says.
  DramModule(sc_core::sc_module_name name, uint64_t bytes, int chunk_bytes,
             const rtl::DramOptions& opts);

  // Host DMA: reads and writes of any length and alignment inside [0, bytes); an access
  // outside it is a TLM_ADDRESS_ERROR_RESPONSE.
  tlm_utils::simple_target_socket<DramModule> dma;

  // The model the core is clocked against; replaced by Rebuild.
  rtl::DramModel* model() { return model_.get(); }
  // A fresh model with new options over the same store (between runs: reads still in flight
  // in the old model are dropped). Returns it; the caller points the core at it.
  rtl::DramModel* Rebuild(const rtl::DramOptions& opts);

  uint64_t bytes() const { return memory_.size(); }

 private:
  void Transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  SparseMemory memory_;
  int chunk_bytes_;
  std::unique_ptr<rtl::DramModel> model_;
};

}  // namespace otpu::board

#endif  // OTPU_SIM_BOARD_DRAM_MODULE_H_
