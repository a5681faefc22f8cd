// The `layer` kernel: the attention block of a Qwen3 decoder layer for one token at
// position pos, as one resident program that serves every position:
//   n = rmsnorm(x) * g_attn
//   q, k, v = Wq n, Wk n, Wv n                 (one MM over the stacked [Wq; Wk; Wv], int8)
//   q[h] = rmsnorm(q[h]) * g_q, k[j] = rmsnorm(k[j]) * g_k       (per head of hd)
//   q, k = rope(q, pos), rope(k, pos)           rotate-half, cos/sin from the host's table
//   K[j][pos] = k[j], V[j][pos] = v[j]          QST: K row with block scales, V column into
//                                               the transposed cache with one scale (PERROW)
//   o = attention(q, K[0..pos], V[0..pos])      attn.h's core, GQA
//   y = x + Wo o
// Everything that depends on pos comes from ARG registers R8..R15 (LayerArgs), so the host
// loads the program once and sets the ARGs per step:
//   ARG0 pos*hd  ARG1 pos*(hd/D)*4  ARG2 pos  ARG3 pos*4   (K, K scale, V column, V scale
//                                                           offsets inside a head block)
//   ARG4 pos*2*hd*4 (row of the rope table)  ARG5 (pos+1)/TT (full attention tiles)
//   ARG6 (TT - (pos+1) mod TT)*4 (mask window offset)   ARG7 io_row*H*4 (x and y row)
//
// DRAM layout (DramLayout regions, D-aligned, in this order): consts; x [io_rows x H] fp32;
// y [io_rows x H] fp32; norms [H + 2hd] fp32 (g_attn, g_q, g_k); rope [t_max x 2hd] fp32, row
// pos = (cos(pos f_i) for i < hd/2, repeated twice; -sin(pos f_i) for i < hd/2, then
// +sin(pos f_i)), f_i = theta^(-2i/hd); w_qkv [(hq+2hkv)hd x H] and its scales; w_o
// [H x hq hd] and its scales (int8, or 4-bit per LayerShape::wf); the KV cache (kv_cache.h)
// for t_max positions.
//
// Accuracy: relative L2 of y - x (the block's contribution) against the float64 reference.
// Measured over 20 seeds of every layer_test.cc shape (4 for Qwen3-0.6B sizes at pos 1023):
// mean 0.017, worst 0.024 (board). kLayerBound is 1.5x the worst, rounded up. With 4-bit
// projection weights (LayerShape::wf int4 or fp4; 20 seeds of H=128 sim and H=256 board at
// pos 20): mean 0.14-0.17, worst 0.22 (int4, board); kLayerBound4Bit is 1.5x that.
#ifndef OTPU_WORKLOADS_KERNELS_LAYER_H_
#define OTPU_WORKLOADS_KERNELS_LAYER_H_

#include <array>
#include <cstdint>
#include <vector>

#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"
#include "workloads/kernels/attn.h"
#include "workloads/kernels/kv_cache.h"

namespace otpu::kernels {

// Documented bound on the relative L2 error of y - x (int8 projection weights).
inline constexpr double kLayerBound = 0.04;
// The same for 4-bit (int4, fp4) projection weights.
inline constexpr double kLayerBound4Bit = 0.33;
// The bound for projection weights in format `wf` (kLayerBound for int8).
double LayerBound(isa::WFormat wf);

struct LayerShape {
  int h = 1024, hq = 16, hkv = 8, hd = 128;  // Qwen3-0.6B
  int t_max = 1024;                           // KV cache positions
  int t_tile = 0;                             // 0: AttnTile(t_max)
  double rope_theta = 1e6;
  isa::WFormat wf = isa::WFormat::kINT8;      // q/k/v and o projection weights
};

struct LayerPlan {
  LayerShape shape;  // t_tile resolved
  isa::Config cfg;
  int io_rows = 1;
  uint64_t consts = 0, x = 0, y = 0, norms = 0, rope = 0;
  uint64_t w_qkv = 0, s_qkv = 0, w_o = 0, s_o = 0;
  uint32_t qkv_stride = 0, o_stride = 0;  // weight row strides, bytes
  uint32_t t_consts = 0, t_norms = 0, t_rope = 0, t_x = 0, t_n = 0, t_ss = 0;
  uint32_t t_qkv = 0, t_rot = 0, t_o = 0;
  AttnCorePlan core;
};

// Checks the shape against `cfg` (InvalidArgument naming the field) and allocates DRAM for
// `io_rows` input/output rows.
StatusOr<LayerPlan> PlanLayer(const LayerShape& shape, const isa::Config& cfg, int io_rows,
                              DramLayout* dram);
// Emits the kernel (without HALT).
void EmitLayer(isa::ProgramBuilder& b, const LayerPlan& plan);
// ARG0..7 for position `pos` reading x row `io_row` and writing y row `io_row`;
// InvalidArgument when pos or io_row is out of range.
StatusOr<std::array<uint32_t, 8>> LayerArgs(const LayerPlan& plan, int pos, int io_row);

// Unquantized parameters, row-major: wq [hq*hd x H], wk, wv [hkv*hd x H], wo [H x hq*hd].
struct LayerWeights {
  std::vector<float> g_attn, wq, wk, wv, g_q, g_k, wo;
  // Normal weights with std 1/sqrt(fan-in), norm weights 1 + N(0, 0.1), from mt19937(seed).
  static LayerWeights Random(const LayerShape& shape, uint32_t seed);
};

// The rope table row of `pos`: 2*hd floats as in the layout above.
std::vector<float> RopeRow(const LayerShape& shape, int pos);

// Quantizes and writes the weights, norms, rope table, constants and the cache's mask.
Status WriteLayerWeights(const LayerPlan& plan, const LayerWeights& w, SparseMemory* mem);
// Writes x (H values) as input row `io_row`.
Status WriteLayerInput(const LayerPlan& plan, int io_row, const std::vector<float>& x,
                       SparseMemory* mem);
// Reads output row `io_row` (H values).
std::vector<float> ReadLayerOutput(const LayerPlan& plan, const SparseMemory& mem, int io_row);

}  // namespace otpu::kernels

#endif  // OTPU_WORKLOADS_KERNELS_LAYER_H_
