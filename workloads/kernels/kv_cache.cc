#include "workloads/kernels/kv_cache.h"

#include <string>

#include "workloads/kernels/kernel_util.h"

namespace otpu::kernels {

StatusOr<KvCachePlan> PlanKvCache(int hkv, int hd, int t_max, int t_tile, const isa::Config& cfg,
                                  DramLayout* dram) {
  auto bad = [&](const std::string& m) { return InvalidArgument("kv cache: " + m); };
  if (hkv < 1) return bad("kv heads must be >= 1, got " + std::to_string(hkv));
  if (hd < cfg.D || hd % cfg.D != 0)
    return bad("head dim " + std::to_string(hd) + " is not a multiple of D=" +
               std::to_string(cfg.D));
  if (t_tile < cfg.D || t_tile % cfg.D != 0)
    return bad("position tile " + std::to_string(t_tile) + " is not a multiple of D=" +
               std::to_string(cfg.D));
  if (t_max < 1) return bad("positions must be >= 1, got " + std::to_string(t_max));
  KvCachePlan p;
  p.hkv = hkv;
  p.hd = hd;
  p.t_max = t_max;
  p.t_tile = t_tile;
  p.d = cfg.D;
  p.t_cap = uint32_t(RoundUp(uint64_t(t_max) + 1, uint64_t(t_tile)));
  const uint64_t d = uint64_t(cfg.D);
  p.k_off = 0;
  p.ks_off = RoundUp(p.k_off + uint64_t(p.t_cap) * hd, d);
  p.v_off = RoundUp(p.ks_off + uint64_t(p.t_cap) * (hd / cfg.D) * 4, d);
  p.vs_off = RoundUp(p.v_off + uint64_t(hd) * p.t_cap, d);
  p.head_bytes = RoundUp(p.vs_off + uint64_t(p.t_cap) * 4, d);
  p.base = dram->Alloc("kv.cache", p.head_bytes * hkv);
  p.mask = dram->Alloc("kv.mask", uint64_t(t_tile) * 2 * 4);
  RETURN_IF_ERROR(dram->CheckFits(cfg.DRAM_BYTES).WithContext("kv cache"));
  return p;
}

Status WriteKvMask(const KvCachePlan& p, SparseMemory* mem) {
  std::vector<float> ramp(size_t(p.t_tile) * 2, 0.0f);
  for (int i = p.t_tile; i < 2 * p.t_tile; ++i) ramp[i] = kNegBig;
  return WriteFloats(mem, p.mask, ramp, "kv mask");
}

Status WriteKvPrefix(const KvCachePlan& p, const std::vector<float>& k,
                     const std::vector<float>& v, int t, SparseMemory* mem) {
  const size_t per_head = size_t(t) * p.hd;
  if (t < 0 || t > p.t_max)
    return InvalidArgument("kv prefix of " + std::to_string(t) + " positions, the cache holds " +
                           std::to_string(p.t_max));
  if (k.size() != per_head * p.hkv || v.size() != per_head * p.hkv)
    return InvalidArgument("kv prefix: k and v need hkv*t*hd=" +
                           std::to_string(per_head * p.hkv) + " values each, got " +
                           std::to_string(k.size()) + " and " + std::to_string(v.size()));
  RETURN_IF_ERROR(WriteKvMask(p, mem));
  if (t == 0) return OkStatus();
  for (int j = 0; j < p.hkv; ++j) {
    std::vector<float> kh(k.begin() + j * per_head, k.begin() + (j + 1) * per_head);
    std::vector<float> vh(v.begin() + j * per_head, v.begin() + (j + 1) * per_head);
    ASSIGN_OR_RETURN(QuantizedMatrix qk,
                     Quantize(kh, t, p.hd, {.block = p.d, .align = p.d}, "kv prefix K"));
    ASSIGN_OR_RETURN(QuantizedMatrix qv,
                     Quantize(vh, t, p.hd, {.block = p.hd, .align = 1}, "kv prefix V"));
    // K rows are hd bytes (a multiple of D), so the quantized rows are already contiguous.
    RETURN_IF_ERROR(qk.WriteTo(mem, p.K(j, 0), p.Ks(j, 0)));
    std::vector<uint8_t> col(t);
    for (int dim = 0; dim < p.hd; ++dim) {
      for (int pos = 0; pos < t; ++pos) col[pos] = qv.bytes[size_t(pos) * qv.row_stride + dim];
      mem->Write(p.Vt(j, dim), col.data(), col.size());
    }
    RETURN_IF_ERROR(WriteFloats(mem, p.Vs(j, 0), qv.scales, "kv prefix V scales"));
  }
  return OkStatus();
}

std::vector<float> ReadK(const KvCachePlan& p, const SparseMemory& mem, int head, int pos) {
  std::vector<float> out(p.hd);
  for (int b = 0; b < p.hd / p.d; ++b) {
    float s;
    mem.Read(p.Ks(head, pos) + uint64_t(b) * 4, &s, 4);
    for (int e = b * p.d; e < (b + 1) * p.d; ++e)
      out[e] = float(int8_t(mem.Read8(p.K(head, pos) + e))) * s;
  }
  return out;
}

std::vector<float> ReadV(const KvCachePlan& p, const SparseMemory& mem, int head, int pos) {
  std::vector<float> out(p.hd);
  float s;
  mem.Read(p.Vs(head, pos), &s, 4);
  for (int dim = 0; dim < p.hd; ++dim)
    out[dim] = float(int8_t(mem.Read8(p.Vt(head, dim) + pos))) * s;
  return out;
}

}  // namespace otpu::kernels
