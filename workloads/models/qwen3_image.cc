#include "workloads/models/qwen3_image.h"

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

Status CheckWeights(const Qwen3Plan& plan, const Qwen3Weights& w) {
  RETURN_IF_ERROR(CheckSameModel(w.config, plan.model));
  if (w.layers.size() != size_t(plan.model.num_hidden_layers))
    return InvalidArgument(StrFormat("qwen3 weights: %zu layers, the config has %d",
                                     w.layers.size(), plan.model.num_hidden_layers));
  for (const std::string& name : Qwen3TensorNames(plan.model)) {
    const std::vector<float>* t = w.Find(name);
    ASSIGN_OR_RETURN(std::vector<int64_t> shape, Qwen3TensorShape(plan.model, name));
    size_t want = 1;
    for (int64_t d : shape) want *= size_t(d);
    if (t == nullptr || t->size() != want)
      return InvalidArgument(StrFormat("qwen3 weights: tensor %s has %zu values, expected %zu",
                                       name.c_str(), t ? t->size() : size_t(0), want));
  }
  return OkStatus();
}

Status ForEachMatrix(const Qwen3Plan& p, const Qwen3Weights& w,
                     const std::function<Status(const MatrixJob&)>& fn) {
  RETURN_IF_ERROR(CheckWeights(p, w));
  const Qwen3Config& m = p.model;
  const int H = m.hidden_size, F = m.intermediate_size;
  const int q_rows = m.num_attention_heads * m.head_dim;
  const int kv_rows = m.num_key_value_heads * m.head_dim;
  for (size_t l = 0; l < p.attn.size(); ++l) {
    const Qwen3LayerWeights& lw = w.layers[l];
    const kernels::LayerPlan& a = p.attn[l];
    const kernels::MlpPlan& mlp = p.mlp[l];
    const LayerWFormats& f = p.formats[l];
    const std::string at = "layer " + std::to_string(l) + " ";
    std::vector<float> qkv;  // the layer kernel's one MM over [Wq; Wk; Wv]
    qkv.reserve(size_t(q_rows + 2 * kv_rows) * H);
    for (const auto* t : {&lw.q_proj, &lw.k_proj, &lw.v_proj})
      qkv.insert(qkv.end(), t->begin(), t->end());
    const MatrixJob jobs[] = {
        {at + "qkv", &qkv, q_rows + 2 * kv_rows, H, MmOptions(p.hw, f.attn), a.w_qkv, a.s_qkv},
        {at + "o_proj", &lw.o_proj, H, q_rows, MmOptions(p.hw, f.attn), a.w_o, a.s_o},
        {at + "gate_proj", &lw.gate_proj, F, H, MmOptions(p.hw, f.mlp), mlp.w_gate, mlp.s_gate},
        {at + "up_proj", &lw.up_proj, F, H, MmOptions(p.hw, f.mlp), mlp.w_up, mlp.s_up},
        {at + "down_proj", &lw.down_proj, H, F, MmOptions(p.hw, f.mlp, mlp.shape.f_tile),
         mlp.w_down, mlp.s_down},
    };
    for (const MatrixJob& job : jobs) RETURN_IF_ERROR(fn(job));
  }
  return fn({"LM head", &w.LmHead(), m.vocab_size, H, MmOptions(p.hw, p.opts.formats.head),
             p.head_w, p.head_s});
}

Status WriteQwen3Image(const Qwen3Plan& p, const Qwen3Weights& w, ImageCache* cache,
                       SparseMemory* mem) {
  RETURN_IF_ERROR(ForEachMatrix(p, w, [&](const MatrixJob& job) -> Status {
    const bool cached = cache && cache->enabled() && job.opts.wf != isa::WFormat::kINT8;
    StatusOr<kernels::QuantizedMatrix> q =
        cached ? cache->Quantize(*job.w, job.n, job.k, job.opts, job.what)
               : kernels::Quantize(*job.w, job.n, job.k, job.opts, job.what);
    if (!q.ok()) return q.status().WithContext("qwen3 image");
    return q->WriteTo(mem, job.w_addr, job.s_addr).WithContext("qwen3 image: " + job.what);
  }));

  std::vector<float> consts = kernels::ConstTable();
  consts[kernels::kCNegEps] = -float(p.model.rms_norm_eps);
  RETURN_IF_ERROR(kernels::WriteFloats(mem, p.consts, consts, "qwen3 consts"));
  RETURN_IF_ERROR(kernels::WriteFloats(mem, p.norm, w.norm, "qwen3 final norm"));
  for (size_t l = 0; l < p.attn.size(); ++l) {
    const Qwen3LayerWeights& lw = w.layers[l];
    std::vector<float> norms = lw.input_layernorm;
    norms.insert(norms.end(), lw.q_norm.begin(), lw.q_norm.end());
    norms.insert(norms.end(), lw.k_norm.begin(), lw.k_norm.end());
    RETURN_IF_ERROR(kernels::WriteFloats(mem, p.attn[l].norms, norms, LayerName(int(l), "norms")));
    RETURN_IF_ERROR(kernels::WriteFloats(mem, p.mlp[l].g, lw.post_attention_layernorm,
                                         LayerName(int(l), "post_attention_layernorm")));
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
  std::vector<uint8_t> bytes(size_t(H) * 4);
  std::memcpy(bytes.data(), w.embed_tokens.data() + size_t(token) * H, bytes.size());
  return bytes;
}

std::vector<float> ReadLogits(const Qwen3Plan& p, const SparseMemory& dram) {
  return kernels::ReadFloats(dram, p.logits, size_t(p.model.vocab_size));
}

}  // namespace otpu::models
