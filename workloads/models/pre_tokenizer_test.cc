#include "workloads/models/pre_tokenizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace otpu::models {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Pieces = std::vector<std::string_view>;

Pieces Split(const char* pattern, std::string_view text) {
  auto pre = PreTokenizer::FromPattern(pattern);
  OTPU_CHECK(pre.ok());
  Pieces pieces;
  OTPU_CHECK((*pre)->Split(text, &pieces).ok());
  return pieces;
}

Pieces Qwen(std::string_view text) { return Split(kQwenPattern, text); }

TEST(QwenPattern, SplitsWordsWithTheirLeadingSpace) {
  EXPECT_THAT(Qwen("Hello world"), ElementsAre("Hello", " world"));
}

TEST(QwenPattern, SplitsDigitsOneByOne) {
  EXPECT_THAT(Qwen("in 2024"), ElementsAre("in", " ", "2", "0", "2", "4"));
}

TEST(QwenPattern, SplitsContractionsCaseInsensitively) {
  EXPECT_THAT(Qwen("I'm DON'T"), ElementsAre("I", "'m", " DON", "'T"));
}

TEST(QwenPattern, LeavesTheLastSpaceOfARunToTheNextWord) {
  EXPECT_THAT(Qwen("a    b"), ElementsAre("a", "   ", " b"));
}

TEST(QwenPattern, KeepsNewlinesApartFromWords) {
  EXPECT_THAT(Qwen("x\n\ny"), ElementsAre("x", "\n\n", "y"));
  EXPECT_THAT(Qwen("end.\r\nNext"), ElementsAre("end", ".\r\n", "Next"));
}

TEST(QwenPattern, TreatsNonAsciiLettersAsLetters) {
  EXPECT_THAT(Qwen("h\u00e9llo w\u00f6rld \u4f60\u597d"),
              ElementsAre("h\u00e9llo", " w\u00f6rld", " \u4f60\u597d"));
}

TEST(QwenPattern, GroupsPunctuationAndEmoji) {
  EXPECT_THAT(Qwen("Hi!! \U0001F600\U0001F44D ok"),
              ElementsAre("Hi", "!!", " \U0001F600\U0001F44D", " ok"));
}

TEST(QwenPattern, AttachesOnePunctuationCharToAWord) {
  EXPECT_THAT(Qwen("(hello)"), ElementsAre("(hello", ")"));
}

TEST(Gpt2Pattern, KeepsDigitRunsTogether) {
  EXPECT_THAT(Split(kGpt2Pattern, "in 2024"), ElementsAre("in", " 2024"));
}

TEST(PreTokenizer, KeepsTextBetweenMatchesAsPieces) {
  EXPECT_THAT(Split("[0-9]+", "ab12cd3"), ElementsAre("ab", "12", "cd", "3"));
}

TEST(PreTokenizer, BadPatternNamesPcre2sComplaint) {
  auto pre = PreTokenizer::FromPattern("(\\p{L}+");
  EXPECT_EQ(pre.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(pre.status().message(),
              HasSubstr("pattern does not compile: missing closing parenthesis at offset 7"));
}

TEST(PreTokenizer, UnsupportedSplitBehaviorNamesIt) {
  rapidjson::Document doc;
  doc.Parse(R"({"type":"Split","pattern":{"Regex":"\\s"},"behavior":"Removed","invert":false})");
  auto pre = PreTokenizer::FromJson(doc, "tokenizer.json");
  EXPECT_EQ(pre.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(
      pre.status().message(),
      HasSubstr("tokenizer.json: pre_tokenizer: Split behavior 'Removed' is not supported"));
}

TEST(PreTokenizer, UnsupportedTypeNamesItsPlaceInTheSequence) {
  rapidjson::Document doc;
  doc.Parse(
      R"({"type":"Sequence","pretokenizers":[{"type":"ByteLevel","use_regex":false},{"type":"Metaspace"}]})");
  auto pre = PreTokenizer::FromJson(doc, "tokenizer.json");
  EXPECT_EQ(pre.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(
      pre.status().message(),
      HasSubstr("pre_tokenizer.pretokenizers[1]: pre-tokenizer type 'Metaspace' is not supported"));
}

TEST(PreTokenizer, LiteralStringPatternSplitsOnTheString) {
  rapidjson::Document doc;
  doc.Parse(R"({"type":"Split","pattern":{"String":"."},"behavior":"Isolated","invert":false})");
  auto pre = PreTokenizer::FromJson(doc, "tokenizer.json");
  ASSERT_TRUE(pre.ok()) << pre.status().message();
  Pieces pieces;
  ASSERT_TRUE((*pre)->Split("a.bc", &pieces).ok());
  EXPECT_THAT(pieces, ElementsAre("a", ".", "bc"));
}

}  // namespace
}  // namespace otpu::models
