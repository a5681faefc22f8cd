#include "workloads/models/qwen3_formats.h"

#include <gtest/gtest.h>

namespace otpu::models {
namespace {

TEST(WeightFormats, DashHeadFollowsTheLayers) {
  for (auto [wf, head] : {std::pair{"int8", isa::WFormat::kINT8},
                          std::pair{"int4", isa::WFormat::kINT4},
                          std::pair{"fp4", isa::WFormat::kFP4},
                          std::pair{"mix", isa::WFormat::kINT8}}) {
    StatusOr<WeightFormats> f = ParseWeightFormats(wf, "-");
    ASSERT_TRUE(f.ok()) << f.status().message();
    EXPECT_EQ(f->head, head) << wf;
    EXPECT_STREQ(LayerFormatName(f->layers), wf);
  }
}

TEST(WeightFormats, HeadFormatIsIndependentOfTheLayers) {
  StatusOr<WeightFormats> f = ParseWeightFormats("int8", "fp4");
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->layers, LayerFormat::kInt8);
  EXPECT_EQ(f->head, isa::WFormat::kFP4);
  EXPECT_EQ(FormatsName(*f), "int8/fp4");
  EXPECT_EQ(FormatsName({LayerFormat::kInt4, isa::WFormat::kINT4}), "int4");
}

TEST(WeightFormats, BadLayerFormatIsNamed) {
  StatusOr<WeightFormats> f = ParseWeightFormats("int3", "-");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message(), "weight format 'int3' is not int8|int4|fp4|mix");
}

TEST(WeightFormats, BadHeadFormatIsNamed) {
  StatusOr<WeightFormats> f = ParseWeightFormats("int8", "mix");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message(), "head format 'mix' is not int8|int4|fp4|-");
}

TEST(WeightFormats, MixKeepsAttentionInt8AndPutsTheMlpInFp4) {
  for (int l = 0; l < 3; ++l) {
    LayerWFormats f = FormatsOfLayer(LayerFormat::kMix, l, 3);
    EXPECT_EQ(f.attn, isa::WFormat::kINT8);
    EXPECT_EQ(f.mlp, isa::WFormat::kFP4);
  }
}

TEST(WeightFormats, FourBitIsFoundInLayersOrHead) {
  EXPECT_FALSE(HasFourBit({LayerFormat::kInt8, isa::WFormat::kINT8}, 2));
  EXPECT_TRUE(HasFourBit({LayerFormat::kInt8, isa::WFormat::kINT4}, 2));
  EXPECT_TRUE(HasFourBit({LayerFormat::kMix, isa::WFormat::kINT8}, 2));
  EXPECT_TRUE(HasFourBit({LayerFormat::kFp4, isa::WFormat::kINT8}, 1));
}

}  // namespace
}  // namespace otpu::models
