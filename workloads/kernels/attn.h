// The `attn` kernel: flash-attention decode with grouped-query heads over an int8 KV cache
// (layout in kv_cache.h), and the attention core the `layer` kernel reuses.
//
//   o[h] = softmax(q[h] · K[j]^T / sqrt(hd)) · V[j],   j = h / (hq / hkv)
//
// Per kv head j the G = hq/hkv query rows of its group are quantized (QACT) into ACT rows
// 0..G-1 and positions are visited in tiles of TT with an online softmax:
//   s = q · K^T (MM, TT outputs)  [+ mask bias on the tail tile]
//   mt = max(m, rowmax(s));  alpha = 2^((m - mt) c);  m = mt      c = log2(e) / sqrt(hd)
//   p = 2^((s - m) c);  l = l alpha + rowsum(p)
//   p *= v_scale[t];  QACT p into ACT blocks after q's;  o = o alpha + p · Vt^T (MM, UNIT)
// and finally o /= l. The tile loop count is a register + immediate, so the layer kernel runs
// floor((pos+1)/TT) full tiles from an ARG register and one masked tail tile whose mask window
// address is another ARG register; the standalone kernel uses immediates.
//
// Standalone kernel DRAM layout: consts (kConstWords fp32), q [hq x hd] fp32, out [hq x hd]
// fp32, then the KV cache (kv_cache.h) for t_max = T positions, prefilled by the host.
//
// Accuracy: relative L2 of out against the float64 reference on unquantized q, K, V.
// Measured over 10 seeds of every attn_test.cc shape and the list sizes: mean 0.017 (D=32),
// 0.024 (D=128: coarser blocks for p), worst 0.030 (board); one position alone 0.005. The
// int8 quantization of p per block of D dominates. kAttnBound is 1.5x the worst.
#ifndef OTPU_WORKLOADS_KERNELS_ATTN_H_
#define OTPU_WORKLOADS_KERNELS_ATTN_H_

#include <cstdint>
#include <vector>

#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"
#include "workloads/kernels/kernel_util.h"
#include "workloads/kernels/kv_cache.h"

namespace otpu::kernels {

// Documented bound on the relative L2 error of the attention output.
inline constexpr double kAttnBound = 0.045;

// TMEM and ACT RAM use of the attention core. q and o are [hq x hd] rows in TMEM that the
// caller provides; the core allocates its scratch.
struct AttnCorePlan {
  int hq = 0, hkv = 0, hd = 0, group = 0, t_tile = 0, d = 0;
  float c = 0;  // log2(e) / sqrt(hd): scores are scaled inside EXP2
  KvCachePlan kv;
  uint32_t t_q = 0, t_o = 0, t_consts = 0;
  uint32_t t_s = 0, t_vs = 0, t_bias = 0, t_m = 0, t_mt = 0, t_alpha = 0, t_l = 0, t_ls = 0;
  uint32_t act_p = 0;  // first ACT block of p (q uses blocks 0..hd/D-1)
};

// Checks heads and tile against `cfg` (InvalidArgument naming the field) and allocates the
// core's TMEM scratch from `tmem`.
StatusOr<AttnCorePlan> PlanAttnCore(int hq, const KvCachePlan& kv, uint32_t t_q, uint32_t t_o,
                                    uint32_t t_consts, const isa::Config& cfg, TmemLayout* tmem);

// Emits the attention over every kv head: R[full.reg] + full.imm full tiles, then, when
// `tail`, one tile biased by the mask window at DRAM R[mask.reg] + mask.imm. Uses six of
// R1..R7 and frees them.
void EmitAttnCore(isa::ProgramBuilder& b, const AttnCorePlan& p, isa::Addr full, isa::Addr mask,
                  bool tail);

// The position tile the kernels use for T positions: 256, or T rounded up to D when smaller.
int AttnTile(int t, const isa::Config& cfg);

struct AttnShape {
  int hq = 16, hkv = 4, hd = 128, t = 2048;
  int t_tile = 0;  // 0: AttnTile(t)
};

struct AttnPlan {
  AttnShape shape;  // t_tile resolved
  isa::Config cfg;
  uint64_t consts = 0, q = 0, out = 0;
  AttnCorePlan core;
};

// Plans the standalone kernel; InvalidArgument naming the field for a shape `cfg` cannot run.
StatusOr<AttnPlan> PlanAttn(const AttnShape& shape, const isa::Config& cfg, DramLayout* dram);
// Emits LD q, the attention core, ST out (without HALT).
void EmitAttn(isa::ProgramBuilder& b, const AttnPlan& plan);

// Unquantized inputs: q [hq x hd], k and v [hkv][t][hd].
struct AttnInputs {
  std::vector<float> q, k, v;
  // q ~ N(0, 2^2) (peaked softmax), k, v ~ N(0, 1), from mt19937(seed).
  static AttnInputs Random(const AttnShape& shape, uint32_t seed);
};

// Writes q, the constants and the quantized cache into the image.
Status WriteAttnInputs(const AttnPlan& plan, const AttnInputs& in, SparseMemory* mem);
// Reads out [hq x hd].
std::vector<float> ReadAttnOutput(const AttnPlan& plan, const SparseMemory& mem);

}  // namespace otpu::kernels

#endif  // OTPU_WORKLOADS_KERNELS_ATTN_H_
