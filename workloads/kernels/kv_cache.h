// The int8 KV cache of one attention layer in DRAM, as the attention kernels read it and the
// layer kernel appends to it.
//
// One block of `head_bytes` per kv head j at base + j * head_bytes, holding (offsets inside
// the block, each D-aligned):
//   K   [t_cap x hd] int8, row t = position t                        at k_off
//   Ks  [t_cap x hd/D] fp32, one scale per (position, block of D)    at ks_off
//   Vt  [hd x t_cap] int8, V transposed: row d, column t = position  at v_off
//   Vs  [t_cap] fp32, one scale per position (over its hd values)    at vs_off
// K rows are MM weights (the scores are q · K^T); Vt rows are MM weights with UNIT (the
// per-position scale is folded into p[t] before QACT). t_cap = round_up(t_max + 1, t_tile):
// the attention always reads whole tiles, and the masked tail tile after the last full one
// must stay inside the block (positions past the valid ones are masked, never used).
// The mask ramp (one per cache) holds t_tile zeros then t_tile kNegBig: the t_tile words
// starting at word t_tile - v are a bias that keeps the first v positions of a tile.
#ifndef OTPU_WORKLOADS_KERNELS_KV_CACHE_H_
#define OTPU_WORKLOADS_KERNELS_KV_CACHE_H_

#include <cstdint>
#include <vector>

#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/kernels/quantize.h"

namespace otpu::kernels {

struct KvCachePlan {
  int hkv = 0, hd = 0, t_max = 0, t_tile = 0, d = 0;
  uint32_t t_cap = 0;
  uint64_t base = 0, head_bytes = 0;
  uint64_t k_off = 0, ks_off = 0, v_off = 0, vs_off = 0;
  uint64_t mask = 0;  // the ramp, 2 * t_tile fp32

  // DRAM addresses of K row, K scales, Vt row `dim` and v scale of a head and position.
  uint64_t Head(int head) const { return base + uint64_t(head) * head_bytes; }
  uint64_t K(int head, int pos) const { return Head(head) + k_off + uint64_t(pos) * hd; }
  uint64_t Ks(int head, int pos) const {
    return Head(head) + ks_off + uint64_t(pos) * (hd / d) * 4;
  }
  uint64_t Vt(int head, int dim) const { return Head(head) + v_off + uint64_t(dim) * t_cap; }
  uint64_t Vs(int head, int pos) const { return Head(head) + vs_off + uint64_t(pos) * 4; }
  // DRAM address of the bias window keeping the first `valid` (0..t_tile) positions.
  uint64_t MaskWindow(int valid) const { return mask + uint64_t(t_tile - valid) * 4; }
};

// Allocates the cache for `hkv` heads of `hd` and positions 0..t_max-1 read in tiles of
// `t_tile`. InvalidArgument naming the field when hd or t_tile is not a multiple of D.
StatusOr<KvCachePlan> PlanKvCache(int hkv, int hd, int t_max, int t_tile, const isa::Config& cfg,
                                  DramLayout* dram);

// Quantizes and writes positions 0..t-1 of every head, k and v given as [hkv][t][hd] floats
// (K per (position, block of D), V per position, as QST does), plus the mask ramp.
Status WriteKvPrefix(const KvCachePlan& p, const std::vector<float>& k,
                     const std::vector<float>& v, int t, SparseMemory* mem);
// Writes the mask ramp alone (a cache filled only by the program).
Status WriteKvMask(const KvCachePlan& p, SparseMemory* mem);

// Dequantized K row and V column of (head, pos) as the cache holds them, hd values each.
std::vector<float> ReadK(const KvCachePlan& p, const SparseMemory& mem, int head, int pos);
std::vector<float> ReadV(const KvCachePlan& p, const SparseMemory& mem, int head, int pos);

}  // namespace otpu::kernels

#endif  // OTPU_WORKLOADS_KERNELS_KV_CACHE_H_
