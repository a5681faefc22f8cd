#include "workloads/kernels/mlp.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "workloads/kernels/kernel_util.h"

namespace otpu::kernels {

using isa::At;
using isa::VopFn;

namespace {

// Columns per quantization step: D for int8, 2D for 4-bit (a whole number of bytes per chunk).
int KStep(const isa::Config& cfg, isa::WFormat wf) {
  return wf == isa::WFormat::kINT8 ? cfg.D : 2 * cfg.D;
}

// TMEM buffers for tile FT with `buffers` tile buffers.
TmemLayout LayoutTmem(const MlpShape& s, int ft, int buffers, const isa::Config& cfg,
                      MlpPlan* p) {
  TmemLayout t(uint32_t(cfg.LANES));
  p->t_consts = t.Alloc("consts", kConstWords);
  p->t_g = t.Alloc("g", s.h);
  p->t_x = t.Alloc("x", uint64_t(s.m) * s.h);
  p->t_n = t.Alloc("n", uint64_t(s.m) * s.h);
  p->t_ss = t.Alloc("ss", s.m);
  for (int i = 0; i < buffers; ++i) {
    p->t_gate[i] = t.Alloc("gate" + std::to_string(i), uint64_t(s.m) * ft);
    p->t_up[i] = t.Alloc("up" + std::to_string(i), uint64_t(s.m) * ft);
  }
  return t;
}

bool Fits(const MlpShape& s, int ft, int buffers, const isa::Config& cfg) {
  MlpPlan scratch;
  if (!LayoutTmem(s, ft, buffers, cfg, &scratch).CheckFits(cfg, "mlp").ok()) return false;
  return s.h / cfg.D + buffers * (ft / cfg.D) <= cfg.ACT_BLOCKS;
}

}  // namespace

double MlpBound(isa::WFormat wf) {
  switch (wf) {
    case isa::WFormat::kINT8: return 0.04;
    case isa::WFormat::kINT4: return 0.36;
    case isa::WFormat::kFP4: return 0.36;
  }
  return 0;
}

StatusOr<MlpPlan> PlanMlp(const MlpShape& shape, const isa::Config& cfg, DramLayout* dram) {
  MlpPlan p;
  p.shape = shape;
  p.cfg = cfg;
  const MlpShape& s = shape;
  const int step = KStep(cfg, s.wf);
  auto bad = [&](const std::string& m) {
    return InvalidArgument("mlp M=" + std::to_string(s.m) + " H=" + std::to_string(s.h) +
                           " F=" + std::to_string(s.f) + ": " + m);
  };
  if (s.m < 1 || s.m > cfg.ACT_ROWS)
    return bad("M must be 1.." + std::to_string(cfg.ACT_ROWS) + " (ACT_ROWS)");
  if (s.h < step || s.h % step != 0)
    return bad("H must be a positive multiple of " + std::to_string(step));
  if (s.f < step || s.f % step != 0)
    return bad("F must be a positive multiple of " + std::to_string(step));
  if (s.h > 65535 || s.f > 65535) return bad("H and F must fit 16 bits (MM k)");

  int ft = s.f_tile;
  if (ft != 0) {
    if (ft < step || ft % step != 0 || s.f % ft != 0)
      return bad("f_tile " + std::to_string(ft) + " must be a multiple of " +
                 std::to_string(step) + " dividing F");
    if (!Fits(s, ft, 1, cfg))
      return bad("f_tile " + std::to_string(ft) + " does not fit TMEM / ACT RAM");
  } else {
    for (int c = std::min(s.f, 1024) / step * step; c >= step; c -= step)
      if (s.f % c == 0 && Fits(s, c, 1, cfg)) {
        ft = c;
        break;
      }
    if (ft == 0) return bad("no F tile fits TMEM_WORDS / ACT_BLOCKS");
  }
  p.shape.f_tile = ft;
  p.tiles = s.f / ft;
  p.buffers = (p.tiles >= 2 && Fits(s, ft, 2, cfg)) ? 2 : 1;
  LayoutTmem(s, ft, p.buffers, cfg, &p);
  for (int i = 0; i < p.buffers; ++i) p.act_h[i] = uint32_t(s.h / cfg.D + i * (ft / cfg.D));

  const uint64_t m_h_bytes = uint64_t(s.m) * s.h * 4;
  p.gu_stride = uint32_t(RoundUp(RowBytes(s.h, s.wf), cfg.D));
  p.down_stride = uint32_t(RoundUp(RowBytes(s.f, s.wf), cfg.D));
  p.consts = dram->Alloc("mlp.consts", kConstWords * 4);
  p.x = dram->Alloc("mlp.x", m_h_bytes);
  p.y = dram->Alloc("mlp.y", m_h_bytes);
  p.g = dram->Alloc("mlp.g", uint64_t(s.h) * 4);
  p.w_gate = dram->Alloc("mlp.w_gate", uint64_t(s.f) * p.gu_stride);
  p.s_gate = dram->Alloc("mlp.s_gate", uint64_t(s.f) * (s.h / cfg.D) * 4);
  p.w_up = dram->Alloc("mlp.w_up", uint64_t(s.f) * p.gu_stride);
  p.s_up = dram->Alloc("mlp.s_up", uint64_t(s.f) * (s.h / cfg.D) * 4);
  p.w_down = dram->Alloc("mlp.w_down", uint64_t(s.h) * p.down_stride);
  p.s_down = dram->Alloc("mlp.s_down", uint64_t(s.h) * (s.f / cfg.D) * 4);
  RETURN_IF_ERROR(dram->CheckFits(cfg.DRAM_BYTES).WithContext("mlp"));
  return p;
}

void EmitMlp(isa::ProgramBuilder& b, const MlpPlan& p) {
  const MlpShape& s = p.shape;
  const uint32_t M = uint32_t(s.m), H = uint32_t(s.h), FT = uint32_t(s.f_tile);
  const uint32_t D = uint32_t(p.cfg.D);

  b.Ld({.tmem = At(p.t_consts), .dram = At(p.consts), .n = kConstWords});
  b.Ld({.tmem = At(p.t_g), .dram = At(p.g), .n = H});
  b.Ld({.tmem = At(p.t_x), .dram = At(p.x), .n = M * H});
  EmitRmsNorm(b, {.dst = At(p.t_n), .src = At(p.t_x), .rows = M, .n = H, .stride = H,
                  .g = p.t_g, .ss = p.t_ss, .consts = p.t_consts});
  b.Qact({.src = At(p.t_n), .k = H, .rows = M, .src_stride = H, .act_row = 0, .act_block = 0});

  // Offsets of the current tile: gate/up weight bytes and scales, down weight bytes and scales.
  isa::R rw = b.Alloc(), rs = b.Alloc(), rdw = b.Alloc(), rds = b.Alloc();
  b.Li(rw, 0);
  b.Li(rs, 0);
  b.Li(rdw, 0);
  b.Li(rds, 0);
  auto tile = [&](int i) {
    const uint32_t gate = p.t_gate[i], up = p.t_up[i];
    b.Mm({.out = At(gate), .w = At(rw.n, uint32_t(p.w_gate)),
          .scales = At(rs.n, uint32_t(p.s_gate)), .n = FT, .k = H, .m = M,
          .w_stride = p.gu_stride, .out_stride = FT, .wf = s.wf});
    b.Mm({.out = At(up), .w = At(rw.n, uint32_t(p.w_up)), .scales = At(rs.n, uint32_t(p.s_up)),
          .n = FT, .k = H, .m = M, .w_stride = p.gu_stride, .out_stride = FT, .wf = s.wf});
    b.Vop(V(VopFn::kMUL).Shape(M, FT).InPlace(up, FT).B(gate, FT));            // u *= g
    b.Vop(V(VopFn::kEXP2).Shape(M, FT).InPlace(gate, FT).BZero().C(-kLog2E));  // e^-g
    b.Vop(V(VopFn::kRECIP).Shape(M, FT).InPlace(gate, FT).BScalar(p.t_consts + kCNegOne));
    b.Vop(V(VopFn::kMUL).Shape(M, FT).InPlace(up, FT).B(gate, FT));            // h = silu(g) u
    b.Qact({.src = At(up), .k = FT, .rows = M, .src_stride = FT, .act_block = p.act_h[i]});
    b.Mm({.out = At(p.t_x), .w = At(rdw.n, uint32_t(p.w_down)),
          .scales = At(rds.n, uint32_t(p.s_down)), .n = H, .k = FT, .m = M,
          .act_block = p.act_h[i], .w_stride = p.down_stride, .out_stride = H, .acc = true,
          .wf = s.wf});
    b.Addi(rw, rw, int32_t(FT * p.gu_stride));
    b.Addi(rs, rs, int32_t(FT * (H / D) * 4));
    b.Addi(rdw, rdw, int32_t(RowBytes(int(FT), s.wf)));
    b.Addi(rds, rds, int32_t(H * (FT / D) * 4));
  };
  b.Loop(uint32_t(p.tiles / p.buffers), [&] {
    for (int i = 0; i < p.buffers; ++i) tile(i);
  });
  if (p.tiles % p.buffers != 0) tile(0);
  b.St({.tmem = At(p.t_x), .dram = At(p.y), .n = M * H});
  for (isa::R r : {rw, rs, rdw, rds}) b.Free(r);
}

MlpWeights MlpWeights::Random(const MlpShape& s, uint32_t seed) {
  std::mt19937 rng(seed);
  auto normal = [&](size_t count, float mean, float std) {
    std::normal_distribution<float> dist(mean, std);
    std::vector<float> v(count);
    for (float& x : v) x = dist(rng);
    return v;
  };
  MlpWeights w;
  const size_t fh = size_t(s.f) * s.h;
  w.g = normal(s.h, 1.0f, 0.1f);
  w.w_gate = normal(fh, 0.0f, 1.0f / std::sqrt(float(s.h)));
  w.w_up = normal(fh, 0.0f, 1.0f / std::sqrt(float(s.h)));
  w.w_down = normal(fh, 0.0f, 1.0f / std::sqrt(float(s.f)));
  return w;
}

Status WriteMlpWeights(const MlpPlan& p, const MlpWeights& w, SparseMemory* mem) {
  const MlpShape& s = p.shape;
  const QuantOptions gu{.wf = s.wf, .block = p.cfg.D, .k_tile = 0, .align = p.cfg.D};
  const QuantOptions down{.wf = s.wf, .block = p.cfg.D, .k_tile = s.f_tile, .align = p.cfg.D};
  ASSIGN_OR_RETURN(QuantizedMatrix qg, Quantize(w.w_gate, s.f, s.h, gu, "mlp w_gate"));
  ASSIGN_OR_RETURN(QuantizedMatrix qu, Quantize(w.w_up, s.f, s.h, gu, "mlp w_up"));
  ASSIGN_OR_RETURN(QuantizedMatrix qd, Quantize(w.w_down, s.h, s.f, down, "mlp w_down"));
  RETURN_IF_ERROR(qg.WriteTo(mem, p.w_gate, p.s_gate));
  RETURN_IF_ERROR(qu.WriteTo(mem, p.w_up, p.s_up));
  RETURN_IF_ERROR(qd.WriteTo(mem, p.w_down, p.s_down));
  if (w.g.size() != size_t(s.h))
    return InvalidArgument("mlp g has " + std::to_string(w.g.size()) + " values, expected H=" +
                           std::to_string(s.h));
  RETURN_IF_ERROR(WriteFloats(mem, p.g, w.g, "mlp g"));
  return WriteFloats(mem, p.consts, ConstTable(), "mlp consts");
}

Status WriteMlpInput(const MlpPlan& p, const std::vector<float>& x, SparseMemory* mem) {
  const size_t want = size_t(p.shape.m) * p.shape.h;
  if (x.size() != want)
    return InvalidArgument("mlp x has " + std::to_string(x.size()) + " values, expected M*H=" +
                           std::to_string(want));
  return WriteFloats(mem, p.x, x, "mlp x");
}

std::vector<float> ReadMlpOutput(const MlpPlan& p, const SparseMemory& mem) {
  return ReadFloats(mem, p.y, size_t(p.shape.m) * p.shape.h);
}

}  // namespace otpu::kernels
