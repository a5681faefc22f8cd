#include "workloads/models/qwen3_engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "workloads/models/qwen3_image.h"
#include "workloads/models/qwen3_program.h"
#include "workloads/models/qwen3_reference.h"
#include "workloads/models/qwen3_workload.h"
#include "tests/workloads/qwen_test_util.h"

namespace otpu::models {
namespace {

// Nine positions: the qwen-tiny prompt, then tokens spread over the vocabulary.
const std::vector<int> kTokens = {1, 42, 318, 7, 500, 9, 77, 123, 999};

double RelL2(const std::vector<float>& got, const std::vector<double>& ref) {
  double err = 0, norm = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    err += (got[i] - ref[i]) * (got[i] - ref[i]);
    norm += ref[i] * ref[i];
  }
  return std::sqrt(err / norm);
}

const Qwen3Weights& Tiny() {
  static const Qwen3Weights w = RandomQwen3(Qwen3Config::Tiny(), 0);
  return w;
}

TEST(Qwen3Engine, Int8LogitsAgreeWithTheReferenceAtEveryPosition) {
  StatusOr<Qwen3Engine> e = BuildQwen3Engine(Tiny(), isa::Config::Sim(), {});
  ASSERT_TRUE(e.ok()) << e.status().message();
  StatusOr<std::vector<std::vector<float>>> got = DecodeOnIsa(*e, Tiny(), kTokens);
  ASSERT_TRUE(got.ok()) << got.status().message();
  std::vector<std::vector<double>> ref = DecodeReference(Tiny(), kTokens);
  for (size_t p = 0; p < kTokens.size(); ++p) {
    const double cos = Cosine((*got)[p], ref[p]);
    std::printf("[ measure  ] qwen-tiny int8 pos %zu cosine %.6f rel_l2 %.4f\n", p, cos,
                RelL2((*got)[p], ref[p]));
    EXPECT_GE(cos, 0.998) << "pos " << p;
    EXPECT_EQ(ArgMax((*got)[p]), ArgMax(ref[p])) << "pos " << p;
  }
}

TEST(Qwen3Engine, UntiedHeadUsesLmHeadWeights) {
  Qwen3Config cfg = Qwen3Config::Tiny();
  cfg.tie_word_embeddings = false;
  cfg.num_hidden_layers = 1;
  const Qwen3Weights w = RandomQwen3(cfg, 3);
  ASSERT_FALSE(w.lm_head.empty());
  StatusOr<Qwen3Engine> e = BuildQwen3Engine(w, isa::Config::Sim(), {});
  ASSERT_TRUE(e.ok()) << e.status().message();
  const std::vector<int> tokens = {5, 6, 7};
  StatusOr<std::vector<std::vector<float>>> got = DecodeOnIsa(*e, w, tokens);
  ASSERT_TRUE(got.ok()) << got.status().message();
  std::vector<std::vector<double>> ref = DecodeReference(w, tokens);
  for (size_t p = 0; p < tokens.size(); ++p) EXPECT_GE(Cosine((*got)[p], ref[p]), 0.998);
}

// Feeds the accelerator's own greedy tokens back; where the reference (given the same
// history) has a clear winner, the accelerator must pick it.
TEST(Qwen3Engine, GreedyTokensMatchTheReferenceWhereTheMarginIsClear) {
  StatusOr<Qwen3Engine> e = BuildQwen3Engine(Tiny(), isa::Config::Sim(), {});
  ASSERT_TRUE(e.ok()) << e.status().message();
  IsaStepper stepper(e->plan.hw, e->image, e->program);
  Qwen3Reference ref(Tiny());
  std::vector<int> tokens = kTinyPrompt;
  int compared = 0;
  for (int p = 0; p < 16; ++p) {
    StatusOr<workloads::Step> step = Qwen3Step(e->plan, Tiny(), tokens[p], p);
    ASSERT_TRUE(step.ok()) << step.status().message();
    ASSERT_TRUE(stepper.Run(*step).ok());
    StatusOr<std::vector<double>> want = ref.Step(tokens[p]);
    ASSERT_TRUE(want.ok());
    const std::vector<float> got = ReadLogits(e->plan, stepper.dram());
    std::vector<double> sorted = *want;
    std::partial_sort(sorted.begin(), sorted.begin() + 2, sorted.end(), std::greater<>());
    double rms = 0;
    for (double v : *want) rms += v * v;
    rms = std::sqrt(rms / double(want->size()));
    // Clear: the top two differ by more than 6x the int8 bound's error per logit.
    if (sorted[0] - sorted[1] > 6 * LogitsBound({}) * rms) {
      EXPECT_EQ(ArgMax(got), ArgMax(*want)) << "pos " << p;
      ++compared;
    }
    if (p + 1 >= int(tokens.size())) tokens.push_back(ArgMax(got));
  }
  std::printf("[ measure  ] greedy: %d of 16 positions had a clear margin\n", compared);
  EXPECT_GE(compared, 8);
}

TEST(Qwen3Engine, VocabTilesGiveBitIdenticalLogits) {
  const std::vector<int> tokens = {3, 4};
  std::vector<std::vector<float>> first;
  for (int tile : {0, 256, 250, 999}) {  // one tile; 3 + tail; 4, no tail; 1 + a tail of 1
    StatusOr<Qwen3Engine> e = BuildQwen3Engine(Tiny(), isa::Config::Sim(), {.vocab_tile = tile});
    ASSERT_TRUE(e.ok()) << e.status().message();
    StatusOr<std::vector<std::vector<float>>> got = DecodeOnIsa(*e, Tiny(), tokens);
    ASSERT_TRUE(got.ok()) << got.status().message();
    if (first.empty())
      first = *got;
    else
      EXPECT_EQ(*got, first) << "vocab_tile " << tile;
  }
}

TEST(Qwen3Engine, StepsDifferOnlyInArgsAndTheEmbeddingRow) {
  StatusOr<Qwen3Plan> plan = PlanQwen3(Qwen3Config::Tiny(), isa::Config::Sim(), {});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  StatusOr<workloads::Step> a = Qwen3Step(*plan, Tiny(), 10, 0, true);
  StatusOr<workloads::Step> b = Qwen3Step(*plan, Tiny(), 11, 300);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(a->traced);
  EXPECT_NE(a->args, b->args);
  ASSERT_EQ(a->writes.size(), 1u);
  EXPECT_EQ(a->writes[0].addr, plan->resid);
  EXPECT_EQ(a->writes[0].addr, b->writes[0].addr);
  float first;
  std::memcpy(&first, b->writes[0].bytes.data(), 4);
  EXPECT_EQ(first, Tiny().embed_tokens[11 * 256]);
}

TEST(Qwen3Engine, Qwen3_0_6BProgramFitsImem) {
  for (const isa::Config& hw : {isa::Config::Sim(), isa::Config::Board()}) {
    StatusOr<Qwen3Plan> plan = PlanQwen3(Qwen3Config::Qwen3_0_6B(), hw, {});
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    StatusOr<isa::Program> prog = BuildQwen3Program(*plan);
    ASSERT_TRUE(prog.ok()) << prog.status().message();
    std::printf("[ measure  ] Qwen3-0.6B step program on %s: %zu instructions, image %.0f MiB\n",
                hw.name.c_str(), prog->size(), double(plan->dram_end) / (1 << 20));
    EXPECT_LE(prog->size(), hw.IMEM_WORDS);
  }
}

// Every format stays within its documented bound, on both configurations.
struct FormatCase {
  const char* name;
  WeightFormats formats;
  bool board;
};
void PrintTo(const FormatCase& c, std::ostream* os) { *os << c.name; }

class Qwen3Formats : public ::testing::TestWithParam<FormatCase> {};

TEST_P(Qwen3Formats, LogitsStayWithinTheFormatsBound) {
  const FormatCase& c = GetParam();
  const isa::Config hw = c.board ? isa::Config::Board() : isa::Config::Sim();
  StatusOr<Qwen3Engine> e = BuildQwen3Engine(Tiny(), hw, {.formats = c.formats});
  ASSERT_TRUE(e.ok()) << e.status().message();
  const std::vector<int> tokens(kTokens.begin(), kTokens.begin() + 8);
  StatusOr<std::vector<std::vector<float>>> got = DecodeOnIsa(*e, Tiny(), tokens);
  ASSERT_TRUE(got.ok()) << got.status().message();
  std::vector<std::vector<double>> ref = DecodeReference(Tiny(), tokens);
  double worst = 0;
  for (size_t p = 0; p < tokens.size(); ++p) worst = std::max(worst, RelL2((*got)[p], ref[p]));
  const double bound = LogitsBound(c.formats);
  std::printf("[ measure  ] qwen-tiny %s worst rel_l2 %.4f bound %.3f\n", c.name, worst, bound);
  EXPECT_LE(worst, bound);
}

INSTANTIATE_TEST_SUITE_P(
    Engine, Qwen3Formats,
    ::testing::Values(
        FormatCase{"int8", {LayerFormat::kInt8, isa::WFormat::kINT8}, false},
        FormatCase{"int4", {LayerFormat::kInt4, isa::WFormat::kINT4}, false},
        FormatCase{"fp4", {LayerFormat::kFp4, isa::WFormat::kFP4}, false},
        FormatCase{"mix", {LayerFormat::kMix, isa::WFormat::kINT8}, false},
        FormatCase{"int8_layers_int4_head", {LayerFormat::kInt8, isa::WFormat::kINT4}, false},
        FormatCase{"int8_layers_fp4_head", {LayerFormat::kInt8, isa::WFormat::kFP4}, false},
        FormatCase{"board_int8", {LayerFormat::kInt8, isa::WFormat::kINT8}, true},
        FormatCase{"board_int4", {LayerFormat::kInt4, isa::WFormat::kINT4}, true},
        FormatCase{"board_fp4", {LayerFormat::kFp4, isa::WFormat::kFP4}, true},
        FormatCase{"board_mix", {LayerFormat::kMix, isa::WFormat::kINT8}, true}),
    [](const ::testing::TestParamInfo<FormatCase>& info) { return std::string(info.param.name); });

// ---- errors ----

TEST(Qwen3EngineErrors, HiddenSizeNotAMultipleOfDIsNamed) {
  Qwen3Config cfg = Qwen3Config::Tiny();
  cfg.hidden_size = 100;
  StatusOr<Qwen3Plan> plan = PlanQwen3(cfg, isa::Config::Sim(), {});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(),
            "LM head: hidden_size = 100 is not a multiple of 32 (int8 weights, D=32)");
}

TEST(Qwen3EngineErrors, FourBitHeadNeedsTwoD) {
  Qwen3Config cfg = Qwen3Config::Tiny();
  cfg.hidden_size = 96;
  StatusOr<Qwen3Plan> plan = PlanQwen3(cfg, isa::Config::Sim(),
                                       {.formats = {LayerFormat::kInt8, isa::WFormat::kFP4}});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(),
            "LM head: hidden_size = 96 is not a multiple of 64 (fp4 weights, D=32)");
}

TEST(Qwen3EngineErrors, LayerTheKernelsCannotRunIsNamed) {
  Qwen3Config cfg = Qwen3Config::Tiny();
  cfg.head_dim = 48;  // not a multiple of D
  StatusOr<Qwen3Plan> plan = PlanQwen3(cfg, isa::Config::Sim(), {});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message().rfind("qwen3 layer 0 attention: ", 0), 0u)
      << plan.status().message();
}

TEST(Qwen3EngineErrors, CachePastMaxPositionEmbeddingsIsNamed) {
  StatusOr<Qwen3Plan> plan = PlanQwen3(Qwen3Config::Tiny(), isa::Config::Sim(), {.t_max = 2048});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(),
            "qwen3 engine: t_max = 2048 exceeds max_position_embeddings = 1024");
}

TEST(Qwen3EngineErrors, InvalidConfigNamesTheField) {
  Qwen3Config cfg = Qwen3Config::Tiny();
  cfg.num_key_value_heads = 3;
  StatusOr<Qwen3Plan> plan = PlanQwen3(cfg, isa::Config::Sim(), {});
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("qwen3 config: num_attention_heads = 4"),
            std::string::npos)
      << plan.status().message();
}

TEST(Qwen3EngineErrors, ImageLargerThanDramNamesTheRegion) {
  isa::Config hw = isa::Config::Sim();
  hw.DRAM_BYTES = 4 << 20;
  StatusOr<Qwen3Plan> plan = PlanQwen3(Qwen3Config::Tiny(), hw, {});
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("ends past DRAM_BYTES=0x400000"), std::string::npos)
      << plan.status().message();
}

TEST(Qwen3EngineErrors, ProgramLargerThanImemNamesTheCount) {
  isa::Config hw = isa::Config::Sim();
  hw.IMEM_WORDS = 100;
  StatusOr<Qwen3Plan> plan = PlanQwen3(Qwen3Config::Tiny(), hw, {});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  StatusOr<isa::Program> prog = BuildQwen3Program(*plan);
  ASSERT_FALSE(prog.ok());
  EXPECT_NE(prog.status().message().find("instructions for 2 layers do not fit IMEM_WORDS=100"),
            std::string::npos)
      << prog.status().message();
}

TEST(Qwen3EngineErrors, TokenOutsideTheVocabularyIsNamed) {
  StatusOr<Qwen3Plan> plan = PlanQwen3(Qwen3Config::Tiny(), isa::Config::Sim(), {});
  ASSERT_TRUE(plan.ok());
  StatusOr<workloads::Step> step = Qwen3Step(*plan, Tiny(), 1000, 0);
  ASSERT_FALSE(step.ok());
  EXPECT_EQ(step.status().message(), "token 1000 is outside the vocabulary of 1000");
}

TEST(Qwen3EngineErrors, PositionOutsideTheCacheIsNamed) {
  StatusOr<Qwen3Plan> plan = PlanQwen3(Qwen3Config::Tiny(), isa::Config::Sim(), {.t_max = 64});
  ASSERT_TRUE(plan.ok());
  StatusOr<workloads::Step> step = Qwen3Step(*plan, Tiny(), 1, 64);
  ASSERT_FALSE(step.ok());
  EXPECT_NE(step.status().message().find("position 64 is outside the cache of 64"),
            std::string::npos)
      << step.status().message();
}

TEST(Qwen3EngineErrors, WrongTensorSizeNamesTheTensor) {
  Qwen3Weights w = Tiny();
  w.layers[1].down_proj.pop_back();
  StatusOr<Qwen3Engine> e = BuildQwen3Engine(w, isa::Config::Sim(), {});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(),
            "qwen3 weights: tensor model.layers.1.mlp.down_proj.weight has 131071 values, "
            "expected 131072");
}

TEST(Qwen3EngineErrors, WeightsOfAnotherModelAreRefused) {
  Qwen3Config cfg = Qwen3Config::Tiny();
  cfg.num_hidden_layers = 1;
  const Qwen3Weights w = RandomQwen3(cfg, 1);
  StatusOr<Qwen3Plan> plan = PlanQwen3(Qwen3Config::Tiny(), isa::Config::Sim(), {});
  ASSERT_TRUE(plan.ok());
  SparseMemory mem(isa::Config::Sim().DRAM_BYTES);
  Status st = WriteQwen3Image(*plan, w, nullptr, &mem);
  EXPECT_EQ(st.message(), "qwen3 weights: num_hidden_layers = 1, the plan has 2");
}

}  // namespace
}  // namespace otpu::models
