#include "workloads/kernels/layer.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "workloads/kernels/kernel_util.h"

namespace otpu::kernels {

using isa::Arg;
using isa::At;
using isa::VopFn;

namespace {

// ARG register of each position-dependent value (layer.h).
enum LayerArg : int {
  kArgKOff = 0, kArgKsOff, kArgVOff, kArgVsOff, kArgRope, kArgFullTiles, kArgMask, kArgIo
};

}  // namespace

double LayerBound(isa::WFormat wf) {
  return wf == isa::WFormat::kINT8 ? kLayerBound : kLayerBound4Bit;
}

StatusOr<LayerPlan> PlanLayer(const LayerShape& shape, const isa::Config& cfg, int io_rows,
                              DramLayout* dram) {
  LayerPlan p;
  p.shape = shape;
  p.cfg = cfg;
  p.io_rows = io_rows;
  LayerShape& s = p.shape;
  auto bad = [&](const std::string& m) {
    return InvalidArgument("layer H=" + std::to_string(s.h) + " " + std::to_string(s.hq) + "q/" +
                           std::to_string(s.hkv) + "kv hd=" + std::to_string(s.hd) + ": " + m);
  };
  if (s.h < cfg.D || s.h % cfg.D != 0)
    return bad("H must be a positive multiple of D=" + std::to_string(cfg.D));
  if (s.hd % 2 != 0 || s.hd < cfg.D) return bad("head dim must be even and >= D");
  if (s.hkv < 1 || s.hq < 1) return bad("heads must be >= 1");
  const uint64_t q_words = uint64_t(s.hq) * s.hd;
  const uint64_t qkv_rows = uint64_t(s.hq + 2 * s.hkv) * s.hd;
  if (s.h > cfg.ACT_BLOCKS * cfg.D || q_words > uint64_t(cfg.ACT_BLOCKS) * cfg.D)
    return bad("H and hq*hd must be at most ACT_BLOCKS*D=" +
               std::to_string(cfg.ACT_BLOCKS * cfg.D) + " (one ACT RAM row)");
  if (s.h > 65535 || q_words > 65535) return bad("H and hq*hd must fit 16 bits (MM k)");
  if (s.wf != isa::WFormat::kINT8 && (s.h % (2 * cfg.D) != 0 || q_words % (2 * cfg.D) != 0))
    return bad(std::string("H and hq*hd must be multiples of 2D=") + std::to_string(2 * cfg.D) +
               " for " + isa::WFormatName(s.wf) + " weights");
  if (io_rows < 1) return bad("io_rows must be >= 1");
  if (s.t_tile == 0) s.t_tile = AttnTile(s.t_max, cfg);

  p.qkv_stride = uint32_t(RoundUp(RowBytes(s.h, s.wf), cfg.D));
  p.o_stride = uint32_t(RoundUp(RowBytes(int(q_words), s.wf), cfg.D));
  p.consts = dram->Alloc("layer.consts", kConstWords * 4);
  p.x = dram->Alloc("layer.x", uint64_t(io_rows) * s.h * 4);
  p.y = dram->Alloc("layer.y", uint64_t(io_rows) * s.h * 4);
  p.norms = dram->Alloc("layer.norms", uint64_t(s.h + 2 * s.hd) * 4);
  p.rope = dram->Alloc("layer.rope", uint64_t(s.t_max) * 2 * s.hd * 4);
  p.w_qkv = dram->Alloc("layer.w_qkv", qkv_rows * p.qkv_stride);
  p.s_qkv = dram->Alloc("layer.s_qkv", qkv_rows * (s.h / cfg.D) * 4);
  p.w_o = dram->Alloc("layer.w_o", uint64_t(s.h) * p.o_stride);
  p.s_o = dram->Alloc("layer.s_o", uint64_t(s.h) * (q_words / cfg.D) * 4);
  ASSIGN_OR_RETURN(KvCachePlan kv, PlanKvCache(s.hkv, s.hd, s.t_max, s.t_tile, cfg, dram));

  TmemLayout t(uint32_t(cfg.LANES));
  p.t_consts = t.Alloc("consts", kConstWords);
  p.t_norms = t.Alloc("norms", uint64_t(s.h) + 2 * s.hd);
  p.t_rope = t.Alloc("rope", 2 * uint64_t(s.hd));
  p.t_x = t.Alloc("x", s.h);
  p.t_n = t.Alloc("n", s.h);
  p.t_ss = t.Alloc("ss", std::max(s.hq, s.hkv));
  p.t_qkv = t.Alloc("qkv", qkv_rows);
  p.t_rot = t.Alloc("rot", uint64_t(s.hq + s.hkv) * s.hd);
  p.t_o = t.Alloc("o", q_words);
  ASSIGN_OR_RETURN(p.core, PlanAttnCore(s.hq, kv, p.t_qkv, p.t_o, p.t_consts, cfg, &t));
  RETURN_IF_ERROR(t.CheckFits(cfg, "layer"));
  return p;
}

void EmitLayer(isa::ProgramBuilder& b, const LayerPlan& p) {
  const LayerShape& s = p.shape;
  const uint32_t H = uint32_t(s.h), HD = uint32_t(s.hd), HALF = HD / 2;
  const uint32_t HQ = uint32_t(s.hq), HKV = uint32_t(s.hkv);
  const uint32_t t_k = p.t_qkv + HQ * HD, t_v = t_k + HKV * HD;
  const KvCachePlan& kv = p.core.kv;

  b.Ld({.tmem = At(p.t_consts), .dram = At(uint32_t(p.consts)), .n = kConstWords});
  b.Ld({.tmem = At(p.t_norms), .dram = At(uint32_t(p.norms)), .n = H + 2 * HD});
  b.Ld({.tmem = At(p.t_rope), .dram = At(Arg(kArgRope).n, uint32_t(p.rope)), .n = 2 * HD});
  b.Ld({.tmem = At(p.t_x), .dram = At(Arg(kArgIo).n, uint32_t(p.x)), .n = H});
  EmitRmsNorm(b, {.dst = At(p.t_n), .src = At(p.t_x), .n = H, .stride = H, .g = p.t_norms,
                  .ss = p.t_ss, .consts = p.t_consts});
  b.Qact({.src = At(p.t_n), .k = H, .rows = 1, .src_stride = H});
  b.Mm({.out = At(p.t_qkv), .w = At(uint32_t(p.w_qkv)), .scales = At(uint32_t(p.s_qkv)),
        .n = (HQ + 2 * HKV) * HD, .k = H, .m = 1, .w_stride = p.qkv_stride, .wf = s.wf});  // qkv

  EmitRmsNorm(b, {.dst = At(p.t_qkv), .src = At(p.t_qkv), .rows = HQ, .n = HD, .stride = HD,
                  .g = p.t_norms + H, .ss = p.t_ss, .consts = p.t_consts});   // q-norm
  EmitRmsNorm(b, {.dst = At(t_k), .src = At(t_k), .rows = HKV, .n = HD, .stride = HD,
                  .g = p.t_norms + H + HD, .ss = p.t_ss, .consts = p.t_consts});  // k-norm

  // RoPE on the q and k rows: rot = (-x2 sin, x1 sin); x = x cos + rot.
  const uint32_t rows = HQ + HKV, t_sin = p.t_rope + HD;
  b.Vop(V(VopFn::kMUL).Shape(rows, HALF).Dst(p.t_rot, HD).A(p.t_qkv + HALF, HD).BCol(t_sin));
  b.Vop(V(VopFn::kMUL).Shape(rows, HALF).Dst(p.t_rot + HALF, HD).A(p.t_qkv, HD)
            .BCol(t_sin + HALF));
  b.Vop(V(VopFn::kMUL).Shape(rows, HD).InPlace(p.t_qkv, HD).BCol(p.t_rope));
  b.Vop(V(VopFn::kADD).Shape(rows, HD).InPlace(p.t_qkv, HD).B(p.t_rot, HD));

  // KV append at pos, one kv head at a time: the head blocks are head_bytes apart.
  isa::R rk = b.Alloc(), rks = b.Alloc(), rv = b.Alloc(), rvs = b.Alloc(), rt = b.Alloc();
  b.Addi(rk, Arg(kArgKOff), 0);
  b.Addi(rks, Arg(kArgKsOff), 0);
  b.Addi(rv, Arg(kArgVOff), 0);
  b.Addi(rvs, Arg(kArgVsOff), 0);
  b.Li(rt, 0);
  b.Loop(HKV, [&] {
    b.Qst({.src = At(rt.n, t_k), .dst = At(rk.n, uint32_t(kv.base + kv.k_off)),
           .scales = At(rks.n, uint32_t(kv.base + kv.ks_off)), .n = HD, .rows = 1,
           .src_stride = HD, .elem_stride = 1, .dst_stride = HD});
    b.Qst({.src = At(rt.n, t_v), .dst = At(rv.n, uint32_t(kv.base + kv.v_off)),
           .scales = At(rvs.n, uint32_t(kv.base + kv.vs_off)), .n = HD, .rows = 1,
           .src_stride = HD, .elem_stride = kv.t_cap, .dst_stride = 1, .perrow = true});
    for (isa::R r : {rk, rks, rv, rvs}) b.Addi(r, r, int32_t(kv.head_bytes));
    b.Addi(rt, rt, int32_t(HD));
  });
  for (isa::R r : {rk, rks, rv, rvs, rt}) b.Free(r);

  EmitAttnCore(b, p.core, At(Arg(kArgFullTiles).n, 0), At(Arg(kArgMask).n, uint32_t(kv.mask)),
               /*tail=*/true);

  b.Qact({.src = At(p.t_o), .k = HQ * HD, .rows = 1, .src_stride = HQ * HD});
  b.Mm({.out = At(p.t_x), .w = At(uint32_t(p.w_o)), .scales = At(uint32_t(p.s_o)), .n = H,
        .k = HQ * HD, .m = 1, .w_stride = p.o_stride, .acc = true, .wf = s.wf});  // y += Wo o
  b.St({.tmem = At(p.t_x), .dram = At(Arg(kArgIo).n, uint32_t(p.y)), .n = H});
}

StatusOr<std::array<uint32_t, 8>> LayerArgs(const LayerPlan& p, int pos, int io_row) {
  const LayerShape& s = p.shape;
  if (pos < 0 || pos >= s.t_max)
    return InvalidArgument("layer position " + std::to_string(pos) + " is outside the cache of " +
                           std::to_string(s.t_max) + " positions");
  if (io_row < 0 || io_row >= p.io_rows)
    return InvalidArgument("layer io row " + std::to_string(io_row) + " is outside the " +
                           std::to_string(p.io_rows) + " rows of x/y");
  const uint32_t upos = uint32_t(pos), hd = uint32_t(s.hd), tt = uint32_t(s.t_tile);
  std::array<uint32_t, 8> a{};
  a[kArgKOff] = upos * hd;
  a[kArgKsOff] = upos * (hd / uint32_t(p.cfg.D)) * 4;
  a[kArgVOff] = upos;
  a[kArgVsOff] = upos * 4;
  a[kArgRope] = upos * 2 * hd * 4;
  a[kArgFullTiles] = (upos + 1) / tt;
  a[kArgMask] = (tt - (upos + 1) % tt) * 4;
  a[kArgIo] = uint32_t(io_row) * uint32_t(s.h) * 4;
  return a;
}

LayerWeights LayerWeights::Random(const LayerShape& s, uint32_t seed) {
  std::mt19937 rng(seed);
  auto normal = [&](size_t count, float mean, float std) {
    std::normal_distribution<float> dist(mean, std);
    std::vector<float> v(count);
    for (float& x : v) x = dist(rng);
    return v;
  };
  const size_t q_rows = size_t(s.hq) * s.hd, kv_rows = size_t(s.hkv) * s.hd;
  const float in_std = 1.0f / std::sqrt(float(s.h)), o_std = 1.0f / std::sqrt(float(q_rows));
  LayerWeights w;
  w.g_attn = normal(s.h, 1.0f, 0.1f);
  w.wq = normal(q_rows * s.h, 0.0f, in_std);
  w.wk = normal(kv_rows * s.h, 0.0f, in_std);
  w.wv = normal(kv_rows * s.h, 0.0f, in_std);
  w.g_q = normal(s.hd, 1.0f, 0.1f);
  w.g_k = normal(s.hd, 1.0f, 0.1f);
  w.wo = normal(size_t(s.h) * q_rows, 0.0f, o_std);
  return w;
}

std::vector<float> RopeRow(const LayerShape& s, int pos) {
  const int half = s.hd / 2;
  std::vector<float> row(2 * size_t(s.hd));
  for (int i = 0; i < half; ++i) {
    double angle = double(pos) * std::pow(s.rope_theta, -2.0 * i / s.hd);
    row[i] = row[i + half] = float(std::cos(angle));
    row[s.hd + i] = float(-std::sin(angle));
    row[s.hd + half + i] = float(std::sin(angle));
  }
  return row;
}

Status WriteLayerWeights(const LayerPlan& p, const LayerWeights& w, SparseMemory* mem) {
  const LayerShape& s = p.shape;
  const size_t q_rows = size_t(s.hq) * s.hd, kv_rows = size_t(s.hkv) * s.hd;
  if (w.wq.size() != q_rows * s.h || w.wk.size() != kv_rows * s.h ||
      w.wv.size() != kv_rows * s.h || w.wo.size() != q_rows * s.h)
    return InvalidArgument("layer weights: wq/wk/wv/wo sizes do not match the shape");
  if (w.g_attn.size() != size_t(s.h) || w.g_q.size() != size_t(s.hd) ||
      w.g_k.size() != size_t(s.hd))
    return InvalidArgument("layer weights: g_attn/g_q/g_k sizes do not match the shape");
  std::vector<float> qkv;
  qkv.reserve((q_rows + 2 * kv_rows) * s.h);
  for (const auto* m : {&w.wq, &w.wk, &w.wv}) qkv.insert(qkv.end(), m->begin(), m->end());
  const QuantOptions opts{.wf = s.wf, .block = p.cfg.D, .align = p.cfg.D};
  ASSIGN_OR_RETURN(QuantizedMatrix q_qkv,
                   Quantize(qkv, int(q_rows + 2 * kv_rows), s.h, opts, "layer w_qkv"));
  ASSIGN_OR_RETURN(QuantizedMatrix q_o, Quantize(w.wo, s.h, int(q_rows), opts, "layer w_o"));
  RETURN_IF_ERROR(q_qkv.WriteTo(mem, p.w_qkv, p.s_qkv));
  RETURN_IF_ERROR(q_o.WriteTo(mem, p.w_o, p.s_o));

  std::vector<float> norms = w.g_attn;
  norms.insert(norms.end(), w.g_q.begin(), w.g_q.end());
  norms.insert(norms.end(), w.g_k.begin(), w.g_k.end());
  RETURN_IF_ERROR(WriteFloats(mem, p.norms, norms, "layer norms"));
  std::vector<float> rope;
  rope.reserve(size_t(s.t_max) * 2 * s.hd);
  for (int pos = 0; pos < s.t_max; ++pos) {
    std::vector<float> row = RopeRow(s, pos);
    rope.insert(rope.end(), row.begin(), row.end());
  }
  RETURN_IF_ERROR(WriteFloats(mem, p.rope, rope, "layer rope table"));
  RETURN_IF_ERROR(WriteFloats(mem, p.consts, ConstTable(), "layer consts"));
  return WriteKvMask(p.core.kv, mem);
}

Status WriteLayerInput(const LayerPlan& p, int io_row, const std::vector<float>& x,
                       SparseMemory* mem) {
  if (io_row < 0 || io_row >= p.io_rows)
    return InvalidArgument("layer io row " + std::to_string(io_row) + " is outside the " +
                           std::to_string(p.io_rows) + " rows of x");
  if (x.size() != size_t(p.shape.h))
    return InvalidArgument("layer x has " + std::to_string(x.size()) + " values, expected H=" +
                           std::to_string(p.shape.h));
  return WriteFloats(mem, p.x + uint64_t(io_row) * p.shape.h * 4, x, "layer x");
}

std::vector<float> ReadLayerOutput(const LayerPlan& p, const SparseMemory& mem, int io_row) {
  return ReadFloats(mem, p.y + uint64_t(io_row) * p.shape.h * 4, size_t(p.shape.h));
}

}  // namespace otpu::kernels
