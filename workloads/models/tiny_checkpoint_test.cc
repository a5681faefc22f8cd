#include "workloads/models/tiny_checkpoint.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "workloads/models/io_test_util.h"
#include "workloads/models/tiny_tokenizer.h"
#include "workloads/models/tokenizer.h"

namespace otpu::models {
namespace {

using ::testing::HasSubstr;

StatusOr<Qwen3Weights> Load(const std::string& dir) {
  ASSIGN_OR_RETURN(auto ckpt, Qwen3Checkpoint::Open(dir));
  return LoadQwen3Weights(*ckpt);
}

void ExpectEqualWeights(const Qwen3Weights& a, const Qwen3Weights& b) {
  for (const std::string& name : Qwen3TensorNames(a.config)) {
    ASSERT_NE(b.Find(name), nullptr) << name;
    EXPECT_EQ(*a.Find(name), *b.Find(name)) << name;
  }
}

TEST(TinyCheckpoint, Bf16LoadsBackAsQwenTiny) {
  ScratchDir dir;
  ASSERT_TRUE(WriteTinyCheckpoint(dir.path()).ok());
  auto w = Load(dir.path());
  ASSERT_TRUE(w.ok()) << w.status().message();
  ExpectEqualWeights(*w, QwenTinyWeights());
}

TEST(TinyCheckpoint, F32LoadsBackExactly) {
  ScratchDir dir;
  TinyCheckpointOptions o;
  o.dtype = Dtype::kF32;
  o.seed = 7;
  ASSERT_TRUE(WriteTinyCheckpoint(dir.path(), o).ok());
  auto w = Load(dir.path());
  ASSERT_TRUE(w.ok()) << w.status().message();
  ExpectEqualWeights(*w, RandomQwen3(Qwen3Config::Tiny(), 7));
}

TEST(TinyCheckpoint, F16LoadsBackWithinHalfPrecision) {
  ScratchDir dir;
  TinyCheckpointOptions o;
  o.dtype = Dtype::kF16;
  ASSERT_TRUE(WriteTinyCheckpoint(dir.path(), o).ok());
  auto w = Load(dir.path());
  ASSERT_TRUE(w.ok()) << w.status().message();
  const Qwen3Weights& ref = QwenTinyWeights();
  const auto& got = w->layers[0].q_proj;
  for (size_t i = 0; i < got.size(); ++i) {
    // Normal halves keep bf16's 8 bits; tiny values fall into half subnormals (step 2^-24).
    ASSERT_NEAR(got[i], ref.layers[0].q_proj[i], std::ldexp(1.0, -24)) << i;
  }
}

TEST(TinyCheckpoint, ShardedCheckpointLoadsBack) {
  ScratchDir dir;
  TinyCheckpointOptions o;
  o.shards = 3;
  ASSERT_TRUE(WriteTinyCheckpoint(dir.path(), o).ok());
  EXPECT_TRUE(std::filesystem::exists(dir.File("model.safetensors.index.json")));
  EXPECT_TRUE(std::filesystem::exists(dir.File("model-00003-of-00003.safetensors")));
  EXPECT_FALSE(std::filesystem::exists(dir.File("model.safetensors")));
  auto w = Load(dir.path());
  ASSERT_TRUE(w.ok()) << w.status().message();
  ExpectEqualWeights(*w, QwenTinyWeights());
}

// The streamed writer's files equal those of the whole model written from memory.
TEST(TinyCheckpoint, StreamedFilesEqualTheWholeModelsFiles) {
  ScratchDir streamed, whole;
  TinyCheckpointOptions o;
  o.shards = 3;
  int64_t last_done = 0, last_total = 0;
  o.progress = [&](const std::string&, int64_t done, int64_t total) {
    EXPECT_GT(done, last_done);
    last_done = done;
    last_total = total;
  };
  ASSERT_TRUE(WriteTinyCheckpoint(streamed.path(), o).ok());
  EXPECT_EQ(last_done, last_total);
  ASSERT_TRUE(WriteQwen3Checkpoint(whole.path(), QwenTinyWeights(), Dtype::kBF16, 3).ok());
  for (const char* f : {"config.json", "model.safetensors.index.json",
                        "model-00001-of-00003.safetensors", "model-00002-of-00003.safetensors",
                        "model-00003-of-00003.safetensors"}) {
    EXPECT_EQ(ReadFileToString(streamed.File(f)).value(), ReadFileToString(whole.File(f)).value())
        << f;
  }
}

TEST(RandomQwen3, GeneratedInPiecesGivesTheSameValues) {
  const Qwen3Weights& want = QwenTinyWeights();
  Qwen3Weights got;
  got.config = want.config;
  got.layers.resize(want.layers.size());
  ASSERT_TRUE(GenerateRandomQwen3(want.config, 0, 1000,
                                  [&](const std::string& name, const std::vector<int64_t>&,
                                      int64_t offset, std::span<const float> values) {
                                    std::vector<float>& t = *got.Find(name);
                                    EXPECT_EQ(size_t(offset), t.size());
                                    t.insert(t.end(), values.begin(), values.end());
                                    return OkStatus();
                                  })
                  .ok());
  ExpectEqualWeights(got, want);
}

TEST(TinyCheckpoint, UntiedModelCarriesItsLmHead) {
  ScratchDir dir;
  TinyCheckpointOptions o;
  o.config.tie_word_embeddings = false;
  ASSERT_TRUE(WriteTinyCheckpoint(dir.path(), o).ok());
  auto w = Load(dir.path());
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_FALSE(w->config.tie_word_embeddings);
  EXPECT_EQ(w->lm_head, RandomQwen3(o.config, 0).lm_head);
}

TEST(TinyCheckpoint, CreatesMissingParentDirectories) {
  ScratchDir dir;
  ASSERT_TRUE(WriteTinyCheckpoint(dir.File("a/b/qwen-tiny")).ok());
  EXPECT_TRUE(std::filesystem::exists(dir.File("a/b/qwen-tiny/tokenizer.json")));
}

TEST(TinyCheckpoint, InvalidConfigIsRefusedNamingTheField) {
  ScratchDir dir;
  TinyCheckpointOptions o;
  o.config.num_key_value_heads = 3;
  const Status s = WriteTinyCheckpoint(dir.path(), o);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("num_key_value_heads = 3"));
}

TEST(TinyTokenizer, FillsTheModelVocabulary) {
  ScratchDir dir;
  ASSERT_TRUE(WriteTinyCheckpoint(dir.path()).ok());
  auto tok = Tokenizer::FromFile(dir.File("tokenizer.json"));
  ASSERT_TRUE(tok.ok()) << tok.status().message();
  // Every id the model can produce decodes, and the special tokens take the last five.
  EXPECT_EQ((*tok)->vocab_size(), Qwen3Config::Tiny().vocab_size);
  for (int id = 0; id < (*tok)->vocab_size(); ++id)
    ASSERT_TRUE((*tok)->Decode({&id, 1}).ok()) << id;
  EXPECT_EQ((*tok)->TokenId("<|endoftext|>"), 995);
  EXPECT_EQ((*tok)->TokenId("</think>"), 999);
}

TEST(TinyTokenizer, TooSmallVocabularyNamesVocabSize) {
  auto json = TinyTokenizerJson(100);
  EXPECT_EQ(json.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(json.status().message(), HasSubstr("vocab_size = 100"));
}

TEST(TinyTokenizer, TrainingStopsWhenNoPairIsLeft) {
  auto bpe = TrainTinyBpe("aaaa", 1000);
  ASSERT_TRUE(bpe.ok());
  // a+a, then aa+aa: the single word is one symbol.
  EXPECT_EQ(bpe->merges.size(), 2u);
  EXPECT_EQ(bpe->symbols.back(), "aaaa");
}

}  // namespace
}  // namespace otpu::models
