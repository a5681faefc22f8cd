#include "workloads/models/qwen3_config.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <tuple>

#include "base/strings.h"
#include "base/json.h"

namespace otpu::models {
namespace {

using Json = rapidjson::Value;

// Reads an integer field; `fallback` < 0 means required.
Status GetInt(const Json& doc, const std::string& path, const char* field, int fallback, int* out) {
  if (!doc.HasMember(field) || doc[field].IsNull()) {
    if (fallback < 0) return InvalidArgument(path + ": missing field " + field);
    *out = fallback;
    return OkStatus();
  }
  if (!doc[field].IsInt()) return InvalidArgument(path + ": field " + field + " is not an integer");
  *out = doc[field].GetInt();
  return OkStatus();
}

Status GetDouble(const Json& doc, const std::string& path, const char* field, double fallback,
                 double* out) {
  if (!doc.HasMember(field) || doc[field].IsNull()) {
    *out = fallback;
    return OkStatus();
  }
  if (!doc[field].IsNumber())
    return InvalidArgument(path + ": field " + field + " is not a number");
  *out = doc[field].GetDouble();
  return OkStatus();
}

// The per-layer tensor suffixes after "model.layers.N.".
struct LayerTensor {
  const char* suffix;
  enum Rows { kH, kQ, kKv, kF, kHd } rows;
  enum Cols { kNone, kInH, kInQ, kInF } cols;
};
constexpr LayerTensor kLayerTensors[] = {
    {"input_layernorm.weight", LayerTensor::kH, LayerTensor::kNone},
    {"self_attn.q_proj.weight", LayerTensor::kQ, LayerTensor::kInH},
    {"self_attn.k_proj.weight", LayerTensor::kKv, LayerTensor::kInH},
    {"self_attn.v_proj.weight", LayerTensor::kKv, LayerTensor::kInH},
    {"self_attn.o_proj.weight", LayerTensor::kH, LayerTensor::kInQ},
    {"self_attn.q_norm.weight", LayerTensor::kHd, LayerTensor::kNone},
    {"self_attn.k_norm.weight", LayerTensor::kHd, LayerTensor::kNone},
    {"post_attention_layernorm.weight", LayerTensor::kH, LayerTensor::kNone},
    {"mlp.gate_proj.weight", LayerTensor::kF, LayerTensor::kInH},
    {"mlp.up_proj.weight", LayerTensor::kF, LayerTensor::kInH},
    {"mlp.down_proj.weight", LayerTensor::kH, LayerTensor::kInF},
};

std::vector<int64_t> LayerShape(const Qwen3Config& c, const LayerTensor& t) {
  const int64_t h = c.hidden_size, q = int64_t(c.num_attention_heads) * c.head_dim,
                kv = int64_t(c.num_key_value_heads) * c.head_dim, f = c.intermediate_size;
  const int64_t rows[] = {h, q, kv, f, c.head_dim};
  const int64_t cols[] = {0, h, q, f};
  if (t.cols == LayerTensor::kNone) return {rows[t.rows]};
  return {rows[t.rows], cols[t.cols]};
}

std::string HintFor(const std::string& dir) {
  std::string base = dir;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  base = base.substr(base.rfind('/') == std::string::npos ? 0 : base.rfind('/') + 1);
  const std::string repo =
      base.rfind("Qwen3", 0) == 0 ? "Qwen/" + base : "a Qwen3 checkpoint such as Qwen/Qwen3-0.6B";
  return dir + ": no such checkpoint directory; download " + repo +
         " (config.json, model.safetensors, tokenizer.json) into it";
}

}  // namespace

Qwen3Config Qwen3Config::Tiny() {
  Qwen3Config c;
  c.hidden_size = 256;
  c.intermediate_size = 512;
  c.num_hidden_layers = 2;
  c.num_attention_heads = 4;
  c.num_key_value_heads = 2;
  c.head_dim = 128;
  c.rms_norm_eps = 1e-6;
  c.rope_theta = 1e6;
  c.vocab_size = 1000;
  c.tie_word_embeddings = true;
  c.max_position_embeddings = 1024;
  c.torch_dtype = "bfloat16";
  return c;
}

Qwen3Config Qwen3Config::Qwen3_0_6B() {
  Qwen3Config c;
  c.hidden_size = 1024;
  c.intermediate_size = 3072;
  c.num_hidden_layers = 28;
  c.num_attention_heads = 16;
  c.num_key_value_heads = 8;
  c.head_dim = 128;
  c.rms_norm_eps = 1e-6;
  c.rope_theta = 1e6;
  c.vocab_size = 151936;
  c.tie_word_embeddings = true;
  c.max_position_embeddings = 40960;
  c.torch_dtype = "bfloat16";
  return c;
}

Status Qwen3Config::Validate() const {
  // Upper limits keep every size derived from a config bounded before anything is allocated
  // (num_hidden_layers 1e9 took 7.4 GB). Each is far above any Qwen3 (the 235B
  // has 94 layers, hidden 4096, vocab 151936) and docs/models.md lists them.
  const std::tuple<const char*, int, int> positive[] = {
      {"hidden_size", hidden_size, 1 << 16},
      {"intermediate_size", intermediate_size, 1 << 18},
      {"num_hidden_layers", num_hidden_layers, 1024},
      {"num_attention_heads", num_attention_heads, 1024},
      {"num_key_value_heads", num_key_value_heads, 1024},
      {"head_dim", head_dim, 1024},
      {"vocab_size", vocab_size, 1 << 21},
      {"max_position_embeddings", max_position_embeddings, 1 << 24},
  };
  for (const auto& [field, value, limit] : positive) {
    if (value <= 0) return InvalidArgument(StrFormat("%s = %d: must be positive", field, value));
    if (value > limit) {
      return InvalidArgument(StrFormat("%s = %d: over the limit of %d", field, value, limit));
    }
  }
  if (num_attention_heads % num_key_value_heads != 0) {
    return InvalidArgument(
        StrFormat("num_attention_heads = %d is not a multiple of num_key_value_heads = %d",
                  num_attention_heads, num_key_value_heads));
  }
  if (head_dim % 2 != 0)
    return InvalidArgument(StrFormat("head_dim = %d: RoPE needs it even", head_dim));
  if (!(rms_norm_eps > 0))
    return InvalidArgument(StrFormat("rms_norm_eps = %g: must be positive", rms_norm_eps));
  if (!(rope_theta > 0))
    return InvalidArgument(StrFormat("rope_theta = %g: must be positive", rope_theta));
  return OkStatus();
}

StatusOr<Qwen3Config> ParseQwen3Config(const std::string& json, const std::string& path) {
  rapidjson::Document doc;
  RETURN_IF_ERROR(ParseJson(json, path, &doc));
  if (!doc.IsObject()) return DataLoss(path + ": not a JSON object");
  if (!doc.HasMember("architectures") || !doc["architectures"].IsArray()) {
    return InvalidArgument(path + ": missing field architectures");
  }
  std::string names;
  bool qwen3 = false;
  for (const auto& a : doc["architectures"].GetArray()) {
    if (!a.IsString()) return InvalidArgument(path + ": field architectures holds a non-string");
    names += (names.empty() ? "" : ", ") + std::string(a.GetString());
    qwen3 |= std::string(a.GetString()) == "Qwen3ForCausalLM";
  }
  if (!qwen3) {
    return InvalidArgument(path + ": unsupported architecture " +
                           (names.empty() ? std::string("(none)") : names) +
                           " (only Qwen3ForCausalLM)");
  }
  if (doc.HasMember("rope_scaling") && !doc["rope_scaling"].IsNull()) {
    return InvalidArgument(path + ": field rope_scaling: RoPE scaling is not supported");
  }
  if (doc.HasMember("use_sliding_window") && doc["use_sliding_window"].IsTrue()) {
    return InvalidArgument(path +
                           ": field use_sliding_window: sliding-window attention is not supported");
  }
  if (doc.HasMember("hidden_act") &&
      !(doc["hidden_act"].IsString() && std::string(doc["hidden_act"].GetString()) == "silu")) {
    return InvalidArgument(path + ": field hidden_act: only silu is supported");
  }

  Qwen3Config c;
  RETURN_IF_ERROR(GetInt(doc, path, "hidden_size", -1, &c.hidden_size));
  RETURN_IF_ERROR(GetInt(doc, path, "intermediate_size", -1, &c.intermediate_size));
  RETURN_IF_ERROR(GetInt(doc, path, "num_hidden_layers", -1, &c.num_hidden_layers));
  RETURN_IF_ERROR(GetInt(doc, path, "num_attention_heads", -1, &c.num_attention_heads));
  RETURN_IF_ERROR(GetInt(doc, path, "vocab_size", -1, &c.vocab_size));
  // Defaults as in transformers' Qwen3Config / Qwen3Attention.
  RETURN_IF_ERROR(
      GetInt(doc, path, "num_key_value_heads", c.num_attention_heads, &c.num_key_value_heads));
  const int head_dim_default =
      c.num_attention_heads > 0 ? c.hidden_size / c.num_attention_heads : 0;
  RETURN_IF_ERROR(GetInt(doc, path, "head_dim", head_dim_default, &c.head_dim));
  RETURN_IF_ERROR(GetInt(doc, path, "max_position_embeddings", 32768, &c.max_position_embeddings));
  RETURN_IF_ERROR(GetDouble(doc, path, "rms_norm_eps", 1e-6, &c.rms_norm_eps));
  // Newer transformers write rope_theta inside rope_parameters.
  double theta_default = 10000.0;
  if (doc.HasMember("rope_parameters") && doc["rope_parameters"].IsObject()) {
    RETURN_IF_ERROR(GetDouble(doc["rope_parameters"], path + ": rope_parameters", "rope_theta",
                              theta_default, &theta_default));
  }
  RETURN_IF_ERROR(GetDouble(doc, path, "rope_theta", theta_default, &c.rope_theta));
  if (doc.HasMember("tie_word_embeddings")) {
    if (!doc["tie_word_embeddings"].IsBool()) {
      return InvalidArgument(path + ": field tie_word_embeddings is not a boolean");
    }
    c.tie_word_embeddings = doc["tie_word_embeddings"].GetBool();
  }
  for (const char* field : {"torch_dtype", "dtype"}) {
    if (doc.HasMember(field) && doc[field].IsString()) {
      c.torch_dtype = doc[field].GetString();
      break;
    }
  }
  RETURN_IF_ERROR(c.Validate().WithContext(path));
  return c;
}

StatusOr<Qwen3Config> ReadQwen3Config(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  return ParseQwen3Config(text, path);
}

std::string Qwen3ConfigJson(const Qwen3Config& c) {
  rapidjson::StringBuffer sb;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(sb);
  w.SetIndent(' ', 2);
  w.StartObject();
  w.Key("architectures");
  w.StartArray();
  w.String("Qwen3ForCausalLM");
  w.EndArray();
  w.Key("model_type");
  w.String("qwen3");
  w.Key("attention_bias");
  w.Bool(false);
  w.Key("hidden_act");
  w.String("silu");
  const std::pair<const char*, int> ints[] = {
      {"hidden_size", c.hidden_size},
      {"intermediate_size", c.intermediate_size},
      {"num_hidden_layers", c.num_hidden_layers},
      {"num_attention_heads", c.num_attention_heads},
      {"num_key_value_heads", c.num_key_value_heads},
      {"head_dim", c.head_dim},
      {"vocab_size", c.vocab_size},
      {"max_position_embeddings", c.max_position_embeddings},
  };
  for (const auto& [key, value] : ints) {
    w.Key(key);
    w.Int(value);
  }
  w.Key("rms_norm_eps");
  w.Double(c.rms_norm_eps);
  w.Key("rope_theta");
  w.Double(c.rope_theta);
  w.Key("rope_scaling");
  w.Null();
  w.Key("tie_word_embeddings");
  w.Bool(c.tie_word_embeddings);
  w.Key("torch_dtype");
  w.String(c.torch_dtype.c_str());
  w.EndObject();
  return std::string(sb.GetString()) + "\n";
}

StatusOr<std::vector<int64_t>> Qwen3TensorShape(const Qwen3Config& c, const std::string& name) {
  const int64_t v = c.vocab_size, h = c.hidden_size;
  if (name == "model.embed_tokens.weight") return std::vector<int64_t>{v, h};
  if (name == "model.norm.weight") return std::vector<int64_t>{h};
  if (name == "lm_head.weight" && !c.tie_word_embeddings) return std::vector<int64_t>{v, h};
  const std::string prefix = "model.layers.";
  if (name.rfind(prefix, 0) == 0) {
    const char* digits = name.c_str() + prefix.size();
    char* end = nullptr;
    const long layer = std::strtol(digits, &end, 10);
    if (end != digits && *end == '.' && layer >= 0 && layer < c.num_hidden_layers &&
        std::to_string(layer) == std::string(digits, size_t(end - digits))) {
      const std::string suffix = end + 1;
      for (const auto& t : kLayerTensors) {
        if (suffix == t.suffix) return LayerShape(c, t);
      }
    }
  }
  return NotFound("no tensor " + name + " in a Qwen3 model of this config");
}

std::vector<std::string> Qwen3TensorNames(const Qwen3Config& c) {
  std::vector<std::string> names = {"model.embed_tokens.weight"};
  for (int l = 0; l < c.num_hidden_layers; ++l) {
    for (const auto& t : kLayerTensors) {
      names.push_back("model.layers." + std::to_string(l) + "." + t.suffix);
    }
  }
  names.push_back("model.norm.weight");
  if (!c.tie_word_embeddings) names.push_back("lm_head.weight");
  return names;
}

StatusOr<std::unique_ptr<Qwen3Checkpoint>> Qwen3Checkpoint::Open(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return NotFound(HintFor(dir));
  if (!S_ISDIR(st.st_mode)) return InvalidArgument(dir + ": not a directory");
  ASSIGN_OR_RETURN(Qwen3Config config, ReadQwen3Config(dir + "/config.json"));
  ASSIGN_OR_RETURN(auto tensors, SafetensorsSet::OpenDir(dir));
  for (const std::string& name : Qwen3TensorNames(config)) {
    const TensorInfo* info = tensors->Find(name);
    if (info == nullptr) return NotFound(tensors->source() + ": missing tensor " + name);
    const std::vector<int64_t> want = Qwen3TensorShape(config, name).value();
    if (info->shape != want) {
      return InvalidArgument(tensors->FileOf(name)->path() + ": tensor " + name + ": shape " +
                             ShapeString(info->shape) + ", expected " + ShapeString(want) +
                             " from config.json");
    }
    if (info->dtype != Dtype::kBF16 && info->dtype != Dtype::kF16 && info->dtype != Dtype::kF32) {
      return InvalidArgument(tensors->FileOf(name)->path() + ": tensor " + name + ": dtype " +
                             DtypeName(info->dtype) + " (supported: BF16, F16, F32)");
    }
  }
  return std::unique_ptr<Qwen3Checkpoint>(
      new Qwen3Checkpoint(dir, std::move(config), std::move(tensors)));
}

StatusOr<std::vector<float>> Qwen3Checkpoint::Tensor(const std::string& name) const {
  auto shape = Qwen3TensorShape(config_, name);
  if (!shape.ok()) return shape.status().WithContext(dir_);
  return tensors_->ReadFloat(name, *shape);
}

StatusOr<std::vector<float>> Qwen3Checkpoint::TensorRows(const std::string& name, int64_t row,
                                                         int64_t rows) const {
  auto shape = Qwen3TensorShape(config_, name);
  if (!shape.ok()) return shape.status().WithContext(dir_);
  return tensors_->ReadFloatRows(name, row, std::max<int64_t>(rows, 0), *shape);
}

}  // namespace otpu::models
