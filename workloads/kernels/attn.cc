#include "workloads/kernels/attn.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace otpu::kernels {

using isa::At;
using isa::VopFn;

int AttnTile(int t, const isa::Config& cfg) {
  return int(std::min<uint64_t>(RoundUp(256, cfg.D), RoundUp(uint64_t(std::max(t, 1)), cfg.D)));
}

StatusOr<AttnCorePlan> PlanAttnCore(int hq, const KvCachePlan& kv, uint32_t t_q, uint32_t t_o,
                                    uint32_t t_consts, const isa::Config& cfg, TmemLayout* tmem) {
  auto bad = [&](const std::string& m) {
    return InvalidArgument("attention " + std::to_string(hq) + "q/" + std::to_string(kv.hkv) +
                           "kv: " + m);
  };
  if (hq < 1 || hq % kv.hkv != 0) return bad("q heads must be a multiple of kv heads");
  AttnCorePlan p;
  p.hq = hq;
  p.hkv = kv.hkv;
  p.hd = kv.hd;
  p.group = hq / kv.hkv;
  p.t_tile = kv.t_tile;
  p.d = cfg.D;
  p.kv = kv;
  p.c = float(1.4426950408889634 / std::sqrt(double(kv.hd)));
  if (p.group > cfg.ACT_ROWS)
    return bad("a group of " + std::to_string(p.group) + " q heads exceeds ACT_ROWS=" +
               std::to_string(cfg.ACT_ROWS));
  if (p.hd / cfg.D + p.t_tile / cfg.D > cfg.ACT_BLOCKS)
    return bad("head dim " + std::to_string(p.hd) + " plus position tile " +
               std::to_string(p.t_tile) + " exceed ACT_BLOCKS=" + std::to_string(cfg.ACT_BLOCKS) +
               " blocks of D");
  if (p.t_tile > 65535 || p.hd > 65535) return bad("tile and head dim must fit 16 bits");
  p.t_q = t_q;
  p.t_o = t_o;
  p.t_consts = t_consts;
  const uint32_t g = uint32_t(p.group);
  p.t_s = tmem->Alloc("attn.s", uint64_t(g) * p.t_tile);
  p.t_vs = tmem->Alloc("attn.v_scale", p.t_tile);
  p.t_bias = tmem->Alloc("attn.bias", p.t_tile);
  p.t_m = tmem->Alloc("attn.m", g);
  p.t_mt = tmem->Alloc("attn.m_tile", g);
  p.t_alpha = tmem->Alloc("attn.alpha", g);
  p.t_l = tmem->Alloc("attn.l", g);
  p.t_ls = tmem->Alloc("attn.l_tile", g);
  p.act_p = uint32_t(p.hd / cfg.D);
  return p;
}

void EmitAttnCore(isa::ProgramBuilder& b, const AttnCorePlan& p, isa::Addr full, isa::Addr mask,
                  bool tail) {
  const uint32_t G = uint32_t(p.group), HD = uint32_t(p.hd), TT = uint32_t(p.t_tile);
  const uint32_t D = uint32_t(p.d);
  const KvCachePlan& kv = p.kv;
  // rh: byte offset of this kv head's cache block; rq: word offset of its q / o rows.
  isa::R rh = b.Alloc(), rq = b.Alloc();
  // The current tile's K rows, K scales, Vt columns and v scales (absolute DRAM addresses).
  isa::R rk = b.Alloc(), rks = b.Alloc(), rv = b.Alloc(), rvs = b.Alloc();
  const isa::Addr o = At(rq.n, p.t_o);

  auto tile = [&](bool masked) {
    b.Mm({.out = At(p.t_s), .w = At(rk.n, 0), .scales = At(rks.n, 0), .n = TT, .k = HD, .m = G,
          .w_stride = HD, .out_stride = TT});                                    // s = q K^T
    if (masked) b.Vop(V(VopFn::kADD).Shape(G, TT).InPlace(p.t_s, TT).BCol(p.t_bias));
    b.Vop(V(VopFn::kRMAX).Shape(G, TT).Dst(p.t_mt, 1).A(p.t_s, TT));
    b.Vop(V(VopFn::kMAX).Shape(1, G).InPlace(p.t_mt).B(p.t_m));              // new max
    b.Vop(V(VopFn::kEXP2).Shape(1, G).Dst(p.t_alpha).A(p.t_m).B(p.t_mt).C(p.c));
    b.Vop(V(VopFn::kCOPY).Shape(1, G).Dst(p.t_m).A(p.t_mt));
    b.Vop(V(VopFn::kEXP2).Shape(G, TT).InPlace(p.t_s, TT).BRow(p.t_m).C(p.c));  // p
    b.Vop(V(VopFn::kRSUM).Shape(G, TT).Dst(p.t_ls, 1).A(p.t_s, TT));
    b.Vop(V(VopFn::kMUL).Shape(1, G).InPlace(p.t_l).B(p.t_alpha));
    b.Vop(V(VopFn::kADD).Shape(1, G).InPlace(p.t_l).B(p.t_ls));               // l
    b.Ld({.tmem = At(p.t_vs), .dram = At(rvs.n, 0), .n = TT});
    b.Vop(V(VopFn::kMUL).Shape(G, TT).InPlace(p.t_s, TT).BCol(p.t_vs));       // p * v_scale
    b.Qact({.src = At(p.t_s), .k = TT, .rows = G, .src_stride = TT, .act_block = p.act_p});
    b.Vop(V(VopFn::kMUL).Shape(G, HD).InPlace(o, HD).BRow(p.t_alpha));
    b.Mm({.out = o, .w = At(rv.n, 0), .scales = {}, .n = HD, .k = TT, .m = G, .act_block = p.act_p,
          .w_stride = kv.t_cap, .out_stride = HD, .acc = true, .unit = true});  // o += p V
    b.Addi(rk, rk, int32_t(TT * HD));
    b.Addi(rks, rks, int32_t(TT * (HD / D) * 4));
    b.Addi(rv, rv, int32_t(TT));
    b.Addi(rvs, rvs, int32_t(TT * 4));
  };

  if (tail) b.Ld({.tmem = At(p.t_bias), .dram = mask, .n = TT});
  b.Li(rh, 0);
  b.Li(rq, 0);
  b.Loop(uint32_t(p.hkv), [&] {
    b.Qact({.src = At(rq.n, p.t_q), .k = HD, .rows = G, .src_stride = HD});
    b.Vop(V(VopFn::kFILL).Shape(1, G).Dst(p.t_m).BScalar(p.t_consts + kCNegBig));
    b.Vop(V(VopFn::kFILL).Shape(1, G).Dst(p.t_l).BZero());
    b.Vop(V(VopFn::kFILL).Shape(G, HD).Dst(o, HD).BZero());
    b.Addi(rk, rh, int32_t(kv.base + kv.k_off));
    b.Addi(rks, rh, int32_t(kv.base + kv.ks_off));
    b.Addi(rv, rh, int32_t(kv.base + kv.v_off));
    b.Addi(rvs, rh, int32_t(kv.base + kv.vs_off));
    b.Loop(isa::R{full.reg}, full.imm, [&] { tile(false); });
    if (tail) tile(true);
    b.Vop(V(VopFn::kRECIP).Shape(1, G).InPlace(p.t_l).BZero());
    b.Vop(V(VopFn::kMUL).Shape(G, HD).InPlace(o, HD).BRow(p.t_l));           // o /= l
    b.Addi(rh, rh, int32_t(kv.head_bytes));
    b.Addi(rq, rq, int32_t(G * HD));
  });
  for (isa::R r : {rh, rq, rk, rks, rv, rvs}) b.Free(r);
}

StatusOr<AttnPlan> PlanAttn(const AttnShape& shape, const isa::Config& cfg, DramLayout* dram) {
  AttnPlan p;
  p.shape = shape;
  p.cfg = cfg;
  AttnShape& s = p.shape;
  if (s.t < 1) return InvalidArgument("attn: T must be >= 1, got " + std::to_string(s.t));
  if (s.hkv < 1 || s.hq < 1)
    return InvalidArgument("attn: heads must be >= 1, got " + std::to_string(s.hq) + "q/" +
                           std::to_string(s.hkv) + "kv");
  if (s.t_tile == 0) s.t_tile = AttnTile(s.t, cfg);
  p.consts = dram->Alloc("attn.consts", kConstWords * 4);
  p.q = dram->Alloc("attn.q", uint64_t(s.hq) * s.hd * 4);
  p.out = dram->Alloc("attn.out", uint64_t(s.hq) * s.hd * 4);
  ASSIGN_OR_RETURN(KvCachePlan kv, PlanKvCache(s.hkv, s.hd, s.t, s.t_tile, cfg, dram));
  TmemLayout tmem(uint32_t(cfg.LANES));
  const uint32_t t_consts = tmem.Alloc("consts", kConstWords);
  const uint32_t t_q = tmem.Alloc("q", uint64_t(s.hq) * s.hd);
  const uint32_t t_o = tmem.Alloc("o", uint64_t(s.hq) * s.hd);
  ASSIGN_OR_RETURN(p.core, PlanAttnCore(s.hq, kv, t_q, t_o, t_consts, cfg, &tmem));
  RETURN_IF_ERROR(tmem.CheckFits(cfg, "attn"));
  return p;
}

void EmitAttn(isa::ProgramBuilder& b, const AttnPlan& p) {
  const AttnCorePlan& c = p.core;
  const uint32_t words = uint32_t(c.hq * c.hd);
  const int t = p.shape.t, tt = p.shape.t_tile;
  b.Ld({.tmem = At(c.t_consts), .dram = At(uint32_t(p.consts)), .n = kConstWords});
  b.Ld({.tmem = At(c.t_q), .dram = At(uint32_t(p.q)), .n = words});
  EmitAttnCore(b, c, At(uint32_t(t / tt)), At(uint32_t(c.kv.MaskWindow(t % tt))), t % tt != 0);
  b.St({.tmem = At(c.t_o), .dram = At(uint32_t(p.out)), .n = words});
}

AttnInputs AttnInputs::Random(const AttnShape& s, uint32_t seed) {
  std::mt19937 rng(seed);
  auto normal = [&](size_t count, float std) {
    std::normal_distribution<float> dist(0.0f, std);
    std::vector<float> v(count);
    for (float& x : v) x = dist(rng);
    return v;
  };
  AttnInputs in;
  in.q = normal(size_t(s.hq) * s.hd, 2.0f);
  in.k = normal(size_t(s.hkv) * s.t * s.hd, 1.0f);
  in.v = normal(size_t(s.hkv) * s.t * s.hd, 1.0f);
  return in;
}

Status WriteAttnInputs(const AttnPlan& p, const AttnInputs& in, SparseMemory* mem) {
  const size_t q_words = size_t(p.shape.hq) * p.shape.hd;
  if (in.q.size() != q_words)
    return InvalidArgument("attn q has " + std::to_string(in.q.size()) +
                           " values, expected hq*hd=" + std::to_string(q_words));
  RETURN_IF_ERROR(WriteFloats(mem, p.consts, ConstTable(), "attn consts"));
  RETURN_IF_ERROR(WriteFloats(mem, p.q, in.q, "attn q"));
  return WriteKvPrefix(p.core.kv, in.k, in.v, p.shape.t, mem);
}

std::vector<float> ReadAttnOutput(const AttnPlan& p, const SparseMemory& mem) {
  return ReadFloats(mem, p.out, size_t(p.shape.hq) * p.shape.hd);
}

}  // namespace otpu::kernels
