// ACT RAM: the MXU's stationary int8 activations, ACT_ROWS rows of ACT_BLOCKS blocks of D
// values, plus one fp32 scale per (row, block). Written by QACT, read by MM (docs/isa.md).
#ifndef OTPU_SIM_ISA_ACT_RAM_H_
#define OTPU_SIM_ISA_ACT_RAM_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "workloads/isa/config.h"

namespace otpu::sim {

class ActRam {
 public:
  // Zero-filled ACT RAM of the configuration's size.
  explicit ActRam(const isa::Config& cfg)
      : rows_(cfg.ACT_ROWS),
        blocks_(cfg.ACT_BLOCKS),
        d_(cfg.D),
        values_(size_t(rows_) * blocks_ * d_, 0),
        scales_(size_t(rows_) * blocks_, 0.0f) {}

  int rows() const { return rows_; }
  int blocks() const { return blocks_; }
  int d() const { return d_; }

  // The D values of (row, block); the blocks of one row are contiguous, so a row's k values
  // starting at `block` are Block(row, block)[0..k).
  int8_t* Block(int row, int block) { return values_.data() + Index(row, block) * d_; }
  const int8_t* Block(int row, int block) const { return values_.data() + Index(row, block) * d_; }
  // The fp32 scale of (row, block).
  float& Scale(int row, int block) { return scales_[Index(row, block)]; }
  float Scale(int row, int block) const { return scales_[Index(row, block)]; }

 private:
  size_t Index(int row, int block) const { return size_t(row) * blocks_ + block; }

  int rows_, blocks_, d_;
  std::vector<int8_t> values_;  // [row][block][D]
  std::vector<float> scales_;   // [row][block]
};

}  // namespace otpu::sim

#endif  // OTPU_SIM_ISA_ACT_RAM_H_
