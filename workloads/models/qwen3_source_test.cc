// A checkpoint read tensor by tensor (CheckpointQwen3) gives exactly what the whole model in
// floats gives (the image, the steps, the reference's logits), while no read takes more than
// one tensor, or a slice of the LM head: what keeps a Qwen3-0.6B record under its memory
// budget (docs/models.md, "Memory").
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "workloads/isa/config.h"
#include "workloads/models/io_test_util.h"
#include "workloads/models/qwen3_engine.h"
#include "workloads/models/qwen3_image.h"
#include "workloads/models/qwen3_reference.h"
#include "workloads/models/qwen3_workload.h"
#include "workloads/models/safetensors.h"
#include "workloads/models/tiny_checkpoint.h"

namespace otpu::models {
namespace {

// A source that counts what is read through it: the most values one call returned, and the
// calls per tensor.
class CountingSource : public Qwen3TensorSource {
 public:
  explicit CountingSource(const Qwen3TensorSource& inner) : inner_(inner) {}
  const Qwen3Config& config() const override { return inner_.config(); }
  bool resident() const override { return inner_.resident(); }
  Status Check() const override { return inner_.Check(); }
  StatusOr<TensorValues> Tensor(const std::string& name) const override {
    return Count(name, inner_.Tensor(name));
  }
  StatusOr<TensorValues> Rows(const std::string& name, int64_t row, int64_t rows) const override {
    return Count(name, inner_.Rows(name, row, rows));
  }
  size_t largest() const { return largest_; }
  int calls(const std::string& name) const {
    auto it = calls_.find(name);
    return it == calls_.end() ? 0 : it->second;
  }

 private:
  StatusOr<TensorValues> Count(const std::string& name, StatusOr<TensorValues> v) const {
    if (v.ok()) largest_ = std::max(largest_, v->get().size());
    ++calls_[name];
    return v;
  }
  const Qwen3TensorSource& inner_;
  mutable size_t largest_ = 0;
  mutable std::map<std::string, int> calls_;
};

class Qwen3SourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteTinyCheckpoint(dir_.File("ckpt")).ok());
    StatusOr<std::unique_ptr<Qwen3Checkpoint>> ckpt = Qwen3Checkpoint::Open(dir_.File("ckpt"));
    ASSERT_TRUE(ckpt.ok()) << ckpt.status().message();
    source_ = std::make_unique<CheckpointQwen3>(std::move(ckpt).value());
  }

  // The values of the largest tensor of the model (the embeddings, [vocab, H]), or of a layer.
  static size_t Largest(const Qwen3Config& c, bool layers_only = false) {
    size_t most = 0;
    for (const std::string& name : Qwen3TensorNames(c)) {
      if (layers_only && name.rfind("model.layers.", 0) != 0) continue;
      size_t n = 1;
      for (int64_t d : Qwen3TensorShape(c, name).value()) n *= size_t(d);
      most = std::max(most, n);
    }
    return most;
  }
  static size_t LargestInALayer(const Qwen3Config& c) { return Largest(c, true); }

  ScratchDir dir_;
  std::unique_ptr<CheckpointQwen3> source_;
  const isa::Config hw_ = isa::Config::Sim();
};

// The image from the checkpoint, the LM head read in slices of 1000 values, equals the image
// of the whole model in floats byte for byte; no read took more than the largest layer
// matrix, and the LM head (the tied embeddings) was never read whole.
TEST_F(Qwen3SourceTest, ImageReadInPiecesEqualsTheWholeModelsImage) {
  const Qwen3Weights& w = QwenTinyWeights();
  StatusOr<Qwen3Plan> plan = PlanQwen3(w.config, hw_, {});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  SparseMemory whole(hw_.DRAM_BYTES), pieces(hw_.DRAM_BYTES);
  ASSERT_TRUE(WriteQwen3Image(*plan, w, nullptr, &whole).ok());
  CountingSource counted(*source_);
  const Status st = WriteQwen3Image(*plan, counted, nullptr, &pieces, 1000);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(whole.FirstDifference(pieces), -1);
  EXPECT_EQ(counted.largest(), LargestInALayer(w.config));
  EXPECT_LT(counted.largest(), Largest(w.config));
  EXPECT_GT(counted.calls("model.embed_tokens.weight"), 1);  // the head, in slices
}

// With the default piece size the tiny head is read whole, and the image is the same.
TEST_F(Qwen3SourceTest, DefaultPiecesGiveTheSameImage) {
  const Qwen3Weights& w = QwenTinyWeights();
  StatusOr<Qwen3Plan> plan = PlanQwen3(w.config, hw_, {});
  ASSERT_TRUE(plan.ok());
  SparseMemory whole(hw_.DRAM_BYTES), read(hw_.DRAM_BYTES);
  ASSERT_TRUE(WriteQwen3Image(*plan, w, nullptr, &whole).ok());
  ASSERT_TRUE(WriteQwen3Image(*plan, *source_, nullptr, &read).ok());
  EXPECT_EQ(whole.FirstDifference(read), -1);
}

// The reference of the checkpoint reads a layer at a time and gives the very logits of the
// resident model; a prefill equals the steps one by one.
TEST_F(Qwen3SourceTest, ReferenceFromTheCheckpointEqualsTheResidentModels) {
  const Qwen3Weights& w = QwenTinyWeights();
  Qwen3Reference resident(w), stepped(w);
  CountingSource counted(*source_);
  Qwen3Reference read(counted, 1000);  // the head in slices of 3 rows
  const std::vector<int> tokens = {1, 42, 318, 7};
  std::vector<double> last;
  for (int t : tokens) {
    StatusOr<std::vector<double>> l = stepped.Step(t);
    ASSERT_TRUE(l.ok());
    last = *l;
  }
  StatusOr<std::vector<double>> a = resident.Prefill(tokens);
  StatusOr<std::vector<double>> b = read.Prefill(tokens);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, last);
  EXPECT_EQ(*b, last);
  EXPECT_EQ(read.pos(), 4);
  // Each layer's weights once for the four tokens, the head in slices.
  EXPECT_EQ(counted.calls("model.layers.0.mlp.down_proj.weight"), 1);
  EXPECT_EQ(counted.largest(), LargestInALayer(w.config));
  StatusOr<std::vector<double>> next = read.Step(5), want = stepped.Step(5);
  ASSERT_TRUE(next.ok() && want.ok());
  EXPECT_EQ(*next, *want);
}

// The whole workload (image, steps, the check's logits) is the same from either source,
// positions past the prompt (greedy tokens) included.
TEST_F(Qwen3SourceTest, RunFromTheCheckpointEqualsTheResidentModels) {
  Qwen3RunOptions ro;
  ro.prompt = {1, 42};
  ro.pos = 4;
  StatusOr<workloads::WorkloadRun> a = MakeQwen3Run("t", QwenTinyWeights(), hw_, ro);
  StatusOr<workloads::WorkloadRun> b = MakeQwen3Run("t", *source_, hw_, ro);
  ASSERT_TRUE(a.ok()) << a.status().message();
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_EQ(a->image.FirstDifference(b->image), -1);
  ASSERT_EQ(a->steps.size(), 5u);
  ASSERT_EQ(b->steps.size(), 5u);
  for (size_t i = 0; i < a->steps.size(); ++i) {
    EXPECT_EQ(a->steps[i].args, b->steps[i].args) << i;
    ASSERT_EQ(a->steps[i].writes.size(), 1u);
    EXPECT_EQ(a->steps[i].writes[0].bytes, b->steps[i].writes[0].bytes) << i;
    EXPECT_EQ(a->steps[i].traced, b->steps[i].traced) << i;
  }
  // The checks judge the same logits the same way.
  SparseMemory dram = a->image;
  EXPECT_EQ(a->check(dram).detail, b->check(dram).detail);
}

TEST_F(Qwen3SourceTest, RowsOutsideATensorAreInvalidArgumentNamingIt) {
  StatusOr<TensorValues> past = source_->Rows("model.embed_tokens.weight", 999, 2);
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(past.status().message().find("model.embed_tokens.weight"), std::string::npos)
      << past.status().message();
  EXPECT_NE(past.status().message().find("rows [999, 1001) outside its 1000 rows"),
            std::string::npos)
      << past.status().message();
  StatusOr<TensorValues> negative = source_->Rows("model.norm.weight", 0, -1);
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.status().code(), StatusCode::kInvalidArgument);

  const ResidentQwen3 resident(QwenTinyWeights());
  StatusOr<TensorValues> r = resident.Rows("model.embed_tokens.weight", -1, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("model.embed_tokens.weight"), std::string::npos);
  StatusOr<TensorValues> missing = resident.Tensor("model.layers.99.mlp.up_proj.weight");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

TEST_F(Qwen3SourceTest, ReferenceRefusesAnEmptyPrefillAndATokenPastTheVocabulary) {
  Qwen3Reference ref(*source_);
  StatusOr<std::vector<double>> none = ref.Prefill({});
  EXPECT_EQ(none.status().code(), StatusCode::kInvalidArgument);
  StatusOr<std::vector<double>> past = ref.Prefill({1, 1000});
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(past.status().message().find("token 1000 is outside the vocabulary of 1000"),
            std::string::npos)
      << past.status().message();
  EXPECT_EQ(ref.pos(), 0);
}

// A tensor's mapped pages leave the resident set once read (SafetensorsFile::ReadFloatRows);
// reading it again maps them in again and gives the same values, whole or by rows.
TEST_F(Qwen3SourceTest, ATensorReadsTheSameAfterItsPagesAreReleased) {
  StatusOr<TensorValues> a = source_->Tensor("model.embed_tokens.weight");
  StatusOr<TensorValues> b = source_->Tensor("model.embed_tokens.weight");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->get(), b->get());
  EXPECT_EQ(a->get(), QwenTinyWeights().embed_tokens);
  StatusOr<TensorValues> row = source_->Rows("model.embed_tokens.weight", 7, 1);
  ASSERT_TRUE(row.ok());
  const int H = QwenTinyWeights().config.hidden_size;
  EXPECT_EQ(row->get(), std::vector<float>(a->get().begin() + 7 * H, a->get().begin() + 8 * H));
}

}  // namespace
}  // namespace otpu::models
