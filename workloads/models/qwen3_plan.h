// Where the Qwen3 engine puts everything: the DRAM image and TMEM use of one decode step.
//
// DRAM (DramLayout regions from kEngineImageBase, D-aligned, in this order):
//   qwen.consts   the kernels' constant table, eps = the config's rms_norm_eps
//   qwen.resid    [H] fp32: the residual stream. The host writes the token's embedding row
//                 here before each step; every attention block and MLP reads it (LD) and
//                 writes its output back (ST), so the blocks chain through it.
//   qwen.logits   [vocab] fp32, written by the LM head, read back by the host
//   qwen.norm     [H] fp32, the final RMSNorm gain
//   qwen.head_w / qwen.head_s   the LM head [vocab x H] quantized (head format) and its scales
//   then per layer l: the layer kernel's regions (layer.h: norms, rope, w_qkv, w_o, KV cache)
//   and the MLP kernel's (mlp.h: g, w_gate, w_up, w_down and scales).
// Each kernel plans its own consts / x / y (and the layer its rope table); the engine points
// them at qwen.consts, qwen.resid and layer 0's rope table, so those regions of the kernels'
// plans stay unwritten (the DRAM is sparse: they cost address space, not memory).
//
// Position-dependent values are the layer kernel's ARGs (layer.h); every layer has the same
// shape, so one set of ARGs serves them all (Qwen3Args).
#ifndef OTPU_WORKLOADS_MODELS_QWEN3_PLAN_H_
#define OTPU_WORKLOADS_MODELS_QWEN3_PLAN_H_

#include <array>
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/kernels/layer.h"
#include "workloads/kernels/mlp.h"
#include "workloads/models/qwen3_config.h"
#include "workloads/models/qwen3_formats.h"

namespace otpu::models {

// DRAM below this address is left to the host (the program image), as in workloads/list.h.
inline constexpr uint64_t kEngineImageBase = uint64_t{1} << 20;
// Positions of the KV cache when neither the options nor the config bound them lower.
inline constexpr int kDefaultMaxPositions = 1024;
// Vocabulary rows one LM head MM computes, at most.
inline constexpr int kDefaultVocabTile = 4096;

// What a run may choose beyond the model and the accelerator.
struct EngineOptions {
  WeightFormats formats{};
  int t_max = 0;       // KV cache positions; 0: min(max_position_embeddings, 1024)
  int vocab_tile = 0;  // logits per LM head MM; 0: min(vocab, 4096)
};

// The engine's layout for one model on one accelerator configuration.
struct Qwen3Plan {
  Qwen3Config model;
  isa::Config hw;
  EngineOptions opts;  // t_max and vocab_tile resolved
  // DRAM byte addresses of the engine's own regions.
  uint64_t consts = 0, resid = 0, logits = 0, norm = 0, head_w = 0, head_s = 0;
  uint32_t head_stride = 0;            // LM head row stride, bytes
  int head_tiles = 0, head_tail = 0;   // full vocab tiles, rows in the last partial one
  std::vector<LayerWFormats> formats;  // per layer
  std::vector<kernels::LayerPlan> attn;
  std::vector<kernels::MlpPlan> mlp;
  // TMEM word addresses of the LM head section.
  uint32_t t_consts = 0, t_g = 0, t_x = 0, t_n = 0, t_ss = 0, t_logits[2] = {0, 0};
  uint64_t dram_end = 0;  // first byte past the image
};

// Plans the engine for `model` on `hw`. InvalidArgument naming the config field or the layer
// when the accelerator cannot run it (sizes not multiples of D, heads wider than ACT RAM, a
// cache or image past DRAM_BYTES, ...).
StatusOr<Qwen3Plan> PlanQwen3(const Qwen3Config& model, const isa::Config& hw,
                              const EngineOptions& opts);

// ARG0..7 of the step at position `pos`; InvalidArgument when pos is outside the cache.
StatusOr<std::array<uint32_t, 8>> Qwen3Args(const Qwen3Plan& plan, int pos);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_QWEN3_PLAN_H_
