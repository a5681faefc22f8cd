#include "workloads/models/tokenizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "workloads/models/byte_level.h"
#include "workloads/models/io_test_util.h"
#include "workloads/models/pre_tokenizer.h"
#include "workloads/models/tiny_tokenizer.h"

namespace otpu::models {
namespace {

using ::testing::HasSubstr;

// The tiny checkpoint's tokenizer (Qwen layout, 1000 ids), built once.
const Tokenizer& Tiny() {
  static const Tokenizer* tok = [] {
    auto t = Tokenizer::FromJson(TinyTokenizerJson(1000).value(), "tiny/tokenizer.json");
    OTPU_CHECK(t.ok());
    return std::move(t).value().release();
  }();
  return *tok;
}

std::vector<int> Enc(const Tokenizer& t, std::string_view s) {
  auto ids = t.Encode(s);
  OTPU_CHECK(ids.ok());
  return *ids;
}

std::string Dec(const Tokenizer& t, const std::vector<int>& ids, bool skip = false) {
  auto s = t.Decode(ids, skip);
  OTPU_CHECK(s.ok());
  return *s;
}

// A minimal byte-level tokenizer.json: the 256 byte symbols, `extra` symbols after them,
// `merges` in rank order, and `tail` spliced in as further top-level members.
std::string MiniJson(const std::vector<std::string>& extra,
                     const std::vector<std::pair<std::string, std::string>>& merges,
                     const std::string& tail = R"("pre_tokenizer": null)") {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  w.StartObject();
  w.Key("type");
  w.String("BPE");
  w.Key("vocab");
  w.StartObject();
  int id = 0;
  for (int b = 0; b < 256; ++b) {
    w.Key(ByteSymbol(uint8_t(b)).c_str());
    w.Int(id++);
  }
  for (const auto& s : extra) {
    w.Key(s.c_str());
    w.Int(id++);
  }
  w.EndObject();
  w.Key("merges");
  w.StartArray();
  for (const auto& [a, b] : merges) {
    w.StartArray();
    w.String(a.c_str());
    w.String(b.c_str());
    w.EndArray();
  }
  w.EndArray();
  w.EndObject();
  return std::string("{\"model\": ") + sb.GetString() + ", " + tail + "}";
}

std::unique_ptr<Tokenizer> Mini(const std::string& json) {
  auto t = Tokenizer::FromJson(json, "mini.json");
  OTPU_CHECK(t.ok());
  return std::move(t).value();
}

Status LoadError(const std::string& json) {
  auto t = Tokenizer::FromJson(json, "bad/tokenizer.json");
  return t.ok() ? OkStatus() : t.status();
}

TEST(Tokenizer, RoundTripsAssortedText) {
  const char* texts[] = {
      "",
      "What is the capital of France?",
      "Le caf\u00e9 est tr\u00e8s bon. Gr\u00fc\u00dfe aus M\u00fcnchen!",
      "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8 \u4f60\u597d\uff0c\u4e16\u754c",
      "\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440! \u0645\u0631\u062d\u0628\u0627",
      "emoji \U0001F600\U0001F44D\U0001F680 family \U0001F468\u200D\U0001F469\u200D\U0001F467 flag "
      "\U0001F1EB\U0001F1F7",
      "digits 1234567890 and 3.14159, -42, 1e-6",
      "runs:    four spaces,\t\ttabs,\n\n\nnewlines,\r\nCRLF, trailing   ",
      "   leading spaces",
      "    def main():\n        return 0\n",
      "mixed<|im_start|>special<|im_end|>tokens <think>\n\n</think>",
  };
  for (const char* s : texts) EXPECT_EQ(Dec(Tiny(), Enc(Tiny(), s)), s) << s;
}

TEST(Tokenizer, EncodesDigitsOneByOne) {
  const std::vector<int> ids = Enc(Tiny(), "2024");
  ASSERT_EQ(ids.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(Dec(Tiny(), {ids[i]}), std::string(1, "2024"[i]));
}

TEST(Tokenizer, AppliesLearnedMerges) {
  // The tiny vocabulary is learned from text with "capital" in it several times.
  const std::vector<int> ids = Enc(Tiny(), "What is the capital of France?");
  EXPECT_LT(ids.size(), 12u);
  EXPECT_NE(Tiny().TokenId(BytesToSymbols(" capital")), -1);
}

TEST(Tokenizer, MatchesSpecialTokensBeforePreTokenizing) {
  const int start = Tiny().TokenId("<|im_start|>"), end = Tiny().TokenId("<|im_end|>");
  const std::vector<int> ids = Enc(Tiny(), "ab<|im_end|>cd<|im_start|>");
  ASSERT_GE(ids.size(), 4u);
  EXPECT_EQ(ids.back(), start);
  EXPECT_EQ(std::count(ids.begin(), ids.end(), end), 1);
  EXPECT_EQ(Dec(Tiny(), {ids.begin(), ids.end() - 1}), "ab<|im_end|>cd");
}

TEST(Tokenizer, ChatTemplateEncodesItsMarkersAsSingleTokens) {
  const std::string prompt = QwenChatPrompt("Hi");
  const std::vector<int> ids = Enc(Tiny(), prompt);
  const auto count = [&](const char* token) {
    return std::count(ids.begin(), ids.end(), Tiny().TokenId(token));
  };
  EXPECT_EQ(ids.front(), Tiny().TokenId("<|im_start|>"));
  EXPECT_EQ(count("<|im_start|>"), 2);
  EXPECT_EQ(count("<|im_end|>"), 1);
  EXPECT_EQ(count("<think>"), 1);
  EXPECT_EQ(count("</think>"), 1);
  EXPECT_EQ(Dec(Tiny(), ids), prompt);
}

TEST(Tokenizer, SkippingSpecialsKeepsThinkMarkers) {
  // Qwen3 marks <think> and </think> non-special: they survive skip_special.
  const std::vector<int> ids = Enc(Tiny(), "<|im_start|>a<think>b</think><|im_end|>");
  EXPECT_EQ(Dec(Tiny(), ids, /*skip=*/true), "a<think>b</think>");
}

TEST(Tokenizer, NormalizesToNfcFirst) {
  // e + combining acute encodes as the precomposed é, as the NFC normalizer asks.
  EXPECT_EQ(Enc(Tiny(), "cafe\u0301"), Enc(Tiny(), "caf\u00e9"));
}

TEST(Tokenizer, MergesApplyByRank) {
  const std::vector<std::string> extra = {"ab", "bc", "abc"};
  auto b_c_first = Mini(MiniJson(extra, {{"b", "c"}, {"a", "b"}, {"a", "bc"}}));
  auto a_b_first = Mini(MiniJson(extra, {{"a", "b"}, {"b", "c"}, {"ab", "c"}}));
  auto without_last = Mini(MiniJson(extra, {{"a", "b"}, {"b", "c"}}));
  EXPECT_EQ(Enc(*b_c_first, "abc"), std::vector<int>{258});            // a+bc -> abc
  EXPECT_EQ(Enc(*a_b_first, "abc"), std::vector<int>{258});            // ab+c -> abc
  EXPECT_EQ(Enc(*without_last, "abc"), (std::vector<int>{256, 'c'}));  // ab, c
}

TEST(Tokenizer, MergesLeftmostFirstAmongEqualRanks) {
  auto t = Mini(MiniJson({"aa"}, {{"a", "a"}}));
  EXPECT_EQ(Enc(*t, "aaa"), (std::vector<int>{256, 'a'}));
}

// Byte-level BPE the slow, obvious way: merge the best-ranked adjacent pair, leftmost
// first, until none applies.
std::vector<std::string> NaiveBpe(const std::vector<std::pair<std::string, std::string>>& merges,
                                  std::string_view piece) {
  std::vector<std::string> word;
  for (char c : piece) word.push_back(ByteSymbol(uint8_t(c)));
  while (word.size() > 1) {
    size_t best = 0, best_rank = merges.size();
    for (size_t i = 0; i + 1 < word.size(); ++i) {
      for (size_t r = 0; r < best_rank; ++r) {
        if (merges[r].first == word[i] && merges[r].second == word[i + 1]) best = i, best_rank = r;
      }
    }
    if (best_rank == merges.size()) break;
    word[best] += word[best + 1];
    word.erase(word.begin() + long(best) + 1);
  }
  return word;
}

TEST(Tokenizer, AgreesWithNaiveBpeOnEveryPiece) {
  const TinyBpe bpe = TrainTinyBpe(TinyTrainingText(), 995).value();
  const std::string text = std::string(TinyTrainingText()) + " capitalcapital Seinenewlines";
  const std::vector<std::string> pieces = Tiny().PreTokenize(text).value();
  for (const std::string& piece : pieces) {
    std::vector<int> want;
    for (const std::string& sym : NaiveBpe(bpe.merges, piece)) want.push_back(Tiny().TokenId(sym));
    ASSERT_EQ(Enc(Tiny(), piece), want) << piece;
  }
}

TEST(Tokenizer, EncodesLongPiecesQuickly) {
  // One 100k-byte piece each: quadratic merging would take minutes.
  for (const std::string& s : {std::string(100000, ' '), std::string(100000, 'a')}) {
    EXPECT_EQ(Dec(Tiny(), Enc(Tiny(), s)), s);
  }
}

TEST(Tokenizer, ReadsBothMergeForms) {
  auto pairs = Tokenizer::FromJson(TinyTokenizerJson(1000, false).value(), "p.json");
  auto strings = Tokenizer::FromJson(TinyTokenizerJson(1000, true).value(), "s.json");
  ASSERT_TRUE(pairs.ok() && strings.ok());
  const char* text = "The accelerator runs one decode step. Gr\u00fc\u00dfe! 2024";
  EXPECT_EQ(Enc(**pairs, text), Enc(**strings, text));
}

TEST(Tokenizer, InvalidUtf8NamesTheByte) {
  auto ids = Tiny().Encode("ok\xFFno");
  EXPECT_EQ(ids.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(ids.status().message(), HasSubstr("invalid UTF-8 at byte 2"));
}

TEST(Tokenizer, UnknownIdNamesIt) {
  const std::vector<int> ids = {5, 1000};
  auto s = Tiny().Decode(ids);
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.status().message(),
              HasSubstr("tiny/tokenizer.json: token id 1000 is not in the vocabulary"));
}

TEST(Tokenizer, MissingFileIsNotFound) {
  ScratchDir dir;
  auto t = Tokenizer::FromFile(dir.File("tokenizer.json"));
  EXPECT_EQ(t.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(t.status().message(), HasSubstr("tokenizer.json: no such file"));
}

TEST(Tokenizer, ReadsItsFile) {
  ScratchDir dir;
  WriteRaw(dir.File("tokenizer.json"), TinyTokenizerJson(1000).value());
  auto t = Tokenizer::FromFile(dir.File("tokenizer.json"));
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(Enc(**t, "Paris"), Enc(Tiny(), "Paris"));
}

TEST(TokenizerLoad, TextThatIsNotJsonIsDataLoss) {
  const Status s = LoadError("{\"model\": ");
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("bad/tokenizer.json: invalid JSON at byte"));
}

// Regression: PCRE2's match limit error did not name tokenizer.json.
TEST(TokenizerEncode, PatternThatHitsTheMatchLimitNamesTheFile) {
  const std::string tail =
      R"("pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(\\w+\\s?)+$"}, )"
      R"("behavior": "Isolated", "invert": false})";
  auto t = Tokenizer::FromJson(MiniJson({}, {}, tail), "bad/tokenizer.json");
  ASSERT_TRUE(t.ok()) << t.status().message();
  auto ids = (*t)->Encode(std::string(40, 'a') + "!");  // catastrophic backtracking
  ASSERT_FALSE(ids.ok());
  EXPECT_EQ(ids.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(ids.status().message(), HasSubstr("bad/tokenizer.json: pre_tokenizer: "));
  EXPECT_THAT(ids.status().message(), HasSubstr("limit"));
}

TEST(TokenizerLoad, DeepNestingIsDataLossNotACrash) {
  const Status s = LoadError(std::string(200000, '[') + std::string(200000, ']'));
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("bad/tokenizer.json: invalid JSON at byte 128: nested deeper"));
}

TEST(TokenizerLoad, IdPastTheTokensOfTheFileNamesItAndAllocatesNothing) {
  std::string json = MiniJson({"ab"}, {});
  json.replace(json.find("\"ab\":256"), 8, "\"ab\":2147483000");
  const Status s = LoadError(json);
  EXPECT_THAT(s.message(), HasSubstr("bad/tokenizer.json: model.vocab['ab'] = 2147483000: more than 65536 past the 257 tokens the file defines"));
}

TEST(TokenizerLoad, OtherModelTypeNamesIt) {
  const Status s = LoadError(R"({"model": {"type": "WordPiece", "vocab": {}}})");
  EXPECT_THAT(s.message(),
              HasSubstr("bad/tokenizer.json: model.type 'WordPiece' is not supported"));
}

TEST(TokenizerLoad, VocabularyWithoutAByteNamesIt) {
  std::string json = MiniJson({}, {});
  const std::string nul = "\"" + ByteSymbol(0) + "\":0,";
  json.erase(json.find(nul), nul.size());
  const Status s = LoadError(json);
  EXPECT_THAT(s.message(), HasSubstr("model.vocab has no symbol '\u0100' for byte 0x00"));
}

TEST(TokenizerLoad, MergeOfUnknownSymbolNamesItsIndex) {
  const Status s = LoadError(MiniJson({"ab"}, {{"a", "b"}, {"x", "yz"}}));
  EXPECT_THAT(s.message(),
              HasSubstr("bad/tokenizer.json: model.merges[1]: 'yz' is not in model.vocab"));
}

TEST(TokenizerLoad, MalformedMergeStringNamesIt) {
  std::string json = MiniJson({"ab"}, {{"a", "b"}});
  const size_t at = json.find(R"(["a","b"])");
  json.replace(at, 9, R"("a b c")");
  const Status s = LoadError(json);
  EXPECT_THAT(s.message(),
              HasSubstr("model.merges[0]: 'a b c' is not two symbols split by one space"));
}

TEST(TokenizerLoad, BadSplitRegexNamesTheOffset) {
  const Status s = LoadError(MiniJson(
      {}, {},
      R"("pre_tokenizer": {"type": "Split", "pattern": {"Regex": "a[b"}, "behavior": "Isolated"})"));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(),
              HasSubstr("bad/tokenizer.json: pre_tokenizer: pattern does not compile"));
  EXPECT_THAT(s.message(), HasSubstr("at offset 3"));
}

TEST(TokenizerLoad, UnsupportedNormalizerNamesIt) {
  const Status s = LoadError(MiniJson({}, {}, R"("normalizer": {"type": "Lowercase"})"));
  EXPECT_THAT(s.message(),
              HasSubstr("bad/tokenizer.json: normalizer type 'Lowercase' is not supported"));
}

TEST(TokenizerLoad, AddedTokenWithoutContentNamesItsIndex) {
  const Status s = LoadError(
      MiniJson({}, {}, R"("added_tokens": [{"id": 300, "content": "<x>"}, {"id": 301}])"));
  EXPECT_THAT(s.message(),
              HasSubstr("bad/tokenizer.json: added_tokens[1] needs an id and a content"));
}

TEST(QwenChatPrompt, WrapsOneUserTurnWithThinkingOff) {
  EXPECT_EQ(QwenChatPrompt("Hi?"),
            "<|im_start|>user\nHi?<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n");
}

}  // namespace
}  // namespace otpu::models
