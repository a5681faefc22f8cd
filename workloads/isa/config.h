// Accelerator configuration (SPEC 3.1). `sim` is the default RTL build, `board` the card's.
#ifndef OTPU_WORKLOADS_ISA_CONFIG_H_
#define OTPU_WORKLOADS_ISA_CONFIG_H_

#include <cstdint>
#include <string>

namespace otpu::isa {

struct Config {
  std::string name = "sim";
  int S = 1;                 // slices
  int D = 32;                // MXU depth = DRAM chunk bytes = quantization block (elements)
  int MCOLS = 8;             // MXU stationary activation rows
  int LANES = 8;             // VPU lanes = TMEM banks = partial sums of a row reduction
  int CL = 2;                // composite lanes (EXP2 RECIP RSQRT)
  int WIN = 16;              // dispatch window slots
  int ACT_BLOCKS = 128;      // ACT RAM blocks of D per row
  int ACT_ROWS = 16;         // ACT RAM rows (M of one MM, counted from its act_row)
  uint32_t TMEM_WORDS = 65536;
  uint32_t IMEM_WORDS = 4096;  // instructions
  uint64_t DRAM_BYTES = 1ull << 30;
  int FIFO_DEPTH = 128;      // MXU weight-chunk FIFO (chunks)
  std::string MEM = "ideal";  // DRAM model the run used (ideal, stall N, axi)

  // Peak MACs per cycle and peak port-B bytes per cycle.
  int64_t PeakMacs() const { return int64_t{D} * MCOLS; }
  int64_t PeakBytes() const { return D; }
  // Register VERSION value: D[31:16] | MCOLS[15:8] | LANES[7:0].
  uint32_t Version() const {
    return (uint32_t(D) << 16) | (uint32_t(MCOLS) << 8) | uint32_t(LANES);
  }

  static Config Sim() { return Config{}; }
  static Config Board() {
    Config c;
    c.name = "board";
    c.D = 128;
    c.MCOLS = 2;
    c.DRAM_BYTES = 4ull << 30;
    c.FIFO_DEPTH = 1024;
    return c;
  }
};

}  // namespace otpu::isa

#endif  // OTPU_WORKLOADS_ISA_CONFIG_H_
