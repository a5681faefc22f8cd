// The `mlp` kernel: SwiGLU MLP with pre-RMSNorm and residual, for M token rows at once,
//   n = rmsnorm(x) * g            (eps 1e-6, per row of H)
//   y = x + W_down · (silu(W_gate · n) * (W_up · n)),   silu(v) = v / (1 + e^-v)
// x and y are M x H fp32 in DRAM; W_gate, W_up are F x H and W_down is H x F, quantized
// (int8, int4 or fp4) with per-(row, block of D) scales.
//
// Program: LD x, g and the constants; RMSNorm; QACT n into ACT rows 0..M-1, blocks 0..H/D-1;
// then a LOOP over F tiles of FT columns (double-buffered when TMEM and ACT RAM allow):
//   MM gate, MM up (FT outputs each), u *= g, g = exp2(-g·log2 e), g = recip(g + 1), u *= g,
//   QACT u into ACT blocks after n's, MM down with ACC straight into x (the residual),
// and finally ST x to y. Tile addresses advance in registers, so the program is ~30
// instructions whatever the shape.
//
// DRAM layout (regions of a DramLayout, each D-aligned, in this order):
//   consts  kConstWords fp32        x  M x H fp32         y  M x H fp32     g  H fp32
//   w_gate  F rows of H (int8) or H/2 (4-bit) bytes, row stride rounded up to D
//   s_gate  F x H/D fp32            w_up, s_up  the same as gate
//   w_down  H rows of F or F/2 bytes  s_down  H x F/D fp32 grouped by F tile (quantize.h,
//           k_tile = FT), so the MM of tile t finds [H x FT/D] scales in one piece
//
// Accuracy: relative L2 of y - x (the MLP's contribution) against the float64 reference on
// the unquantized weights. Measured over 20 seeds of every mlp_test.cc shape (3 for the list
// sizes), sim and board configs: int8 mean 0.015, worst 0.026; int4 / fp4 mean 0.18, worst
// 0.24. Bounds (MlpBound) are 1.5x the worst: 0.04 for int8, 0.36 for 4-bit weights.
#ifndef OTPU_WORKLOADS_KERNELS_MLP_H_
#define OTPU_WORKLOADS_KERNELS_MLP_H_

#include <cstdint>
#include <vector>

#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"
#include "workloads/kernels/quantize.h"

namespace otpu::kernels {

struct MlpShape {
  int m = 1;       // token rows, 1..ACT_ROWS
  int h = 0;       // hidden size, a multiple of D (2D for 4-bit weights)
  int f = 0;       // FFN size, a multiple of the tile
  isa::WFormat wf = isa::WFormat::kINT8;
  int f_tile = 0;  // FT; 0 picks the largest that fits (at most 1024)
};

// Documented bound on the relative L2 error of y - x (the MLP's contribution), per format.
double MlpBound(isa::WFormat wf);

// Where everything lives: DRAM byte addresses and TMEM word addresses.
struct MlpPlan {
  MlpShape shape;  // f_tile resolved
  isa::Config cfg;
  int tiles = 0, buffers = 1;  // F / FT; 1 or 2 tile buffers
  uint64_t consts = 0, x = 0, y = 0, g = 0;
  uint64_t w_gate = 0, s_gate = 0, w_up = 0, s_up = 0, w_down = 0, s_down = 0;
  uint32_t gu_stride = 0, down_stride = 0;  // weight row strides, bytes
  uint32_t t_consts = 0, t_g = 0, t_x = 0, t_n = 0, t_ss = 0;
  uint32_t t_gate[2] = {0, 0}, t_up[2] = {0, 0};
  uint32_t act_h[2] = {0, 0};  // first ACT block of each h tile buffer
};

// Checks the shape against `cfg` (InvalidArgument naming the field), picks the tile and
// allocates the DRAM regions from `dram`.
StatusOr<MlpPlan> PlanMlp(const MlpShape& shape, const isa::Config& cfg, DramLayout* dram);

// Emits the whole kernel (without HALT).
void EmitMlp(isa::ProgramBuilder& b, const MlpPlan& plan);

// Unquantized parameters, row-major: g[H], w_gate[F x H], w_up[F x H], w_down[H x F].
struct MlpWeights {
  std::vector<float> g, w_gate, w_up, w_down;
  // Normal weights with std 1/sqrt(fan-in), g = 1 + N(0, 0.1), from mt19937(seed).
  static MlpWeights Random(const MlpShape& shape, uint32_t seed);
};

// Quantizes the weights and writes them, with g and the constants, into the image.
Status WriteMlpWeights(const MlpPlan& plan, const MlpWeights& w, SparseMemory* mem);
// Writes x (M x H) into the image.
Status WriteMlpInput(const MlpPlan& plan, const std::vector<float>& x, SparseMemory* mem);
// Reads y (M x H) back.
std::vector<float> ReadMlpOutput(const MlpPlan& plan, const SparseMemory& mem);

}  // namespace otpu::kernels

#endif  // OTPU_WORKLOADS_KERNELS_MLP_H_
