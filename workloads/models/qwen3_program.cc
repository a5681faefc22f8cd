#include "workloads/models/qwen3_program.h"

#include "base/strings.h"
#include "workloads/kernels/kernel_util.h"

namespace otpu::models {

using isa::At;

void EmitLmHead(isa::ProgramBuilder& b, const Qwen3Plan& p) {
  const uint32_t H = uint32_t(p.model.hidden_size), D = uint32_t(p.hw.D);
  const uint32_t VT = uint32_t(p.opts.vocab_tile);
  const isa::WFormat wf = p.opts.formats.head;

  b.Ld({.tmem = At(p.t_consts), .dram = At(uint32_t(p.consts)), .n = kernels::kConstWords});
  b.Ld({.tmem = At(p.t_g), .dram = At(uint32_t(p.norm)), .n = H});
  b.Ld({.tmem = At(p.t_x), .dram = At(uint32_t(p.resid)), .n = H});
  kernels::EmitRmsNorm(b, {.dst = At(p.t_n), .src = At(p.t_x), .n = H, .stride = H, .g = p.t_g,
                           .ss = p.t_ss, .consts = p.t_consts});
  b.Qact({.src = At(p.t_n), .k = H, .rows = 1, .src_stride = H});

  // Offsets of the current tile: weight bytes, scale bytes, logits bytes.
  isa::R rw = b.Alloc(), rs = b.Alloc(), rl = b.Alloc();
  b.Li(rw, 0);
  b.Li(rs, 0);
  b.Li(rl, 0);
  auto tile = [&](int buf, uint32_t rows) {
    b.Mm({.out = At(p.t_logits[buf]), .w = At(rw.n, uint32_t(p.head_w)),
          .scales = At(rs.n, uint32_t(p.head_s)), .n = rows, .k = H, .m = 1,
          .w_stride = p.head_stride, .out_stride = rows, .wf = wf});
    b.St({.tmem = At(p.t_logits[buf]), .dram = At(rl.n, uint32_t(p.logits)), .n = rows});
  };
  auto advance = [&] {
    b.Addi(rw, rw, int32_t(VT * p.head_stride));
    b.Addi(rs, rs, int32_t(VT * (H / D) * 4));
    b.Addi(rl, rl, int32_t(VT * 4));
  };
  if (p.head_tiles >= 2) {
    b.Loop(uint32_t(p.head_tiles / 2), [&] {
      tile(0, VT);
      advance();
      tile(1, VT);
      advance();
    });
  }
  if (p.head_tiles % 2 != 0) {
    tile(0, VT);
    advance();
  }
  if (p.head_tail > 0) tile(p.head_tiles % 2, uint32_t(p.head_tail));
  for (isa::R r : {rw, rs, rl}) b.Free(r);
}

StatusOr<isa::Program> BuildQwen3Program(const Qwen3Plan& p) {
  isa::ProgramBuilder b;
  for (size_t l = 0; l < p.attn.size(); ++l) {
    b.Comment("layer " + std::to_string(l) + " attention");
    kernels::EmitLayer(b, p.attn[l]);
    b.Comment("layer " + std::to_string(l) + " MLP");
    kernels::EmitMlp(b, p.mlp[l]);
  }
  b.Comment("final norm and LM head");
  EmitLmHead(b, p);
  isa::Program prog = b.Finish();
  if (prog.size() > p.hw.IMEM_WORDS)
    return InvalidArgument(StrFormat("qwen3 step program: %zu instructions for %zu layers do not "
                                     "fit IMEM_WORDS=%u",
                                     prog.size(), p.attn.size(), p.hw.IMEM_WORDS));
  return prog;
}

}  // namespace otpu::models
