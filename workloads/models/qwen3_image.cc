#include "workloads/models/qwen3_image.h"

#include <algorithm>
#include <cstring>

#include "base/strings.h"
#include "workloads/kernels/kernel_util.h"

namespace otpu::models {
namespace {

std::string LayerName(int l, const char* suffix) {
  return "model.layers." + std::to_string(l) + "." + suffix;
}

// The options MM weights of format `wf` are quantized with (scales per block of D); `k_tile`
// groups the scales by column tile (the MLP's down projection).
kernels::QuantOptions MmOptions(const isa::Config& hw, isa::WFormat wf, int k_tile = 0) {
  return {.wf = wf, .block = hw.D, .k_tile = k_tile, .align = hw.D};
}

Status CheckSameModel(const Qwen3Config& a, const Qwen3Config& b) {
  const std::pair<const char*, std::pair<int, int>> fields[] = {
      {"hidden_size", {a.hidden_size, b.hidden_size}},
      {"intermediate_size", {a.intermediate_size, b.intermediate_size}},
      {"num_hidden_layers", {a.num_hidden_layers, b.num_hidden_layers}},
      {"num_attention_heads", {a.num_attention_heads, b.num_attention_heads}},
      {"num_key_value_heads", {a.num_key_value_heads, b.num_key_value_heads}},
      {"head_dim", {a.head_dim, b.head_dim}},
      {"vocab_size", {a.vocab_size, b.vocab_size}},
      {"tie_word_embeddings", {a.tie_word_embeddings, b.tie_word_embeddings}},
  };
  for (const auto& [name, v] : fields)
    if (v.first != v.second)
      return InvalidArgument(StrFormat("qwen3 weights: %s = %d, the plan has %d", name, v.first,
                                       v.second));
  return OkStatus();
}

}  // namespace

Status CheckWeights(const Qwen3Plan& plan, const Qwen3TensorSource& w) {
  RETURN_IF_ERROR(CheckSameModel(w.config(), plan.model));
  return w.Check();
}

Status CheckWeights(const Qwen3Plan& plan, const Qwen3Weights& w) {
  return CheckWeights(plan, ResidentQwen3(w));
}

namespace {

// A matrix of the image before its weights are read: the tensors stacked into it, row-major.
struct MatrixSpec {
  std::string what;
  std::vector<std::string> tensors;
  int n = 0, k = 0;
  kernels::QuantOptions opts;
  uint64_t w_addr = 0, s_addr = 0;
};

// Reads `spec`'s weights (rows [row, row + rows) of its one tensor when rows >= 0) and runs
// `fn` on them.
Status RunJob(const Qwen3TensorSource& w, const MatrixSpec& spec, int row, int rows,
              const std::function<Status(const MatrixJob&)>& fn) {
  MatrixJob job{spec.what, nullptr, spec.n, spec.k, spec.opts, spec.w_addr, spec.s_addr};
  if (rows >= 0) {
    ASSIGN_OR_RETURN(TensorValues piece, w.Rows(spec.tensors[0], row, rows));
    const uint64_t row_stride = kernels::RoundUp(kernels::RowBytes(spec.k, spec.opts.wf),
                                        uint64_t(spec.opts.align));
    job.what = StrFormat("%s rows %d..%d", spec.what.c_str(), row, row + rows - 1);
    job.w = &piece.get();
    job.n = rows;
    job.w_addr += uint64_t(row) * row_stride;
    job.s_addr += uint64_t(row) * uint64_t(spec.k / spec.opts.block) * 4;
    return fn(job);
  }
  if (spec.tensors.size() == 1) {
    ASSIGN_OR_RETURN(TensorValues t, w.Tensor(spec.tensors[0]));
    job.w = &t.get();
    return fn(job);
  }
  std::vector<float> stacked;
  stacked.reserve(size_t(spec.n) * size_t(spec.k));
  for (const std::string& name : spec.tensors) {
    ASSIGN_OR_RETURN(TensorValues t, w.Tensor(name));
    stacked.insert(stacked.end(), t.get().begin(), t.get().end());
  }
  job.w = &stacked;
  return fn(job);
}

}  // namespace

Status ForEachMatrix(const Qwen3Plan& p, const Qwen3Weights& w,
                     const std::function<Status(const MatrixJob&)>& fn) {
  return ForEachMatrix(p, ResidentQwen3(w), fn);
}

Status ForEachMatrix(const Qwen3Plan& p, const Qwen3TensorSource& w,
                     const std::function<Status(const MatrixJob&)>& fn, int64_t piece_values) {
  RETURN_IF_ERROR(CheckWeights(p, w));
  const Qwen3Config& m = p.model;
  const int H = m.hidden_size, F = m.intermediate_size;
  const int q_rows = m.num_attention_heads * m.head_dim;
  const int kv_rows = m.num_key_value_heads * m.head_dim;
  auto run = [&](const MatrixSpec& spec) -> Status {
    const bool plain = spec.opts.k_tile == 0 || spec.opts.k_tile == spec.k;
    const int64_t values = int64_t(spec.n) * spec.k;
    if (piece_values <= 0 || w.resident() || spec.opts.wf != isa::WFormat::kINT8 || !plain ||
        spec.tensors.size() != 1 || values <= piece_values) {
      return RunJob(w, spec, 0, -1, fn);
    }
    const int rows = int(std::max<int64_t>(1, piece_values / spec.k));
    for (int row = 0; row < spec.n; row += rows)
      RETURN_IF_ERROR(RunJob(w, spec, row, std::min(rows, spec.n - row), fn));
    return OkStatus();
  };
  for (size_t l = 0; l < p.attn.size(); ++l) {
    const kernels::LayerPlan& a = p.attn[l];
    const kernels::MlpPlan& mlp = p.mlp[l];
    const LayerWFormats& f = p.formats[l];
    const std::string at = "layer " + std::to_string(l) + " ";
    const int li = int(l);
    const MatrixSpec specs[] = {
        // the layer kernel's one MM over [Wq; Wk; Wv]
        {at + "qkv",
         {LayerName(li, "self_attn.q_proj.weight"), LayerName(li, "self_attn.k_proj.weight"),
          LayerName(li, "self_attn.v_proj.weight")},
         q_rows + 2 * kv_rows, H, MmOptions(p.hw, f.attn), a.w_qkv, a.s_qkv},
        {at + "o_proj", {LayerName(li, "self_attn.o_proj.weight")}, H, q_rows,
         MmOptions(p.hw, f.attn), a.w_o, a.s_o},
        {at + "gate_proj", {LayerName(li, "mlp.gate_proj.weight")}, F, H, MmOptions(p.hw, f.mlp),
         mlp.w_gate, mlp.s_gate},
        {at + "up_proj", {LayerName(li, "mlp.up_proj.weight")}, F, H, MmOptions(p.hw, f.mlp),
         mlp.w_up, mlp.s_up},
        {at + "down_proj", {LayerName(li, "mlp.down_proj.weight")}, H, F,
         MmOptions(p.hw, f.mlp, mlp.shape.f_tile), mlp.w_down, mlp.s_down},
    };
    for (const MatrixSpec& spec : specs) RETURN_IF_ERROR(run(spec));
  }
  return run({"LM head", {w.LmHeadName()}, m.vocab_size, H, MmOptions(p.hw, p.opts.formats.head),
              p.head_w, p.head_s});
}

Status WriteQwen3Image(const Qwen3Plan& p, const Qwen3Weights& w, ImageCache* cache,
                       SparseMemory* mem) {
  return WriteQwen3Image(p, ResidentQwen3(w), cache, mem);
}

Status WriteQwen3Image(const Qwen3Plan& p, const Qwen3TensorSource& w, ImageCache* cache,
                       SparseMemory* mem, int64_t piece_values) {
  RETURN_IF_ERROR(ForEachMatrix(
      p, w,
      [&](const MatrixJob& job) -> Status {
        const bool cached = cache && cache->enabled() && job.opts.wf != isa::WFormat::kINT8;
        StatusOr<kernels::QuantizedMatrix> q =
            cached ? cache->Quantize(*job.w, job.n, job.k, job.opts, job.what)
                   : kernels::Quantize(*job.w, job.n, job.k, job.opts, job.what);
        if (!q.ok()) return q.status().WithContext("qwen3 image");
        return q->WriteTo(mem, job.w_addr, job.s_addr).WithContext("qwen3 image: " + job.what);
      },
      piece_values));

  std::vector<float> consts = kernels::ConstTable();
  consts[kernels::kCNegEps] = -float(p.model.rms_norm_eps);
  RETURN_IF_ERROR(kernels::WriteFloats(mem, p.consts, consts, "qwen3 consts"));
  ASSIGN_OR_RETURN(TensorValues final_norm, w.Tensor("model.norm.weight"));
  RETURN_IF_ERROR(kernels::WriteFloats(mem, p.norm, final_norm.get(), "qwen3 final norm"));
  for (size_t l = 0; l < p.attn.size(); ++l) {
    const int li = int(l);
    std::vector<float> norms;
    for (const char* t : {"input_layernorm.weight", "self_attn.q_norm.weight",
                          "self_attn.k_norm.weight"}) {
      ASSIGN_OR_RETURN(TensorValues v, w.Tensor(LayerName(li, t)));
      norms.insert(norms.end(), v.get().begin(), v.get().end());
    }
    RETURN_IF_ERROR(kernels::WriteFloats(mem, p.attn[l].norms, norms, LayerName(li, "norms")));
    ASSIGN_OR_RETURN(TensorValues post, w.Tensor(LayerName(li, "post_attention_layernorm.weight")));
    RETURN_IF_ERROR(kernels::WriteFloats(mem, p.mlp[l].g, post.get(),
                                         LayerName(li, "post_attention_layernorm")));
    RETURN_IF_ERROR(kernels::WriteKvMask(p.attn[l].core.kv, mem));
  }
  // One rope table for every layer (the plan points them all at layer 0's).
  const kernels::LayerShape& shape = p.attn[0].shape;
  std::vector<float> rope;
  rope.reserve(size_t(shape.t_max) * 2 * shape.hd);
  for (int pos = 0; pos < shape.t_max; ++pos) {
    std::vector<float> row = kernels::RopeRow(shape, pos);
    rope.insert(rope.end(), row.begin(), row.end());
  }
  return kernels::WriteFloats(mem, p.attn[0].rope, rope, "qwen3 rope table");
}

StatusOr<std::vector<uint8_t>> EmbeddingBytes(const Qwen3Plan& p, const Qwen3Weights& w,
                                              int token) {
  const int H = p.model.hidden_size, vocab = p.model.vocab_size;
  if (token < 0 || token >= vocab)
    return InvalidArgument(StrFormat("token %d is outside the vocabulary of %d", token, vocab));
  if (w.embed_tokens.size() != size_t(vocab) * H)
    return InvalidArgument("qwen3 weights: model.embed_tokens.weight does not match the config");
  return EmbeddingBytes(p, ResidentQwen3(w), token);
}

StatusOr<std::vector<uint8_t>> EmbeddingBytes(const Qwen3Plan& p, const Qwen3TensorSource& w,
                                              int token) {
  const int H = p.model.hidden_size, vocab = p.model.vocab_size;
  if (token < 0 || token >= vocab)
    return InvalidArgument(StrFormat("token %d is outside the vocabulary of %d", token, vocab));
  ASSIGN_OR_RETURN(TensorValues row, w.Rows("model.embed_tokens.weight", token, 1));
  if (row.get().size() != size_t(H))
    return InvalidArgument("qwen3 weights: model.embed_tokens.weight does not match the config");
  std::vector<uint8_t> bytes(size_t(H) * 4);
  std::memcpy(bytes.data(), row.get().data(), bytes.size());
  return bytes;
}

std::vector<float> ReadLogits(const Qwen3Plan& p, const SparseMemory& dram) {
  return kernels::ReadFloats(dram, p.logits, size_t(p.model.vocab_size));
}

}  // namespace otpu::models
