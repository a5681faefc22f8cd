#include "workloads/models/qwen3_plan.h"

#include <algorithm>
#include <string>

#include "base/strings.h"
#include "workloads/kernels/kernel_util.h"
#include "workloads/kernels/quantize.h"

namespace otpu::models {
namespace {

using kernels::DramLayout;

// The LM head's TMEM: constants, the final norm's gain, x, its norm, one scratch word and
// two logits tiles (MM into one while the other is stored).
kernels::TmemLayout LayoutHeadTmem(const Qwen3Plan& p, Qwen3Plan* out) {
  kernels::TmemLayout t(uint32_t(p.hw.LANES));
  const uint64_t h = uint64_t(p.model.hidden_size);
  out->t_consts = t.Alloc("head.consts", kernels::kConstWords);
  out->t_g = t.Alloc("head.g", h);
  out->t_x = t.Alloc("head.x", h);
  out->t_n = t.Alloc("head.n", h);
  out->t_ss = t.Alloc("head.ss", 1);
  for (int i = 0; i < 2; ++i)
    out->t_logits[i] = t.Alloc("head.logits" + std::to_string(i), uint64_t(p.opts.vocab_tile));
  return t;
}

Status CheckHead(const Qwen3Plan& p) {
  const Qwen3Config& m = p.model;
  const isa::Config& hw = p.hw;
  const int step = p.opts.formats.head == isa::WFormat::kINT8 ? hw.D : 2 * hw.D;
  if (m.hidden_size % step != 0)
    return InvalidArgument(StrFormat("LM head: hidden_size = %d is not a multiple of %d (%s "
                                     "weights, D=%d)",
                                     m.hidden_size, step, isa::WFormatName(p.opts.formats.head),
                                     hw.D));
  if (m.hidden_size > hw.ACT_BLOCKS * hw.D || m.hidden_size > 65535)
    return InvalidArgument(StrFormat("LM head: hidden_size = %d exceeds one ACT RAM row "
                                     "(ACT_BLOCKS*D=%d) or MM's 16-bit k",
                                     m.hidden_size, hw.ACT_BLOCKS * hw.D));
  return OkStatus();
}

}  // namespace

StatusOr<Qwen3Plan> PlanQwen3(const Qwen3Config& model, const isa::Config& hw,
                              const EngineOptions& opts) {
  RETURN_IF_ERROR(model.Validate().WithContext("qwen3 config"));
  Qwen3Plan p;
  p.model = model;
  p.hw = hw;
  p.opts = opts;
  EngineOptions& o = p.opts;
  if (o.t_max < 0 || o.vocab_tile < 0)
    return InvalidArgument(StrFormat("qwen3 engine: t_max = %d and vocab_tile = %d must not be "
                                     "negative",
                                     o.t_max, o.vocab_tile));
  if (o.t_max == 0) o.t_max = std::min(model.max_position_embeddings, kDefaultMaxPositions);
  if (o.t_max > model.max_position_embeddings)
    return InvalidArgument(StrFormat("qwen3 engine: t_max = %d exceeds max_position_embeddings "
                                     "= %d",
                                     o.t_max, model.max_position_embeddings));
  if (o.vocab_tile == 0) o.vocab_tile = std::min(model.vocab_size, kDefaultVocabTile);
  RETURN_IF_ERROR(CheckHead(p));

  const int H = model.hidden_size, L = model.num_hidden_layers;
  const uint32_t D = uint32_t(hw.D);
  DramLayout dram(kEngineImageBase, D);
  p.consts = dram.Alloc("qwen.consts", kernels::kConstWords * 4);
  p.resid = dram.Alloc("qwen.resid", uint64_t(H) * 4);
  p.logits = dram.Alloc("qwen.logits", uint64_t(model.vocab_size) * 4);
  p.norm = dram.Alloc("qwen.norm", uint64_t(H) * 4);
  p.head_stride = uint32_t(kernels::RoundUp(kernels::RowBytes(H, o.formats.head), D));
  p.head_w = dram.Alloc("qwen.head_w", uint64_t(model.vocab_size) * p.head_stride);
  p.head_s = dram.Alloc("qwen.head_s", uint64_t(model.vocab_size) * (H / D) * 4);
  p.head_tiles = model.vocab_size / o.vocab_tile;
  p.head_tail = model.vocab_size % o.vocab_tile;

  for (int l = 0; l < L; ++l) {
    const std::string where = "qwen3 layer " + std::to_string(l);
    const LayerWFormats f = FormatsOfLayer(o.formats.layers, l, L);
    p.formats.push_back(f);
    const kernels::LayerShape shape{.h = H,
                                    .hq = model.num_attention_heads,
                                    .hkv = model.num_key_value_heads,
                                    .hd = model.head_dim,
                                    .t_max = o.t_max,
                                    .rope_theta = model.rope_theta,
                                    .wf = f.attn};
    StatusOr<kernels::LayerPlan> attn = kernels::PlanLayer(shape, hw, 1, &dram);
    if (!attn.ok()) return attn.status().WithContext(where + " attention");
    StatusOr<kernels::MlpPlan> mlp =
        kernels::PlanMlp({.m = 1, .h = H, .f = model.intermediate_size, .wf = f.mlp}, hw, &dram);
    if (!mlp.ok()) return mlp.status().WithContext(where + " MLP");
    // Chain the blocks through the residual buffer and share the constants and rope table.
    attn->consts = mlp->consts = p.consts;
    attn->x = attn->y = mlp->x = mlp->y = p.resid;
    if (l > 0) attn->rope = p.attn[0].rope;
    p.attn.push_back(std::move(attn).value());
    p.mlp.push_back(std::move(mlp).value());
  }
  RETURN_IF_ERROR(dram.CheckFits(hw.DRAM_BYTES).WithContext("qwen3 image"));
  p.dram_end = dram.end();

  kernels::TmemLayout t = LayoutHeadTmem(p, &p);
  RETURN_IF_ERROR(t.CheckFits(hw, StrFormat("qwen3 LM head (vocab_tile %d)", o.vocab_tile)));
  return p;
}

StatusOr<std::array<uint32_t, 8>> Qwen3Args(const Qwen3Plan& plan, int pos) {
  if (plan.attn.empty()) return InvalidArgument("qwen3 engine: the plan has no layers");
  return kernels::LayerArgs(plan.attn[0], pos, 0);
}

}  // namespace otpu::models
