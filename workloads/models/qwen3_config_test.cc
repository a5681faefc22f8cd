#include "workloads/models/qwen3_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "workloads/models/io_test_util.h"
#include "workloads/models/qwen3_weights.h"
#include "workloads/models/tiny_checkpoint.h"

namespace otpu::models {
namespace {

using ::testing::HasSubstr;

// Qwen/Qwen3-0.6B's config.json as published.
constexpr char kQwen3_0_6B[] = R"({
  "architectures": ["Qwen3ForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "bos_token_id": 151643, "eos_token_id": 151645, "head_dim": 128, "hidden_act": "silu",
  "hidden_size": 1024, "initializer_range": 0.02, "intermediate_size": 3072,
  "max_position_embeddings": 40960, "max_window_layers": 28, "model_type": "qwen3",
  "num_attention_heads": 16, "num_hidden_layers": 28, "num_key_value_heads": 8,
  "rms_norm_eps": 1e-06, "rope_scaling": null, "rope_theta": 1000000, "sliding_window": null,
  "tie_word_embeddings": true, "torch_dtype": "bfloat16", "transformers_version": "4.51.0",
  "use_cache": true, "use_sliding_window": false, "vocab_size": 151936
})";

void ExpectSame(const Qwen3Config& a, const Qwen3Config& b) {
  EXPECT_EQ(a.hidden_size, b.hidden_size);
  EXPECT_EQ(a.intermediate_size, b.intermediate_size);
  EXPECT_EQ(a.num_hidden_layers, b.num_hidden_layers);
  EXPECT_EQ(a.num_attention_heads, b.num_attention_heads);
  EXPECT_EQ(a.num_key_value_heads, b.num_key_value_heads);
  EXPECT_EQ(a.head_dim, b.head_dim);
  EXPECT_EQ(a.rms_norm_eps, b.rms_norm_eps);
  EXPECT_EQ(a.rope_theta, b.rope_theta);
  EXPECT_EQ(a.vocab_size, b.vocab_size);
  EXPECT_EQ(a.tie_word_embeddings, b.tie_word_embeddings);
  EXPECT_EQ(a.max_position_embeddings, b.max_position_embeddings);
  EXPECT_EQ(a.torch_dtype, b.torch_dtype);
}

// kQwen3_0_6B with `from` replaced by `to` (the test's one change).
std::string Edited(const std::string& from, const std::string& to) {
  std::string s = kQwen3_0_6B;
  const size_t at = s.find(from);
  OTPU_CHECK(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

TEST(Qwen3Config, ParsesThePublishedQwen3_0_6BConfig) {
  auto c = ParseQwen3Config(kQwen3_0_6B, "config.json");
  ASSERT_TRUE(c.ok()) << c.status().message();
  ExpectSame(*c, Qwen3Config::Qwen3_0_6B());
}

TEST(Qwen3Config, WrittenJsonParsesBack) {
  Qwen3Config tiny = Qwen3Config::Tiny();
  tiny.tie_word_embeddings = false;
  tiny.rope_theta = 5e5;
  auto c = ParseQwen3Config(Qwen3ConfigJson(tiny), "config.json");
  ASSERT_TRUE(c.ok()) << c.status().message();
  ExpectSame(*c, tiny);
}

TEST(Qwen3Config, HeadDimDefaultsToHiddenOverHeads) {
  auto c = ParseQwen3Config(Edited("\"head_dim\": 128,", ""), "config.json");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->head_dim, 1024 / 16);
}

TEST(Qwen3Config, OtherArchitectureIsUnsupportedNamingIt) {
  auto c = ParseQwen3Config(Edited("Qwen3ForCausalLM", "LlamaForCausalLM"), "m/config.json");
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(c.status().message(),
              HasSubstr("m/config.json: unsupported architecture LlamaForCausalLM"));
}

TEST(Qwen3Config, MissingFieldNamesFileAndField) {
  auto c = ParseQwen3Config(Edited("\"hidden_size\": 1024,", ""), "m/config.json");
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(c.status().message(), HasSubstr("m/config.json: missing field hidden_size"));
}

TEST(Qwen3Config, FieldOfTheWrongTypeNamesIt) {
  auto c =
      ParseQwen3Config(Edited("\"vocab_size\": 151936", "\"vocab_size\": \"big\""), "config.json");
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(c.status().message(), HasSubstr("config.json: field vocab_size is not an integer"));
}

TEST(Qwen3Config, RopeScalingIsRefusedNamingTheField) {
  auto c = ParseQwen3Config(Edited("\"rope_scaling\": null", R"("rope_scaling": {"type": "yarn"})"),
                            "config.json");
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(c.status().message(), HasSubstr("config.json: field rope_scaling"));
}

TEST(Qwen3Config, HeadsThatDoNotGroupAreRefused) {
  auto c = ParseQwen3Config(Edited("\"num_key_value_heads\": 8", "\"num_key_value_heads\": 6"),
                            "config.json");
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(
      c.status().message(),
      HasSubstr(
          "config.json: num_attention_heads = 16 is not a multiple of num_key_value_heads = 6"));
}

TEST(Qwen3Config, TextThatIsNotJsonNamesTheFile) {
  auto c = ParseQwen3Config("{\"hidden_size\": ", "m/config.json");
  EXPECT_EQ(c.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(c.status().message(), HasSubstr("m/config.json: invalid JSON at byte"));
}

// Regression: num_hidden_layers 1e9 took 7.4 GB before failing with std::bad_alloc.
TEST(Qwen3Config, HugeLayerCountIsRefusedNamingFileAndField) {
  auto c = ParseQwen3Config(Edited("\"num_hidden_layers\": 28", "\"num_hidden_layers\": 1000000000"),
                            "m/config.json");
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(c.status().message(),
              HasSubstr("m/config.json: num_hidden_layers = 1000000000: over the limit of 1024"));
}

TEST(Qwen3Config, DeepNestingIsDataLossNotACrash) {
  auto c = ParseQwen3Config(std::string(200000, '[') + std::string(200000, ']'), "m/config.json");
  EXPECT_EQ(c.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(c.status().message(),
              HasSubstr("m/config.json: invalid JSON at byte 128: nested deeper than 128 levels"));
}

TEST(Qwen3Config, DuplicateKeyIsDataLoss) {
  auto c = ParseQwen3Config(R"({"hidden_size": 1, "hidden_size": 2})", "m/config.json");
  EXPECT_EQ(c.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(c.status().message(), HasSubstr("m/config.json: invalid JSON at byte 32: duplicate key \"hidden_size\""));
}

TEST(Qwen3TensorShape, GivesHuggingFaceLayouts) {
  const Qwen3Config c = Qwen3Config::Qwen3_0_6B();
  auto shape = [&](const std::string& n) { return Qwen3TensorShape(c, n).value(); };
  using S = std::vector<int64_t>;
  EXPECT_EQ(shape("model.embed_tokens.weight"), (S{151936, 1024}));
  EXPECT_EQ(shape("model.layers.27.self_attn.q_proj.weight"), (S{2048, 1024}));
  EXPECT_EQ(shape("model.layers.0.self_attn.k_proj.weight"), (S{1024, 1024}));
  EXPECT_EQ(shape("model.layers.0.self_attn.o_proj.weight"), (S{1024, 2048}));
  EXPECT_EQ(shape("model.layers.0.self_attn.q_norm.weight"), (S{128}));
  EXPECT_EQ(shape("model.layers.3.mlp.down_proj.weight"), (S{1024, 3072}));
  EXPECT_EQ(shape("model.norm.weight"), (S{1024}));
}

TEST(Qwen3TensorShape, UnknownNamesAreNotFound) {
  const Qwen3Config c = Qwen3Config::Tiny();  // 2 layers, tied
  for (const char* name :
       {"model.layers.2.mlp.up_proj.weight", "model.layers.01.mlp.up_proj.weight",
        "model.layers.0.mlp.up_proj.bias", "lm_head.weight"}) {
    auto s = Qwen3TensorShape(c, name);
    EXPECT_EQ(s.status().code(), StatusCode::kNotFound) << name;
    EXPECT_THAT(s.status().message(), HasSubstr(name));
  }
}

TEST(Qwen3TensorNames, ListsLmHeadOnlyWhenUntied) {
  Qwen3Config c = Qwen3Config::Tiny();
  EXPECT_EQ(Qwen3TensorNames(c).size(), 1u + 11 * 2 + 1);
  c.tie_word_embeddings = false;
  EXPECT_EQ(Qwen3TensorNames(c).back(), "lm_head.weight");
}

TEST(Qwen3Checkpoint, MissingDirectorySaysWhereToPutOne) {
  ScratchDir scratch;
  const std::string dir = scratch.File("models/Qwen3-0.6B");
  auto ckpt = Qwen3Checkpoint::Open(dir);
  EXPECT_EQ(ckpt.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(ckpt.status().message(),
            dir +
                ": no such checkpoint directory; download Qwen/Qwen3-0.6B "
                "(config.json, model.safetensors, tokenizer.json) into it");
}

class Qwen3CheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(WriteTinyCheckpoint(dir_.path()).ok()); }
  // Rewrites model.safetensors from the tiny model, minus `drop`, with `reshape` given
  // `shape`.
  void RewriteWeights(const std::string& drop, const std::string& reshape = "",
                      std::vector<int64_t> shape = {}) {
    const Qwen3Weights& w = QwenTinyWeights();
    std::vector<TensorToWrite> tensors;
    for (const std::string& name : Qwen3TensorNames(w.config)) {
      if (name == drop) continue;
      std::vector<int64_t> s = Qwen3TensorShape(w.config, name).value();
      if (name == reshape) s = shape;
      tensors.push_back({name, Dtype::kBF16, s, *w.Find(name)});
    }
    ASSERT_TRUE(WriteSafetensors(dir_.File("model.safetensors"), tensors).ok());
  }
  ScratchDir dir_;
};

TEST_F(Qwen3CheckpointTest, OpensTheTinyCheckpoint) {
  auto ckpt = Qwen3Checkpoint::Open(dir_.path());
  ASSERT_TRUE(ckpt.ok()) << ckpt.status().message();
  ExpectSame((*ckpt)->config(), Qwen3Config::Tiny());
  auto t = (*ckpt)->Tensor("model.layers.1.self_attn.v_proj.weight");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->size(), 256u * 256);
}

TEST_F(Qwen3CheckpointTest, MissingConfigNamesIt) {
  std::filesystem::remove(dir_.File("config.json"));
  auto ckpt = Qwen3Checkpoint::Open(dir_.path());
  EXPECT_EQ(ckpt.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(ckpt.status().message(), HasSubstr(dir_.File("config.json") + ": no such file"));
}

TEST_F(Qwen3CheckpointTest, UnsupportedArchitectureNamesIt) {
  WriteRaw(dir_.File("config.json"), R"({"architectures": ["MistralForCausalLM"]})");
  auto ckpt = Qwen3Checkpoint::Open(dir_.path());
  EXPECT_EQ(ckpt.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(ckpt.status().message(),
              HasSubstr("config.json: unsupported architecture MistralForCausalLM"));
}

TEST_F(Qwen3CheckpointTest, MissingTensorNamesFileAndTensor) {
  RewriteWeights("model.layers.1.self_attn.k_norm.weight");
  auto ckpt = Qwen3Checkpoint::Open(dir_.path());
  EXPECT_EQ(ckpt.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(
      ckpt.status().message(),
      HasSubstr("model.safetensors: missing tensor model.layers.1.self_attn.k_norm.weight"));
}

TEST_F(Qwen3CheckpointTest, ShapeMismatchNamesTensorAndShapes) {
  RewriteWeights("", "model.layers.0.mlp.gate_proj.weight", {256, 512});
  auto ckpt = Qwen3Checkpoint::Open(dir_.path());
  EXPECT_EQ(ckpt.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(ckpt.status().message(),
              HasSubstr("model.safetensors: tensor model.layers.0.mlp.gate_proj.weight: shape "
                        "[256, 512], expected [512, 256] from config.json"));
}

TEST_F(Qwen3CheckpointTest, UnknownTensorNameIsNotFound) {
  auto ckpt = Qwen3Checkpoint::Open(dir_.path());
  ASSERT_TRUE(ckpt.ok());
  auto t = (*ckpt)->Tensor("lm_head.weight");  // tied: not part of the model
  EXPECT_EQ(t.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(t.status().message(), HasSubstr("no tensor lm_head.weight"));
}

}  // namespace
}  // namespace otpu::models
